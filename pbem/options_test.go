package pbem

import (
	"testing"

	"fieldpost/mail"
	"fieldpost/pbem/config"
)

// The configuration's defaults of what one mail may cost are the judge's
// own, which config, below pbem, writes as numbers of its own.
func TestConfigDefaultsAreTheJudges(t *testing.T) {
	cfg := config.Default()
	if got := (Limits{MaxLines: cfg.MaxLines, MaxErrors: cfg.MaxErrors, MaxAnswerSize: cfg.MaxAnswerSize}); got != DefaultLimits {
		t.Errorf("config's %+v, pbem's DefaultLimits %+v", got, DefaultLimits)
	}
	if got := (mail.Limits{MaxHeaderFields: cfg.MaxHeaderFields, MaxParts: cfg.MaxMIMEParts}); got != mail.DefaultLimits {
		t.Errorf("config's %+v, mail's DefaultLimits %+v", got, mail.DefaultLimits)
	}
}
