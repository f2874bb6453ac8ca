package pbem

import "time"

// Clock is where the judge's time comes from: deadlines, reminders, the
// outbox's retries and the Date of its mails. Tests drive a fake one.
type Clock interface {
	Now() time.Time
	// Until returns a channel that receives once the clock has reached t,
	// at once when t is not after Now. Waiting for an absolute time, rather
	// than a duration, leaves no gap between reading the clock and starting
	// to wait in which a fake clock could move on unnoticed.
	Until(t time.Time) <-chan time.Time
}

// SystemClock is the real time.
func SystemClock() Clock { return systemClock{} }

type systemClock struct{}

func (systemClock) Now() time.Time { return time.Now() }

func (systemClock) Until(t time.Time) <-chan time.Time {
	// Unstopped timers are collected once unreferenced (Go 1.23), so the
	// loops may drop the channel when something else wakes them.
	return time.After(time.Until(t))
}
