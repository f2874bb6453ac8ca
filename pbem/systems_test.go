package pbem

import (
	"errors"
	"io/fs"
	"strings"
	"testing"

	"fieldpost/engine"
	"fieldpost/engine/brigadier"
	"fieldpost/engine/frontline"
	"fieldpost/engine/stargeneral"
	"fieldpost/templates"
)

// testGames hosts every game family, as the binary does; the tests play
// real games through the seam.
func testGames(tmpl fs.FS) (engine.Systems, error) {
	sg, err := stargeneral.New(tmpl)
	if err != nil {
		return nil, err
	}
	bgc, err := brigadier.New()
	if err != nil {
		return nil, err
	}
	fg, err := frontline.New()
	if err != nil {
		return nil, err
	}
	return engine.Systems{sg, bgc, fg}, nil
}

// bothSides are the tutorial's sides, whose orders every round waits for.
var bothSides = []string{"us", "german"}

// testSystems are testGames with the built-in templates.
func testSystems(t testing.TB) engine.Systems {
	t.Helper()
	systems, err := testGames(templates.FS)
	if err != nil {
		t.Fatal(err)
	}
	return systems
}

// A system asked for a map it does not draw says so with ErrMapFormat, which
// is what the pages fall back on.
func TestEverySystemRefusesAMapFormatItDoesNotDraw(t *testing.T) {
	for _, sys := range testSystems(t) {
		pos, err := sys.NewGame(sys.Scenarios()[0].Name, 1)
		if err != nil {
			t.Fatalf("%s: %v", sys.Name(), err)
		}
		var b strings.Builder
		err = pos.Map(&b, "", engine.MapFormat("gif"))
		if !errors.Is(err, engine.ErrMapFormat) {
			t.Errorf("%s: a gif map gives %v, want ErrMapFormat", sys.Name(), err)
		}
	}
}
