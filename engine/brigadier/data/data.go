// Package data holds the Brigadier General Commands data Fieldpost ships:
// its tunable numbers (bgc.json, every value tagged with its source) and
// its scenarios (NAME.scn). It only embeds the files; package
// engine/brigadier/rules reads them.
package data

import "embed"

// Files holds bgc.json and *.scn.
//
//go:embed bgc.json *.scn
var Files embed.FS
