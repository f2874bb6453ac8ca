package rules

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxScenarioNumber bounds every number of a scenario file, far above any
// real one (strength points, air points and days are in the tens), so that
// no sum or product of them can overflow.
const maxScenarioNumber = 9999

// atoi reads a whole number of a scenario file; a number beyond
// ±maxScenarioNumber is an error, as is no number.
func atoi(s string) (int, error) {
	v, err := strconv.Atoi(s)
	if err == nil && (v > maxScenarioNumber || v < -maxScenarioNumber) {
		err = fmt.Errorf("%s is beyond %d", s, maxScenarioNumber)
	}
	return v, err
}

// orderWords are the words the order language (package ordertext) reads as
// words of its own, in upper case: a unit, stand, platoon or battery named
// like one of them could not be named in orders, so that the order form
// itself would be refused. ordertext's tests check that every word it
// knows is here.
var orderWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`
		GAME SIDE SEAT ROUND TURN PASSWORD PASS SECRET END
		BN BATTALION UNIT REGIMENT REGT RGT PRIORITY ORDER
		LOSSES PURSUE PURSUIT HOLD-AT-COST DEFENSIVE-SUPPORT
		ARTILLERY ART ARTY BATTERY BTY AIR AIRSTRIKE
		RECOVER STRENGTH PLATOON RESTORE REBUILD RESHUFFLE
		SWAP ATTACK ASSAULT FIRE SHOOT HQ-RETURN HQRETURN RETURN
		WITH AT TO SP SUPPORT SUPPORTED MOVE KEEP HOLD
		CLOSE CC CLOSE-COMBAT DF DISTANT RANGED DISTANT-FIRE
		- STAY STAYS HOLDS STOP`) {
		orderWords[w] = true
	}
}

// IsOrderWord reports whether w, in any case, is a word of the order
// language, which no unit, stand or battery may be named.
func IsOrderWord(w string) bool { return orderWords[strings.ToUpper(w)] }

// platoonWordAllowed: a platoon is named only after SWAP, PLATOON and
// SUPPORT, where AT has no meaning of its own, and "at" (anti-tank) is the
// name scenarios give the platoons of that type.
func platoonWordAllowed(w string) bool { return strings.EqualFold(w, "AT") }

// nameProblem says why orders could not name something called name, or "".
// The order language splits words at spaces, commas, semicolons and arrows,
// drops a word's trailing colon, reads # as a comment and a line starting
// with > as a quote.
func nameProblem(what, name string) string {
	switch {
	case name == "":
		return "a name cannot be empty"
	case !utf8.ValidString(name) || strings.ContainsFunc(name, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }):
		return "a name cannot contain spaces or control characters"
	case strings.ContainsAny(name, `,;:#"→`) || strings.Contains(name, "->"):
		return `a name cannot contain , ; : # " -> or →`
	case strings.HasPrefix(name, ">") || strings.HasPrefix(name, "+") || strings.Contains(name, "="):
		return "a name cannot begin with > or + or contain ="
	case IsOrderWord(name) && !(what == "platoon" && platoonWordAllowed(name)):
		return "it is a word of the order language"
	}
	return ""
}

// checkName reports a name that orders could not write; what says what
// the name is of, e.g. "stand".
func (p *scenarioParser) checkName(n int, what, name string) bool {
	if why := nameProblem(what, name); why != "" {
		p.errorf(n, "%s %q: %s, so orders could not name it", what, name, why)
		return false
	}
	return true
}

// sideNameProblem says why name cannot name a side, or "". A side's name is
// written in orders (SIDE us) and in mail commands (NEWGAME us=alice@...).
func sideNameProblem(name string) string {
	for i, r := range name {
		letter := 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
		if i == 0 && !letter {
			return "a side's name begins with a letter"
		}
		if !letter && !('0' <= r && r <= '9') && r != '-' && r != '_' {
			return "a side's name has only letters, digits, - and _"
		}
	}
	return ""
}

// The scenario's names are compared as orders compare them: in any case.

func (p *scenarioParser) sideNamed(name string) *Side {
	for i := range p.st.Sides {
		if strings.EqualFold(p.st.Sides[i].Name, name) {
			return &p.st.Sides[i]
		}
	}
	return nil
}

func (p *scenarioParser) unitNamed(id string) *Unit {
	for _, u := range p.st.Units {
		if strings.EqualFold(u.ID, id) {
			return u
		}
	}
	return nil
}

func (p *scenarioParser) batteryNamed(id string) *Battery {
	for _, b := range p.st.Batteries {
		if strings.EqualFold(b.ID, id) {
			return b
		}
	}
	return nil
}

func standNamed(list []*Stand, name string) *Stand {
	for _, s := range list {
		if strings.EqualFold(s.Name, name) {
			return s
		}
	}
	return nil
}

func (p *scenarioParser) unitHasPlatoon(u *Unit, name string) bool {
	for _, s := range u.Stands {
		for _, pl := range []*Platoon{s.Support, s.Transport} {
			if pl != nil && strings.EqualFold(pl.Name, name) {
				return true
			}
		}
	}
	for _, pl := range u.LostPlatoons {
		if strings.EqualFold(pl.Name, name) {
			return true
		}
	}
	return false
}
