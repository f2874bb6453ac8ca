package report

import "testing"

// Rule references read as references (issue 25): the book's sections with
// §, Fieldpost's readings under the section of their phase.
func TestReference(t *testing.T) {
	for _, c := range []struct{ phase, section, want string }{
		{"movement", "V.4", "[§V.4]"},
		{"combat", "VI.7.2", "[§VI.7.2]"},
		{"combat", "reading 11", "[§V.5, reading 11]"},
		{"end", "reading 2", "[reading 2]"},
		{"combat", "Inset VI.2", "[§V.5, Inset VI.2]"},
		{"combat", "", ""},
	} {
		if got := reference(c.phase, c.section); got != c.want {
			t.Errorf("reference(%q, %q) = %q, want %q", c.phase, c.section, got, c.want)
		}
	}
}
