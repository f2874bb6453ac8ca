package ordertext

import (
	"fmt"
	"strings"

	"fieldpost/engine"
	"fieldpost/engine/stargeneral/rules"
)

func countWord(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	if strings.HasSuffix(word, "x") {
		return fmt.Sprintf("%d %ses", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// Echo says in plain words what accepted orders will do, with the odds of
// every planned attack worked out exactly from the dice pools the position
// gives (as if every plotted move is made in full).
//
// Warnings (see Warnings) come first.
func Echo(rs *rules.Ruleset, st *rules.State, o *rules.Orders) string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	w("Orders accepted for %s, %s.\n", o.Side, RoundName(rs, st))
	if warnings := Warnings(rs, st, o); len(warnings) > 0 {
		w("\n%s: these orders are valid, but look again:\n", strings.ToUpper(countWord(len(warnings), "warning")))
		for _, warning := range warnings {
			w("  - %s\n", warning)
		}
	}
	if st.Night {
		echoNight(&b, o)
	}
	for _, u := range st.ActiveUnits(o.Side) {
		uo := o.For(u.ID)
		if uo == nil {
			to := u.Status
			if to == rules.Move || to == rules.Retreat {
				to = rules.Hold
			}
			if !st.Night {
				w("\n%s: no orders given: %s, nobody moves.\n", u.ID, statusName(to))
			}
			continue
		}
		w("\n%s: %s.\n", u.ID, statusName(uo.Status))
		moved := map[string]bool{}
		for _, m := range uo.Moves {
			moved[m.Stand] = true
			s := u.Stand(m.Stand)
			w("  %s moves %s -> %s (%s)\n", m.Stand, s.Hex, hexList(m.Path), countWord(len(m.Path), "hex"))
			if normal := rs.Allowance(s).Normal; uo.Status == rules.Move && len(m.Path) > normal {
				w("    from hex %d on a strategic move %s: only where no enemy is within %d hexes of its\n"+
					"    start, its path and its end, and %s cannot attack this round\n",
					normal+1, engine.Reference(rs.Section(rules.SecMovement)), rules.StrategicEnemyGap, m.Stand)
			}
		}
		var still []string
		for _, s := range u.Stands {
			if !moved[s.Name] {
				still = append(still, s.Name)
			}
		}
		if len(still) > 0 {
			w("  stay where they are: %s\n", strings.Join(still, ", "))
		}
		for _, sw := range uo.Swaps {
			w("  platoon %s goes to %s\n", sw.Platoon, sw.To)
		}
		if !uo.HQPlacement.IsZero() {
			w("  the new HQ appears at %s if it may\n", uo.HQPlacement)
		}
		if uo.Attack != nil {
			echoAttack(&b, rs, st, o, u, uo)
		}
	}
	if len(o.Priority) > 0 {
		w("\nWhen you win the initiative your units act in this order: %s.\n", strings.Join(o.Priority, ", "))
	}
	for _, bo := range o.Batteries {
		var parts []string
		if bo.Keep > 0 {
			parts = append(parts, fmt.Sprintf("keeps %s back from attack support", countWord(bo.Keep, "shot")))
		}
		switch {
		case !bo.Fire.IsZero():
			parts = append(parts, fmt.Sprintf("fires its shots left at %s in the artillery phase, if a stand of yours can spot it", bo.Fire))
		case len(bo.Move) > 0:
			parts = append(parts, fmt.Sprintf("moves to %s in the artillery phase", hexList(bo.Move)))
		}
		if len(parts) == 0 {
			parts = append(parts, "supports attacks and defence only")
		}
		w("Battery %s %s.\n", bo.Battery, strings.Join(parts, "; "))
	}
	if len(o.AirStrikes) > 0 {
		w("Air strikes in the artillery phase on %s.\n", hexList(o.AirStrikes))
	}
	c := o.Choices
	w("Standing choices: losses %s, pursue %s, hold at cost %s, defensive support %s.\n",
		orDefault(c.Losses, rules.LossesKeepStrength), yesNo(!c.NoPursuit), yesNo(!c.NoHoldAtCost), yesNo(!c.NoDefensiveSupport))
	return b.String()
}

// Warnings lists what valid orders do that a player would hardly want:
// stands that end the moves out of command (rule 1.1) and attacks that
// cannot be made from where the stands will stand, as things stand.
func Warnings(rs *rules.Ruleset, st *rules.State, o *rules.Orders) []string {
	if st.Night {
		return nil
	}
	var out []string
	for _, u := range st.ActiveUnits(o.Side) {
		uo := o.For(u.ID)
		hq := u.HQ(rs)
		if uo == nil || hq == nil {
			continue
		}
		end := func(s *rules.Stand) rules.Hex {
			for _, m := range uo.Moves {
				if m.Stand == s.Name && len(m.Path) > 0 {
					return m.Path[len(m.Path)-1]
				}
			}
			return s.Hex
		}
		hqEnd := end(hq)
		for _, s := range u.Stands {
			if d := rules.Distance(hqEnd, end(s)); s != hq && d > rs.CommandRange {
				out = append(out, fmt.Sprintf("%s %s ends at %s, %d hexes from its HQ at %s: out of command (%d hexes at most [§1.1])",
					u.ID, s.Name, end(s), d, hqEnd, rs.CommandRange))
			}
		}
		if uo.Attack != nil {
			if _, _, err := rules.ForecastWithNotes(rs, st, o, u.ID); err != nil {
				out = append(out, fmt.Sprintf("%s's attack on %s cannot be made as things stand: %v", u.ID, uo.Attack.Target, err))
			}
		}
	}
	return out
}

func echoAttack(b *strings.Builder, rs *rules.Ruleset, st *rules.State, o *rules.Orders, u *rules.Unit, uo *rules.UnitOrders) {
	a := uo.Attack
	var who []string
	for _, s := range a.Stands {
		who = append(who, fmt.Sprintf("%s (%s)", s.Stand, s.Mode()))
	}
	fmt.Fprintf(b, "  attacks %s with %s", a.Target, strings.Join(who, " and "))
	var sup []string
	sup = append(sup, a.LightArtillery...)
	for _, bt := range a.Batteries {
		sup = append(sup, "battery "+bt)
	}
	if a.Air > 0 {
		sup = append(sup, countWord(a.Air, "air point"))
	}
	if len(sup) > 0 {
		fmt.Fprintf(b, "; support: %s", strings.Join(sup, ", "))
	}
	b.WriteString("\n")
	fc, notes, err := rules.ForecastWithNotes(rs, st, o, u.ID)
	if err != nil {
		fmt.Fprintf(b, "    no odds yet: %v; the attack is made only if it can be when %s acts\n", err, u.ID)
		return
	}
	for _, n := range notes {
		fmt.Fprintf(b, "    as things stand, %s\n", n)
	}
	att := rs.PoolOdds(fc.Attacker)
	def := rs.PoolOdds(fc.Defender)
	fmt.Fprintf(b, "    target now: %s\n", describeTarget(rs, st, a.Target))
	echoForce(b, rs, "you", "your", "their", fc.Attacker, att)
	if fc.NoReturn != "" {
		fmt.Fprintf(b, "    they do not fire back: %s\n", fc.NoReturn)
	} else {
		echoForce(b, rs, "they", "their", "your", fc.Defender, def)
	}
	if fc.Close {
		fmt.Fprintf(b, "    chance to win the close combat: %.0f%% (they win %.0f%%, a draw %.0f%%)\n",
			100*rules.ChanceMore(att, def), 100*rules.ChanceMore(def, att), 100*(1-rules.ChanceMore(att, def)-rules.ChanceMore(def, att)))
	}
}

// echoForce says what one side of a forecast combat throws, with its
// expected hits. An air point that AA in range fires at adds its dice only
// if it gets through (9; 2SG 7): the echo says so, with the chance, and the
// odds count it.
func echoForce(b *strings.Builder, rs *rules.Ruleset, who, whose, enemys string, f rules.Force, odds []float64) {
	sure, points, airDice, aaShots := 0, 0, 0, 0
	for _, s := range f.Sources {
		if s.AAShots == 0 {
			sure += s.Dice
			continue
		}
		points++
		airDice += s.Dice
		aaShots = max(aaShots, s.AAShots)
	}
	if points == 0 {
		fmt.Fprintf(b, "    %s roll %d dice hitting on %s: %.1f hits expected\n", who, f.Dice, f.Rule, rules.Expected(odds))
		return
	}
	air := fmt.Sprintf("%d if %s air point gets", max(sure+airDice, f.MinDice), whose)
	if points > 1 {
		air = fmt.Sprintf("up to %d as %s %d air points get", max(sure+airDice, f.MinDice), whose, points)
	}
	fmt.Fprintf(b, "    %s roll %d dice hitting on %s, %s past %s AA: %.1f hits expected\n",
		who, max(sure, f.MinDice), f.Rule, air, enemys, rules.Expected(odds))
	fmt.Fprintf(b, "    (%s AA in range fires %s at each air point: it gets through %.0f%% of the time, and the odds count that)\n",
		enemys, timesWord(aaShots), 100*rs.AirThrough(aaShots))
}

func timesWord(n int) string {
	if n == 1 {
		return "once"
	}
	return fmt.Sprintf("%d times", n)
}

// describeTarget names what stands in a hex: unit, stand, type, SP and order.
func describeTarget(rs *rules.Ruleset, st *rules.State, h rules.Hex) string {
	for _, u := range st.Units {
		for _, s := range u.Stands {
			if s.Hex == h && !u.Removed {
				return fmt.Sprintf("%s %s %s, %d/%d SP, on %s", u.ID, s.Name, rs.StandTypes[s.Type].Title, s.SP, s.MaxSP, statusName(u.Status))
			}
		}
	}
	for _, bt := range st.Batteries {
		if bt.Hex == h && !bt.Removed {
			return fmt.Sprintf("battery %s, %d/%d SP", bt.ID, bt.SP, bt.MaxSP)
		}
	}
	return h.String()
}

func echoNight(b *strings.Builder, o *rules.Orders) {
	n := o.Night
	if n == nil {
		b.WriteString("\nNo night orders: the recovery points are given out by default.\n")
		return
	}
	for _, r := range n.Strength {
		fmt.Fprintf(b, "%s %s recovers %s\n", r.Unit, r.Stand, countWord(r.SP, "strength point"))
	}
	for _, p := range n.Platoons {
		fmt.Fprintf(b, "%s platoon %s returns on %s\n", p.Unit, p.Platoon, p.To)
	}
	for _, r := range n.Rebuild {
		fmt.Fprintf(b, "%s %s is rebuilt at %s with %s\n", r.Unit, r.Stand, r.Hex, countWord(r.SP, "strength point"))
	}
	for _, m := range n.Reshuffle {
		fmt.Fprintf(b, "%s %s moves to %s\n", m.Unit, m.Stand, m.To)
	}
}

func statusName(s rules.Status) string {
	switch s {
	case rules.Move:
		return "Move (M)"
	case rules.Hold:
		return "Hold (H)"
	case rules.DigIn:
		return "Dig In (D)"
	case rules.Retreat:
		return "Retreat (R)"
	}
	return string(s)
}

func hexList(hs []rules.Hex) string {
	parts := make([]string, len(hs))
	for i, h := range hs {
		parts[i] = h.String()
	}
	return strings.Join(parts, " -> ")
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
