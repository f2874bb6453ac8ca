package frontline

import (
	"fmt"
	"strings"

	"fieldpost/engine"
	"fieldpost/engine/frontline/data"
	"fieldpost/engine/frontline/rules"
)

// Briefing implements engine.Position: the scenario's situation (its
// DESCRIPTION lines), its victory conditions and turn limit, the score as
// the rules count it (Table II.1, from rules.json), and the player turn in
// the book's phases.
func (p *Position) Briefing(side string) engine.Briefing {
	st := p.st
	side = strings.ToUpper(side)
	rl := st.Lib().Rules
	b := engine.Briefing{
		Situation: scenarioDescription(st.Scenario),
		Turn: [5]string{
			"The sides play turns in turn. Only the active side mails orders; the other stands by the REACT orders it sent (retaliation, withdrawal, cease-fire), which it may change by mail while it waits.",
			"The active turn opens with income and events, and a command card drawn; in your own turns 1, 6, 11... you BUY units, which arrive at a Deployment Phase.",
			"Supply is paid from the treasury; then MOVE: each unit's path hex by hex, with loading, digging in, recon and engineering.",
			"COMBAT: each ENGAGE is fought where your units stand, round by round with d20 shots, the enemy firing back; then the waiting side's defensive combat.",
			"DEPLOY in your own turns 5, 10, 15...; then cities and ports change hands, surrounded units surrender, and victory is checked. The report and the next form are mailed.",
		},
		Orders: "How to write orders: the order form at the end of this mail shows a worked line of each section and is valid sent back unchanged. Reply HELP for the commands; the whole order language is docs/rules-frontline.md of Fieldpost, \"The order language\".",
	}
	for _, v := range st.Victory {
		var places []string
		for _, h := range v.Hold {
			places = append(places, placeName(st, h))
		}
		b.Victory = append(b.Victory, fmt.Sprintf("%s: victory at the end of an own turn holding %s.", sideTitle(v.Side), andList(places)))
	}
	switch limit := strings.ToUpper(st.Limit); limit {
	case "SCORE":
		b.Victory = append(b.Victory, fmt.Sprintf("Otherwise, after turn %d: the higher score wins; equal scores are a draw.", st.Turns))
	case "DRAW", "":
		b.Victory = append(b.Victory, fmt.Sprintf("Otherwise, after turn %d: a draw.", st.Turns))
	default:
		b.Victory = append(b.Victory, fmt.Sprintf("Otherwise, after turn %d: victory to %s.", st.Turns, sideTitle(limit)))
	}
	b.Score = []string{
		fmt.Sprintf("Taking a key city scores %d, a ruined city or a port city %d.", rl.ScoreKeyCity, rl.ScoreRuinedCity),
		"Destroying an enemy unit scores its cost; capturing one scores its cost, twice over when it surrenders without terms.",
		fmt.Sprintf("Each experience star a unit of yours earns scores %d.", rl.ScoreStar),
	}
	if st.Limit != "" && strings.ToUpper(st.Limit) != "SCORE" {
		b.Score = append(b.Score, "The score decides nothing in this scenario: it is kept for the report.")
	}
	return b
}

// andList joins words as a sentence does: "a, b and c".
func andList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// placeName is a hex with its name on the map, if it has one.
func placeName(st *rules.State, h rules.Hex) string {
	if name := st.Map.Names[h]; name != "" {
		return fmt.Sprintf("%s (%s)", name, h)
	}
	return h.String()
}

// scenarioDescription is the DESCRIPTION lines of a bundled scenario's
// file, a line with no text starting a paragraph; "" when it has none.
func scenarioDescription(name string) string {
	raw, err := data.Files.ReadFile("scenarios/" + name + ".txt")
	if err != nil {
		return ""
	}
	var paras []string
	var para []string
	for _, line := range strings.Split(string(raw), "\n") {
		rest, ok := strings.CutPrefix(strings.TrimSpace(line), "DESCRIPTION")
		if !ok {
			continue
		}
		if rest = strings.TrimSpace(rest); rest == "" && len(para) > 0 {
			paras, para = append(paras, strings.Join(para, " ")), nil
		} else if rest != "" {
			para = append(para, rest)
		}
	}
	if len(para) > 0 {
		paras = append(paras, strings.Join(para, " "))
	}
	return strings.Join(paras, "\n\n")
}
