package rules

import "strings"

// CardNames are the eight command decisions of §IV.3 (Surrender is
// Conditional Surrender).
var CardNames = []string{"CeaseFire", "Encircle", "Inspire", "Push", "Rush", "Surrender", "Suspend", "Withdraw"}

// cardByName accepts a card's name in any case, with the book's longer
// spellings.
func cardByName(s string) (string, bool) {
	s = strings.ToLower(strings.Trim(s, ","))
	switch s {
	case "rushdeployment", "rush-deployment":
		s = "rush"
	case "suspendattack", "suspend-attack":
		s = "suspend"
	case "cease-fire", "ceasefire":
		s = "ceasefire"
	case "conditionalsurrender", "conditional-surrender":
		s = "surrender"
	}
	for _, c := range CardNames {
		if strings.ToLower(c) == s {
			return c, true
		}
	}
	return "", false
}

// Experience abilities of Table VIII.1 by d10 face 5-10.
var starsByFace = map[int]string{5: "marksman-primary", 6: "marksman-secondary", 7: "vigilant", 8: "stealthy", 9: "exploit-weakness", 10: "veteran"}

func validStar(s string) bool {
	for _, v := range starsByFace {
		if v == s {
			return true
		}
	}
	return false
}

// stars counts u's experience stars of one kind (cumulative, §VIII.2.1).
func (u *Unit) stars(star string) int {
	n := 0
	for _, s := range u.Stars {
		if s == star {
			n++
		}
	}
	return n
}

func (p *Player) holds(card string) bool {
	for _, c := range p.Hand {
		if c == card {
			return true
		}
	}
	return false
}

// spend removes one copy of card from the hand to the public discard pile.
func (s *State) spend(p *Player, card string) {
	for i, c := range p.Hand {
		if c == card {
			p.Hand = append(p.Hand[:i], p.Hand[i+1:]...)
			s.CommandDiscard = append(s.CommandDiscard, card)
			return
		}
	}
}
