package pbem

import (
	"bytes"
	"testing"

	"fieldpost/engine"
)

// A map from the cache is the picture drawing it again gives, for the
// same position seen by the same side; another position or another side
// gets its own picture.
func TestPositionMapCache(t *testing.T) {
	j := newJudge(t, nil)
	for _, name := range []string{"tutorial", "krinkelt"} {
		sys, sc, err := j.svc.opts.Systems.Scenario(name)
		if err != nil {
			t.Fatal(err)
		}
		first, err := sys.NewGame(sc.Name, engine.SetupSeed(1))
		if err != nil {
			t.Fatal(err)
		}
		second, err := sys.NewGame(sc.Name, engine.SetupSeed(2))
		if err != nil {
			t.Fatal(err)
		}
		for _, side := range []string{"", "us", "german"} {
			drawn, err := j.svc.positionMap(first, side)
			if err != nil {
				t.Fatal(err)
			}
			cached, err := j.svc.positionMap(second, side)
			if err != nil {
				t.Fatal(err)
			}
			fresh, err := mapPart(second.Map, side)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(cached.Data, fresh.Data) || !bytes.Equal(drawn.Data, fresh.Data) {
				t.Errorf("%s, side %q: the cached map differs from the one drawn for the position", name, side)
			}
		}
	}
	keys := map[string]bool{}
	for _, name := range []string{"tutorial", "krinkelt"} {
		sys, sc, _ := j.svc.opts.Systems.Scenario(name)
		pos, _ := sys.NewGame(sc.Name, engine.SetupSeed(1))
		for _, side := range []string{"", "us", "german"} {
			key, err := viewMapKey(pos, side)
			if err != nil {
				t.Fatal(err)
			}
			if keys[key] {
				t.Errorf("%s, side %q: the key of another position's or side's map", name, side)
			}
			keys[key] = true
		}
	}
}
