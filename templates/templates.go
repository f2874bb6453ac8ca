// Package templates holds the text templates of every mail and report
// Fieldpost writes, embedded in the binary; a club can restyle them by
// pointing the server at a folder of its own with the same file names.
package templates

import "embed"

// FS holds the *.tmpl files.
//
//go:embed *.tmpl
var FS embed.FS
