package pbem

import (
	"fmt"
	"strings"
)

// Reliability counts a player's rounds: those whose orders came before
// the deadline, and those the deadline (or the GM's FORCE) played without
// them.
type Reliability struct {
	OnTime int `json:"on_time"`
	Missed int `json:"missed"`
}

// Rounds counts the rounds counted.
func (r Reliability) Rounds() int { return r.OnTime + r.Missed }

// Percent is the share of rounds on time, 100 for a player with none
// missed (and none played).
func (r Reliability) Percent() int {
	if r.Rounds() == 0 {
		return 100
	}
	return r.OnTime * 100 / r.Rounds()
}

func (r Reliability) String() string {
	if r.Rounds() == 0 {
		return "no rounds yet"
	}
	return fmt.Sprintf("%d%% (%d of %s on time)", r.Percent(), r.OnTime, plural(r.Rounds(), "round"))
}

func (r *Reliability) add(o Reliability) { r.OnTime += o.OnTime; r.Missed += o.Missed }

// reliability is the current holder's record in its seat.
func (p *Player) reliability() Reliability { return Reliability{OnTime: p.OnTime, Missed: p.Missed} }

// clubReliabilities sums every address's rounds over every game of the
// club, the seats it holds and those it held.
func (t storeTx) clubReliabilities() (map[string]Reliability, error) {
	games, err := t.games()
	if err != nil {
		return nil, err
	}
	out := map[string]Reliability{}
	for _, g := range games {
		for _, p := range g.Players {
			if !p.isOpen() {
				r := out[strings.ToLower(p.Address)]
				r.add(p.reliability())
				out[strings.ToLower(p.Address)] = r
			}
			for _, past := range p.Past {
				r := out[strings.ToLower(past.Address)]
				r.add(Reliability{OnTime: past.OnTime, Missed: past.Missed})
				out[strings.ToLower(past.Address)] = r
			}
		}
	}
	return out, nil
}

// clubReliability is one address's record over the club.
func (t storeTx) clubReliability(addr string) (Reliability, error) {
	all, err := t.clubReliabilities()
	return all[strings.ToLower(addr)], err
}
