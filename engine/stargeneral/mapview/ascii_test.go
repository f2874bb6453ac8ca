package mapview

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func TestASCIIGolden(t *testing.T) {
	for _, tc := range []struct{ name, text string }{
		{"tutorial", tutorial},
		{"terrain", terrainRow},
	} {
		rs, st := parse(t, tc.text)
		got := ASCII(rs, st)
		path := filepath.Join("testdata", tc.name+".golden")
		if *update {
			if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test -update to write it)", err)
		}
		if got != string(want) {
			t.Errorf("%s: the text map differs from %s (run go test -update if the change is meant):\n%s", tc.name, path, got)
		}
	}
}

func TestASCIIWidth(t *testing.T) {
	rs, st := parse(t, bigScenario())
	for i, line := range strings.Split(ASCII(rs, st), "\n") {
		if n := utf8.RuneCountInString(line); n > 100 {
			t.Errorf("line %d is %d characters wide: %q", i+1, n, line)
		}
	}
	rs, st = parse(t, tutorial)
	for i, line := range asciiGrid(ASCII(rs, st)) {
		// The map of a 12-column tutorial fits in 45 characters.
		if n := utf8.RuneCountInString(line); n > 45 {
			t.Errorf("tutorial map line %d is %d characters wide: %q", i+1, n, line)
		}
	}
}

// asciiGrid returns the lines of the text map's hexes, between the column
// numbers and the key.
func asciiGrid(out string) []string {
	lines := strings.Split(out, "\n")
	var grid []string
	for _, l := range lines[2:] {
		if strings.HasPrefix(l, "Terrain:") {
			break
		}
		grid = append(grid, l)
	}
	return grid
}

// TestASCIIKeyListsEveryStand checks that every stand and battery has a line
// in the key, and that its code stands on the map in its hex.
func TestASCIIKeyListsEveryStand(t *testing.T) {
	for _, text := range []string{tutorial, bigScenario()} {
		rs, st := parse(t, text)
		out := ASCII(rs, st)
		lines := strings.Split(out, "\n")
		keyLine := func(unit, name, hex string) string {
			for _, l := range lines {
				f := strings.Fields(l)
				if len(f) >= 4 && f[1] == hex && f[2] == unit && f[3] == name {
					return f[0]
				}
			}
			return ""
		}
		grid := asciiGrid(out)
		onMap := func(code string, col, row int) bool {
			line := 2 * (row - 1)
			if col%2 == 0 {
				line++
			}
			x := 3 + 3*(col-1) + 1
			return line < len(grid) && x+2 <= len(grid[line]) && grid[line][x:x+2] == code
		}
		for _, u := range st.Units {
			for _, s := range u.Stands {
				code := keyLine(u.ID, s.Name, s.Hex.String())
				if code == "" {
					t.Errorf("%s %s at %s is not in the key", u.ID, s.Name, s.Hex)
				} else if !onMap(code, s.Hex.Col, s.Hex.Row) {
					t.Errorf("%s %s: code %s is not on the map at %s", u.ID, s.Name, code, s.Hex)
				}
			}
		}
		for _, b := range st.Batteries {
			code := keyLine(b.ID, "battery", b.Hex.String())
			if code == "" {
				t.Errorf("battery %s at %s is not in the key", b.ID, b.Hex)
			} else if !onMap(code, b.Hex.Col, b.Hex.Row) {
				t.Errorf("battery %s: code %s is not on the map at %s", b.ID, code, b.Hex)
			}
		}
	}
}
