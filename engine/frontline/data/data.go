// Package data holds the Frontline General data Fieldpost ships:
// unit cards, rule values, the event deck and the scenarios, every value
// tagged with its source (the rulebook's section, or "fieldpost estimate").
// It only embeds the files; engine/frontline reads them.
package data

import "embed"

// Files holds units.json, rules.json, events.json and scenarios/*.txt.
//
//go:embed units.json rules.json events.json scenarios/*.txt
var Files embed.FS
