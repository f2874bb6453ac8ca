// Package casetest runs a family's adjudication cases as subtests: one
// loop for every family's case runner.
package casetest

import (
	"os"
	"testing"

	"fieldpost/engine/ordertext"
)

// Run reads every case file of dir that matches pattern (see
// ordertext.EachCase) and runs each as a subtest named after it; a file
// that cannot be read fails its subtest, and no file at all fails t. It
// returns how many case files there are.
func Run(t *testing.T, dir, pattern string, f ordertext.CaseFormat, run func(t *testing.T, c *ordertext.Case)) int {
	t.Helper()
	files := 0
	err := ordertext.EachCase(os.DirFS(dir), pattern, f, func(name string, c *ordertext.Case, err error) {
		files++
		t.Run(name, func(t *testing.T) {
			if err != nil {
				t.Fatal(err)
			}
			run(t, c)
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}
