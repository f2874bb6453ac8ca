package rules

import (
	"math"
	"testing"
)

// bruteRound plays every face of every die of shots at t, step by step as
// Inset V.6 and VI.5 say, and adds up the chances of each outcome: the
// check of ExactRoundOdds, which folds the dice together.
func bruteRound(s *State, shots []Shot, t *Unit) RoundOdds {
	c := s.Card(t)
	base := c.Endurance
	if t.Damaged {
		base = c.Breakpoint
	}
	def := s.Defense(t)
	var out RoundOdds
	var shoot func(i, fired, dmg, hits int, p float64)
	end := func(dmg, hits int, p float64, destroyed bool) {
		out.Hits += p * float64(hits)
		switch {
		case destroyed:
			out.Destroyed += p
			out.NetDamage += p * float64(base)
		case !t.Damaged && base-dmg <= c.Breakpoint:
			out.Damaged += p
			out.NetDamage += p * float64(dmg)
		default:
			out.Holds += p
			out.NetDamage += p * float64(dmg)
		}
	}
	shoot = func(i, fired, dmg, hits int, p float64) {
		if i == len(shots) {
			end(dmg, hits, p, false)
			return
		}
		sh := shots[i]
		if fired == sh.W.Shots() {
			shoot(i+1, 0, dmg, hits, p)
			return
		}
		need := s.Need(sh.By, sh.W, 0)
		for v := 1; v <= 20; v++ {
			q := p / 20
			switch {
			case v == 1:
				shoot(i+1, 0, dmg, hits, q)
				continue
			case v == 20:
				end(dmg, hits+1, q, true)
				continue
			case v < need:
				shoot(i, fired+1, dmg, hits, q)
				continue
			}
			hit := func(pierced bool, q float64) {
				for in := 1; in <= 10; in++ {
					intensity := in
					if v == 19 {
						intensity *= 2
					}
					used := def
					if pierced {
						used = 0
					}
					net := max(intensity+sh.W.DI-used, 0)
					if dmg+net >= base {
						end(dmg, hits+1, q/10, true)
					} else {
						shoot(i, fired+1, dmg+net, hits+1, q/10)
					}
				}
			}
			if sh.W.AP == 0 || def == 0 || sh.HE {
				hit(false, q)
				continue
			}
			for wv := 1; wv <= 10; wv++ {
				switch {
				case wv > sh.W.AP:
					hit(false, q/10)
				case sh.W.AP > def:
					hit(true, q/10)
				default:
					for av := 1; av <= 10; av++ {
						hit(av > def, q/100)
					}
				}
			}
		}
	}
	shoot(0, 0, 0, 0, 1)
	return out
}

// ExactRoundOdds agrees with every die played out face by face: a tank's
// AP shot at a tank, a machine gun's Double Fire and rifles at infantry,
// at a fresh and at a damaged target.
func TestExactRoundOddsPlayEveryFace(t *testing.T) {
	s, err := NewGame("ofanto", 1)
	if err != nil {
		t.Fatal(err)
	}
	unit := func(side, id string) *Unit {
		u := s.Unit(side, id)
		if u == nil {
			t.Fatalf("no %s:%s in ofanto", side, id)
		}
		return u
	}
	weapon := func(u *Unit, i int) Weapon { return s.Card(u).Weapons[i] }
	sher, pz4, rs1, lmg, rsGE := unit("US", "SHER-1"), unit("GE", "PZ4-1"), unit("US", "RS-1"), unit("US", "LMG-1"), unit("GE", "RS-3")
	cases := []struct {
		name  string
		shots []Shot
		t     *Unit
	}{
		{"Sherman AP at a Panzer IV", []Shot{{sher, weapon(sher, 0), false}}, pz4},
		{"Sherman HE at a Panzer IV", []Shot{{sher, weapon(sher, 0), true}}, pz4},
		{"rifles and a machine gun at a rifle squad", []Shot{{rs1, weapon(rs1, 0), false}, {lmg, weapon(lmg, 0), false}}, rsGE},
	}
	for _, damaged := range []bool{false, true} {
		for _, c := range cases {
			c.t.Damaged = damaged
			got, want := s.ExactRoundOdds(c.shots, c.t), bruteRound(s, c.shots, c.t)
			near := func(what string, a, b float64) {
				if math.Abs(a-b) > 1e-9 {
					t.Errorf("%s (damaged %v): %s %.6f, every face gives %.6f", c.name, damaged, what, a, b)
				}
			}
			near("destroyed", got.Destroyed, want.Destroyed)
			near("damaged", got.Damaged, want.Damaged)
			near("holds", got.Holds, want.Holds)
			near("hits", got.Hits, want.Hits)
			near("net damage", got.NetDamage, want.NetDamage)
			if sum := got.Destroyed + got.Damaged + got.Holds; math.Abs(sum-1) > 1e-9 {
				t.Errorf("%s: the outcomes add up to %v", c.name, sum)
			}
			if got.Destroyed <= 0 || got.Hits <= 0 || got.NetDamage <= 0 {
				t.Errorf("%s: %+v: no chance of anything", c.name, got)
			}
			c.t.Damaged = false
		}
	}
}
