// Package data holds the Star General data Fieldpost ships: the rulesets
// (rulesets/NAME.json, every value a club may tune citing its source) and
// the scenarios (scenarios/NAME.txt). It only embeds the files; package
// engine/stargeneral/rules reads them.
package data

import "embed"

// Files holds rulesets/*.json and scenarios/*.txt.
//
//go:embed rulesets/*.json scenarios/*.txt
var Files embed.FS
