package bot_test

import (
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"fieldpost/engine"
	"fieldpost/engine/stargeneral/bot"
	"fieldpost/engine/stargeneral/mapview"
	"fieldpost/engine/stargeneral/ordertext"
	"fieldpost/engine/stargeneral/rules"
)

// DEBUG only: SG_DEBUG=arras SG_GAMES=20 SG_VERBOSE=1
func TestZZDebug(t *testing.T) {
	name := os.Getenv("SG_DEBUG")
	if name == "" {
		t.Skip()
	}
	games, _ := strconv.Atoi(os.Getenv("SG_GAMES"))
	first, _ := strconv.Atoi(os.Getenv("SG_FIRST"))
	verbose := os.Getenv("SG_VERBOSE") != ""
	sc, err := rules.BundledScenario(name)
	if err != nil {
		t.Fatal(err)
	}
	wins := map[string]int{}
	var planTime time.Duration
	plans := 0
	for g := first; g < first+games; g++ {
		rs, st := sc.Ruleset, sc.NewGame()
		for turn := 0; !st.Ended; turn++ {
			var orders []*rules.Orders
			for i, sd := range st.Sides {
				t0 := time.Now()
				o := bot.Plan(rs, st, sd.Name, bot.Options{Seed: uint64(g*1000 + turn*10 + i)})
				planTime += time.Since(t0)
				plans++
				if verbose {
					fmt.Printf("---- game %d turn %d %s\n%s\n", g, turn, sd.Name, ordertext.Format(rs, st, o, "g"))
				}
				orders = append(orders, o)
			}
			next, events, err := rules.Resolve(rs, st, orders, engine.NewSeededDice(engine.RoundSeed(uint64(g), turn)))
			if err != nil {
				t.Fatal(err)
			}
			if verbose {
				for _, e := range events {
					fmt.Println("  ", e.Text)
				}
				fmt.Println(mapview.ASCII(rs, next))
			}
			st = next
		}
		pts := map[string]int{}
		for _, ob := range st.Objectives {
			pts[ob.Owner] += ob.Value
		}
		held := ""
		for _, ob := range st.SortedObjectives() {
			if ob.Owner == st.Sides[0].Name {
				held += " " + ob.Name
			}
		}
		fmt.Printf("game %d: winner %s %v%s\n", g, st.Winner, pts, held)
		wins[st.Winner]++
	}
	fmt.Printf("%s: %v; %.1f ms a plan\n", name, wins, float64(planTime.Milliseconds())/float64(plans))
}
