package ordertext

import (
	"fmt"
	"strings"

	"fieldpost/engine/frontline/rules"
)

// Echo says accepted orders back in words, with the odds of each planned
// shot from the card numbers as the units stand now (moves may change
// them): to hit, to pierce, and to damage with one shot.
func Echo(s *rules.State, o rules.Orders) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Orders accepted for %s, turn %d.\n", o.Side, s.Turn)
	for _, by := range o.Buys {
		xp := ""
		if by.XP > 0 {
			xp = fmt.Sprintf(" with %d experience roll(s)", by.XP)
		}
		fmt.Fprintf(&b, "  buy %d x %s%s\n", by.Count, by.Code, xp)
	}
	for _, bu := range o.Builds {
		at := "at " + bu.Hex.String()
		if !bu.Across.IsZero() {
			at = "across the river " + bu.Hex.String() + "-" + bu.Across.String()
		}
		fmt.Fprintf(&b, "  %s builds %s %s, done at your next Deployment Phase\n", bu.By, bu.Code, at)
	}
	if len(o.Idle) > 0 {
		fmt.Fprintf(&b, "  idle if supply falls short: %s\n", strings.Join(o.Idle, " "))
	}
	for _, m := range o.Moves {
		var steps []string
		var at rules.Hex
		if u := s.Unit(o.Side, m.Unit); u != nil {
			at = u.Hex
		}
		for _, st := range m.Steps {
			switch st.Act {
			case rules.ActEnter:
				at = st.Hex
				steps = append(steps, st.Hex.String())
			case rules.ActDetonate:
				if st.Hex == at {
					steps = append(steps, "blow the port "+st.Hex.String()+" (d10 4+, then 2+, then automatic)")
				} else {
					steps = append(steps, "blow the bridge to "+st.Hex.String())
				}
			case rules.ActOccupy:
				steps = append(steps, "occupy "+st.Unit+" (shielded: only infantry may shoot at it)")
			case rules.ActDig:
				steps = append(steps, "dig in (d6 3+)")
			case rules.ActRecon:
				steps = append(steps, "recon "+st.Hex.String()+" (d10 5+, 8+ for hidden units; may not fight this turn)")
			default:
				steps = append(steps, strings.ToLower(st.Act)+" "+st.Unit)
			}
		}
		push := ""
		if m.Push {
			push = " (Push)"
		}
		land := ""
		if !m.Land.IsZero() {
			land = ", land at " + m.Land.String()
		}
		fmt.Fprintf(&b, "  %s: %s%s%s\n", m.Unit, strings.Join(steps, ", "), push, land)
	}
	for _, e := range o.Engagements {
		fmt.Fprintf(&b, "  engage %s with %s\n", e.Hex, strings.Join(e.Units, " "))
		he := map[string]bool{}
		for _, id := range e.HE {
			he[id] = true
		}
		for _, id := range e.Units {
			u := s.Unit(o.Side, id)
			tk, ok := e.Targets[id]
			if u == nil || !ok {
				continue
			}
			side, tid, _ := strings.Cut(tk, ":")
			t := s.Unit(side, tid)
			if t == nil {
				continue
			}
			for _, w := range s.Card(u).Weapons {
				if !s.CanAffect(&rules.Unit{ID: u.ID, Side: u.Side, Code: u.Code, Hex: t.Hex, Damaged: u.Damaged, Stars: u.Stars}, w, t) {
					continue
				}
				od := s.ShotOdds(u, w, t, !he[id])
				pierce := ""
				if od.Pierce > 0 {
					pierce = fmt.Sprintf("; pierce %.0f%%", od.Pierce*100)
				}
				fmt.Fprintf(&b, "    %s %s at %s (Def %d): hit %d+ = %.0f%%%s; damaged or destroyed by this shot about %.0f%%\n",
					id, w.Name, tk, s.Defense(t), od.Need, od.Hit*100, pierce, od.Damage*100)
			}
		}
		echoRoundOdds(&b, s, o.Side, e, he)
		for _, id := range e.Units {
			if h, ok := rules.PortTarget(e.Targets[id]); ok {
				if u := s.Unit(o.Side, id); u != nil {
					for _, w := range s.Card(u).Weapons {
						if w.Heavy {
							need := s.Need(u, w, 0)
							fmt.Fprintf(&b, "    %s %s at the port %s (%s) before the rounds: hit %d+ = %.0f%%\n", id, w.Name, h, s.PortState(h), need, float64(21-min(max(need, 2), 20))/20*100)
							break
						}
					}
				}
			}
		}
		if e.Mission != nil {
			ffe := ""
			if e.Mission.FFE {
				ffe = ", then Fire for Effect"
			}
			kind := "Destroy"
			if e.Mission.Pin {
				kind = "Pin"
			}
			if e.Mission.Blind {
				kind = "Blind"
			}
			fmt.Fprintf(&b, "    %s fire mission through %s with %s%s\n", kind, e.Mission.FO, strings.Join(e.Mission.Guns, " "), ffe)
		}
		if e.Suspend != nil {
			fmt.Fprintf(&b, "    Suspend Attack if %s\n", FormatCondition(e.Suspend))
		}
		if e.Withdraw != nil {
			fmt.Fprintf(&b, "    Withdraw if %s\n", FormatCondition(e.Withdraw))
		}
		if e.Inspire {
			b.WriteString("    Inspire\n")
		}
		for _, d := range e.Dismount {
			fmt.Fprintf(&b, "    %s gets off %s in round 1, %s idle that round; both fight from round 2\n", d.Unit, d.Carrier, d.Carrier)
		}
		for _, so := range e.Smoke {
			when := "as the engagement opens, instead of its round-1 fire"
			if so.If != nil {
				when = "at the start of the first round " + FormatCondition(so.If) + " holds, instead of firing that round"
			}
			rl := s.Lib().Rules
			fmt.Fprintf(&b, "    %s lays smoke %s: attacks on your units it screens need %d more, Withdraw and Suspend Attack +%d, for %d rounds\n",
				so.Unit, when, rl.VehicleSmokeAttackPenalty, rl.SmokeWithdrawBonus, rl.VehicleSmokeRounds)
		}
	}
	for _, d := range o.Deploys {
		if d.On != "" {
			fmt.Fprintf(&b, "  deploy %s aboard %s\n", d.Unit, d.On)
			continue
		}
		fmt.Fprintf(&b, "  deploy %s at %s%s\n", d.Unit, d.Hex, shipDelayNote(s, o.Side, d.Unit))
	}
	if len(o.Rush) > 0 {
		fmt.Fprintf(&b, "  Rush Deployment: %s\n", strings.Join(o.Rush, " "))
	}
	echoCommandPosts(&b, s, o)
	echoLandings(&b, s, o)
	if o.Standing != nil {
		b.WriteString("  standing orders for the enemy's turn:\n")
		for _, line := range strings.Split(strings.TrimRight(FormatStanding(*o.Standing), "\n"), "\n") {
			b.WriteString("  " + line + "\n")
		}
	}
	return b.String()
}

// echoRoundOdds says, for each enemy unit the engagement names as a
// target, what the first round of the fire named at it does, computed
// exactly from the rules' numbers: expected hits and net damage, and the
// chance it is destroyed, damaged or holds.
func echoRoundOdds(b *strings.Builder, s *rules.State, side string, e rules.Engagement, he map[string]bool) {
	var targets []string
	shots := map[string][]rules.Shot{}
	for _, id := range e.Units {
		u, tk := s.Unit(side, id), e.Targets[id]
		tside, tid, _ := strings.Cut(tk, ":")
		t := s.Unit(tside, tid)
		if u == nil || t == nil {
			continue
		}
		if _, ok := shots[tk]; !ok {
			targets = append(targets, tk)
		}
		shots[tk] = append(shots[tk], s.RoundShots(u, t.Hex, t, he[id])...)
	}
	for _, tk := range targets {
		tside, tid, _ := strings.Cut(tk, ":")
		t := s.Unit(tside, tid)
		if len(shots[tk]) == 0 {
			continue
		}
		od := s.ExactRoundOdds(shots[tk], t)
		c := s.Card(t)
		left := c.Endurance
		outcome := fmt.Sprintf("destroyed %.0f%%, damaged %.0f%%, holds %.0f%%", od.Destroyed*100, od.Damaged*100, od.Holds*100)
		if t.Damaged {
			left = c.Breakpoint
			outcome = fmt.Sprintf("destroyed %.0f%%, holds %.0f%%", od.Destroyed*100, od.Holds*100)
		}
		fmt.Fprintf(b, "    round 1 at %s (endurance %d, breakpoint %d): %.1f hits, %.1f net damage expected;\n      %s\n",
			tk, left, c.Breakpoint, od.Hits, od.NetDamage, outcome)
	}
	if len(targets) > 0 {
		b.WriteString("    (exact for the fire named at it, your units where their moves end; the\n" +
			"    enemy's return fire, fire missions and smoke are not counted)\n")
	}
}
