// Package report writes a Frontline General player turn as text for one
// side: the phases in order, every die with what it was checked against,
// and only the events that side observed, as it observed them (package
// fog: its own purchases, supply and hand; under fog of war its own moves,
// not the enemy's; never a unit it did not see).
package report

import (
	"fmt"
	"strings"

	"fieldpost/engine/frontline/fog"
	"fieldpost/engine/frontline/rules"
)

var phaseTitle = map[string]string{
	"income": "Income and events (V.1)", "production": "Production (V.2)", "supply": "Supply (V.3)",
	"movement": "Movement (V.4)", "combat": "Combat (V.5)", "deployment": "Deployment (V.6)", "end": "End of turn",
}

// Text is the report of a turn's events as sight observed them.
func Text(events []rules.Event, sight fog.Sight) string {
	var b strings.Builder
	phase := ""
	for _, e := range events {
		e, ok := sight.Observe(e)
		if !ok {
			continue
		}
		if e.Phase != phase {
			phase = e.Phase
			title := phaseTitle[phase]
			if title == "" {
				title = phase
			}
			fmt.Fprintf(&b, "%s\n", title)
		}
		fmt.Fprintf(&b, "  %s  %s\n", e.Text, reference(e.Phase, e.Section))
		if len(e.Rolls) > 0 {
			var dice []string
			for _, r := range e.Rolls {
				dice = append(dice, r.String())
			}
			fmt.Fprintf(&b, "    dice: %s\n", strings.Join(dice, "; "))
		}
	}
	return b.String()
}

// reference writes an event's section as a reference to the book:
// "[§V.4]"; Fieldpost's reading of an unclear rule ("reading 11", see
// docs/rules-frontline.md) under the section of its phase: "[§V.5,
// reading 11]".
func reference(phase, section string) string {
	head, _, _ := strings.Cut(section, ".")
	switch {
	case section == "":
		return ""
	case strings.Trim(head, "IVX") == "":
		return "[§" + section + "]"
	}
	title := phaseTitle[phase]
	if i := strings.LastIndex(title, "("); i >= 0 {
		return "[§" + strings.TrimSuffix(title[i+1:], ")") + ", " + section + "]"
	}
	return "[" + section + "]"
}

// Dice lists every die sight observed, in rolling order.
func Dice(events []rules.Event, sight fog.Sight) []rules.Roll {
	var out []rules.Roll
	for _, e := range events {
		if e, ok := sight.Observe(e); ok {
			out = append(out, e.Rolls...)
		}
	}
	return out
}
