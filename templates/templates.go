// Package templates holds the text templates of every mail and report
// Fieldpost writes, embedded in the binary; a club can restyle them by
// pointing the server at a folder of its own with the same file names.
package templates

import "embed"

// FS holds the *.tmpl files of the mails and reports, and the web pages'
// templates and static files under web/.
//
//go:embed *.tmpl web
var FS embed.FS
