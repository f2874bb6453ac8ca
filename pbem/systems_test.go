package pbem

import (
	"testing"

	"fieldpost/engine"
	"fieldpost/engine/systems"
	"fieldpost/templates"
)

// bothSides are the tutorial's sides, whose orders every round waits for.
var bothSides = []string{"us", "german"}

// testSystems are the game systems the binary hosts (engine/systems), with
// the built-in templates.
func testSystems(t testing.TB) engine.Systems {
	t.Helper()
	hosted, err := systems.New(templates.FS)
	if err != nil {
		t.Fatal(err)
	}
	return hosted
}
