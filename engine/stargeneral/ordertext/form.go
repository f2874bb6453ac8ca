package ordertext

import (
	"fmt"
	"strings"

	"fieldpost/engine/stargeneral/rules"
)

// Form writes the order form for a side: a valid order text naming every
// unit and stand where it stands, with the choices open to it in comments.
// Sent back unchanged it is accepted, and everything holds where it is.
func Form(rs *rules.Ruleset, st *rules.State, side, game string) string {
	var b strings.Builder
	sd := st.Side(side)
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	comment(&b, "", "Fieldpost order form: "+st.Title)
	comment(&b, "", fmt.Sprintf("%s (%s), %s", sd.Name, sd.Title, RoundName(rs, st)))
	w("# Reply with this form and change what you want: a line kept as it\n")
	w("# is means no change.\n")
	if st.Night {
		comment(&b, "", fmt.Sprintf("Night orders (%s): RECOVER unit stand SP | PLATOON unit platoon TO "+
			"stand | REBUILD unit stand AT hex SP n | RESHUFFLE unit stand TO hex. Points you leave are "+
			"given out for you: strength to the most damaged stands in command, then platoons.", rs.Section(rules.SecNight)))
	} else {
		comment(&b, "", "A stand's line is its path: "+pathExample(st, side)+
			" Status after the unit: M move, H hold, D dig in, R retreat. Attack: ATTACK hex WITH stand [stand] "+
			"[CLOSE|FIRE] SUPPORT platoon, ART battery, AIR")
	}
	w("# Everything after # is a comment. The whole language: reply HELP.\n\n")
	w("GAME %s  SIDE %s  ROUND %d\n", orDash(game), side, st.Turn+1)
	if st.Night {
		nightForm(&b, rs, st, side)
	} else {
		dayForm(&b, rs, st, side)
	}
	w("\nLOSSES keep-strength PURSUE yes HOLD-AT-COST yes DEFENSIVE-SUPPORT yes\n")
	w("END\n")
	return b.String()
}

// pathExample shows a path with a stand of the side: its first unit's
// first stand that is no HQ, walking two empty hexes of the map.
func pathExample(st *rules.State, side string) string {
	taken := map[rules.Hex]bool{}
	for _, u := range st.Units {
		for _, s := range u.Stands {
			taken[s.Hex] = true
		}
	}
	for _, bt := range st.Batteries {
		taken[bt.Hex] = true
	}
	free := func(h rules.Hex) bool { return st.Map.OnMap(h) && !taken[h] }
	for _, u := range st.ActiveUnits(side) {
		for _, s := range u.Stands {
			if s.Name == "HQ" {
				continue
			}
			for _, a := range s.Hex.Neighbours() {
				for _, b := range a.Neighbours() {
					if free(a) && free(b) && !rules.Adjacent(b, s.Hex) {
						return fmt.Sprintf("\"%s %s %s %s\" walks %s of %s from %s into %s, then %s.", s.Name, s.Hex, a, b, s.Name, u.ID, s.Hex, a, b)
					}
				}
			}
		}
	}
	return "the stand's name, then every hex it walks into in turn."
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// RoundName says which round st is about to play, e.g. "day 1, round 3 of 5".
func RoundName(rs *rules.Ruleset, st *rules.State) string {
	if st.Night {
		return fmt.Sprintf("night of day %d of %d", st.Day, st.Days)
	}
	return fmt.Sprintf("day %d of %d, round %d of %d", st.Day, st.Days, st.Round, rs.RoundsPerDay)
}

func dayForm(b *strings.Builder, rs *rules.Ruleset, st *rules.State, side string) {
	w := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	var ids []string
	for _, u := range st.ActiveUnits(side) {
		ids = append(ids, u.ID)
		hq := u.HQ(rs)
		b.WriteString("\n")
		// The unit's comment goes above it, where a long title has room.
		switch {
		case hq == nil:
			comment(b, "", fmt.Sprintf("%s; HQ lost: no new orders until it returns (%s); HQ-RETURN hex to place it", titleOr(u), rs.Section(rules.SecHQ)))
		default:
			comment(b, "", fmt.Sprintf("%s; may be %s", titleOr(u), statusChoices(rules.LegalStatuses(rs, st, u))))
		}
		w("%s %s %s\n", unitKeyword(rs), u.ID, u.Status)
		for _, s := range u.Stands {
			commented(b, "  ", fmt.Sprintf("%-5s %s", s.Name, s.Hex), standNote(rs, hq, s))
		}
	}
	w("\nPRIORITY %s\n", strings.Join(ids, " "))
	for _, bt := range st.Batteries {
		if bt.Side != side || bt.Removed {
			continue
		}
		order := "HOLD"
		if bt.Keep > 0 {
			order = fmt.Sprintf("KEEP %d", bt.Keep) // as the last orders kept
		}
		commented(b, "", fmt.Sprintf("ARTILLERY %s %s", bt.ID, order), fmt.Sprintf("at %s, %d SP, %d shots, range %d: HOLD | FIRE hex | MOVE hexes | KEEP n",
			bt.Hex, bt.SP, bt.ShotsPerRound, bt.Range))
	}
	if sd := st.Side(side); sd.Air > 0 {
		note := countWord(sd.Air, "air point") + " this round: support on ATTACK lines"
		if rs.AirInArtilleryPhase {
			note += ", or strikes in the artillery phase with a line AIR hex ..."
		}
		comment(b, "", note)
	}
}

// FormWidth is the longest line of the order form: mail programs wrap
// longer lines (at 72, 76 or 78 characters), and a wrapped tail would read
// as an order of its own.
const FormWidth = 72

// commentColumn is where the comments after short order lines start.
const commentColumn = 16

// commented writes an order line with its comment: after it when both fit
// in FormWidth, otherwise on lines of their own above it.
func commented(b *strings.Builder, indent, order, note string) {
	line := fmt.Sprintf("%s%-*s # %s", indent, commentColumn-2-len(indent), order, note)
	if len(line) <= FormWidth {
		b.WriteString(line + "\n")
		return
	}
	comment(b, indent, note)
	b.WriteString(indent + order + "\n")
}

// comment writes note as comment lines of at most FormWidth characters.
func comment(b *strings.Builder, indent, note string) {
	prefix := indent + "#"
	line := prefix
	for _, word := range strings.Fields(note) {
		if len(line) > len(prefix) && len(line)+1+len(word) > FormWidth {
			b.WriteString(line + "\n")
			line = prefix + "  "
		}
		line += " " + word
	}
	b.WriteString(line + "\n")
}

func nightForm(b *strings.Builder, rs *rules.Ruleset, st *rules.State, side string) {
	w := func(format string, args ...any) { comment(b, "", fmt.Sprintf(format, args...)) }
	sp, support := rules.NightPools(rs, st, side)
	w("Recovery pool: %d strength points, %d support points.", sp, support)
	for _, u := range st.ActiveUnits(side) {
		hq := u.HQ(rs)
		for _, s := range u.Stands {
			if s.SP < s.MaxSP {
				cmd := "in command"
				if hq == nil || rules.Distance(hq.Hex, s.Hex) > rs.CommandRange {
					cmd = "out of command: cannot recover"
				}
				w("  %s %s at %s: %d/%d SP, %s", u.ID, s.Name, s.Hex, s.SP, s.MaxSP, cmd)
			}
		}
		for _, s := range u.Lost {
			if rs.StandTypes[s.Type].Role != rules.RoleHQ {
				w("  %s %s (%s) lost, last at %s: REBUILD %s %s AT hex SP n", u.ID, s.Name, rs.StandTypes[s.Type].Title, s.Hex, u.ID, s.Name)
			}
		}
		for _, p := range u.LostPlatoons {
			line := fmt.Sprintf("  %s platoon %s (%s) lost: PLATOON %s %s TO stand", u.ID, p.Name, rs.StandTypes[p.Type].Title, u.ID, p.Name)
			if !rs.NightPlatoonsOwnUnit {
				line += fmt.Sprintf(", or to another %s: PLATOON unit %s FROM %s TO stand", rs.UnitWord, p.Name, u.ID)
			}
			w("%s", line)
		}
	}
}

// unitKeyword is how the form opens a unit's block: BN for battalions, REGT
// for regiments.
func unitKeyword(rs *rules.Ruleset) string {
	if rs.UnitWord == "regiment" {
		return "REGT"
	}
	return "BN"
}

func titleOr(u *rules.Unit) string {
	if u.Title != "" {
		return u.Title
	}
	return u.ID
}

func statusChoices(ss []rules.Status) string {
	parts := make([]string, len(ss))
	for i, s := range ss {
		parts[i] = string(s)
	}
	return strings.Join(parts, ", ")
}

func standNote(rs *rules.Ruleset, hq *rules.Stand, s *rules.Stand) string {
	t := rs.StandTypes[s.Type]
	note := fmt.Sprintf("%s %d/%d SP", t.Title, s.SP, s.MaxSP)
	for _, p := range []*rules.Platoon{s.Support, s.Transport} {
		if p != nil {
			note += fmt.Sprintf(", +%s (%s)", p.Name, rs.StandTypes[p.Type].Title)
		}
	}
	if hq != nil && s != hq && rules.Distance(hq.Hex, s.Hex) > rs.CommandRange {
		note += ", OUT OF COMMAND"
	}
	return note
}
