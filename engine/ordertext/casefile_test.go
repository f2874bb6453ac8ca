package ordertext

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
)

func TestReadCaseInBlocks(t *testing.T) {
	text := strings.Join([]string{
		"SECTION 7.2 7.3",
		"PRESTATE",
		"SIZE 4 4   # small",
		"",
		"ORDERS us",
		"BN 1 M",
		"END",
		"DICE 6 5 | 4   # the attack",
		"RUN activate 1",
		"POSTSTATE",
		"unit 1 status=M",
		"",
		"EVENTS",
		"attack",
	}, "\n")
	c, err := ReadCase(text, CaseFormat{MaxFace: 6})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(c.Sections, []string{"7.2", "7.3"}) || c.PositionLine != 2 || len(c.Position) != 2 || c.Position[0].Raw != "SIZE 4 4   # small" {
		t.Errorf("sections %v, position from %d: %+v", c.Sections, c.PositionLine, c.Position)
	}
	if len(c.Orders["us"]) != 1 || c.Orders["us"][0].Text != "BN 1 M" {
		t.Errorf("orders %+v", c.Orders)
	}
	if !reflect.DeepEqual(c.Dice, []int{6, 5, 4}) || !reflect.DeepEqual(c.Run, []string{"activate", "1"}) {
		t.Errorf("dice %v, run %v", c.Dice, c.Run)
	}
	if len(c.Post) != 1 || c.Post[0].N != 11 || len(c.Events) != 1 || c.Events[0].Text != "attack" {
		t.Errorf("post %+v, events %+v", c.Post, c.Events)
	}
	for bad, msg := range map[string]string{
		"SECTION 1\nDICE 7":              `line 2: die "7" is not 1 to 6`,
		"SECTION 1\nSIZE 4 4":            `line 2: "SIZE 4 4" outside any block`,
		"PRESTATE\nSIZE 4 4":             "no SECTION: every case cites the rule it checks",
		"SECTION 1\nSTANDING\nINTERDICT": "line 2: STANDING takes a side",
	} {
		if _, err := ReadCase(bad, CaseFormat{MaxFace: 6}); err == nil || err.Error() != msg {
			t.Errorf("%q: error %v, want %s", bad, err, msg)
		}
	}
}

func TestReadCaseLoose(t *testing.T) {
	text := strings.Join([]string{
		"CASE One shot",
		"CITE 11.5.2",
		"SIDE german",
		"ORDERS german",
		"Run MOVE 0605",
		"END",
		"BATTALION G green",
		"DICE firing 6 5",
		"DICE morale",
		`EXPECT text "Step 4 (us)"`,
	}, "\n")
	c, err := ReadCase(text, CaseFormat{Loose: true, Directives: []string{"EXPECT"}})
	if err != nil {
		t.Fatal(err)
	}
	if c.Title != "One shot" || len(c.Position) != 2 || c.Position[1].Text != "BATTALION G green" {
		t.Errorf("title %q, position %+v", c.Title, c.Position)
	}
	if len(c.Orders["german"]) != 1 || c.Orders["german"][0].Raw != "Run MOVE 0605" {
		t.Errorf("orders %+v", c.Orders)
	}
	if want := map[string][]int{"firing": {6, 5}, "morale": nil}; !reflect.DeepEqual(c.PhaseDice, want) {
		t.Errorf("phase dice %v, want %v", c.PhaseDice, want)
	}
	if len(c.Directives) != 1 || !reflect.DeepEqual(c.Directives[0].Words, []string{"EXPECT", "text", "Step 4 (us)"}) {
		t.Errorf("directives %+v", c.Directives)
	}
}

func TestEachCaseNamesEveryFile(t *testing.T) {
	fsys := fstest.MapFS{
		"combat/a.case": {Data: []byte("SECTION 1\nDICE 6\n")},
		"combat/b.case": {Data: []byte("DICE 6\n")},
		"README.md":     {Data: []byte("not a case")},
	}
	got := map[string]string{}
	err := EachCase(fsys, "*/*.case", CaseFormat{MaxFace: 6}, func(name string, c *Case, err error) {
		got[name] = fmt.Sprint(err)
	})
	want := map[string]string{"combat/a": "<nil>", "combat/b": "combat/b.case: no SECTION: every case cites the rule it checks"}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, %v; want %v", got, err, want)
	}
	if err := EachCase(fsys, "*.case", CaseFormat{}, func(string, *Case, error) {}); err == nil {
		t.Error("no case file found is no error")
	}
}

func TestReadCaseFamilyBlocks(t *testing.T) {
	text := "SECTION IV.2\nSEATS\nUS.2 M18-1\nORDERS US.3\nMOVE\nORDERS US.2\nMOVE\nERRORS US.2\nline 2: BUY\n\nMERGED\n"
	c, err := ReadCase(text, CaseFormat{Blocks: []string{"SEATS", "ERRORS", "MERGED"}})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(c.OrderSides, []string{"US.3", "US.2"}) {
		t.Errorf("order sides %v, want US.3 US.2", c.OrderSides)
	}
	got := map[string][]string{}
	for heading, lines := range c.Blocks {
		got[heading] = []string{}
		for _, l := range lines {
			got[heading] = append(got[heading], l.Text)
		}
	}
	want := map[string][]string{"SEATS": {"US.2 M18-1"}, "ERRORS US.2": {"line 2: BUY"}, "MERGED": {}}
	if !reflect.DeepEqual(got, want) || len(c.Errors) != 0 {
		t.Errorf("blocks %v, want %v (errors %v)", got, want, c.Errors)
	}
}
