package main

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	netmail "net/mail"
	"strconv"
	"strings"
	"sync"
	"time"

	"fieldpost/mail"
	"fieldpost/pbem/player"
	"fieldpost/pbem/protocol"
)

// arrivals records what the club server delivers: when each answer (by
// the id it answers) arrived, the welcomes of the loaded games, and the
// long game's mails, handed to its bots.
type arrivals struct {
	mu       sync.Mutex
	answered map[string]time.Time
	kinds    map[string]int // answers by their kind (protocol.HeaderKind)
	welcome  map[string][]byte
	over     map[string]int // final reports of each long game received
	rounds   map[string]int // the round each long game's final report names
	bots     map[string]chan []byte
	news     chan struct{}
}

func newArrivals() *arrivals {
	return &arrivals{answered: map[string]time.Time{}, kinds: map[string]int{}, welcome: map[string][]byte{},
		bots: map[string]chan []byte{}, over: map[string]int{}, rounds: map[string]int{}, news: make(chan struct{}, 1)}
}

// delivered is the club server's hook: it reads only the header.
func (a *arrivals) delivered(account string, raw []byte) {
	now := time.Now()
	m, err := netmail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return
	}
	h := m.Header
	kind, game := h.Get(protocol.HeaderKind), h.Get(protocol.HeaderGame)
	a.mu.Lock()
	if id := h.Get("In-Reply-To"); id != "" && (kind != protocol.KindWelcome && kind != protocol.KindReport) {
		a.answered[strings.Trim(id, "<>")] = now
		a.kinds[kind]++
	}
	switch {
	case kind == protocol.KindWelcome && !strings.HasPrefix(account, longPrefix):
		a.welcome[game+"/"+account] = raw
	case kind == protocol.KindGameOver && strings.HasPrefix(account, longPrefix):
		a.over[game]++
		a.rounds[game], _ = strconv.Atoi(h.Get(protocol.HeaderRound))
	}
	bot := a.bots[account]
	a.mu.Unlock()
	if bot != nil {
		bot <- raw
	}
	select {
	case a.news <- struct{}{}:
	default:
	}
}

// bot hands the mails of an account to a bot from now on.
func (a *arrivals) bot(account string, b *player.Bot) {
	c := make(chan []byte, 1000)
	a.mu.Lock()
	a.bots[account] = c
	a.mu.Unlock()
	go func() {
		for raw := range c {
			msg, err := mail.Parse(bytes.NewReader(raw), 10<<20)
			if err == nil {
				_ = b.Handle(context.Background(), msg)
			}
		}
	}()
}

// until waits for cond, checked at every delivery, for at most timeout.
func (a *arrivals) until(ctx context.Context, timeout time.Duration, what string, cond func() bool) error {
	limit := time.After(timeout)
	for {
		a.mu.Lock()
		ok := cond()
		a.mu.Unlock()
		if ok {
			return nil
		}
		select {
		case <-a.news:
		case <-ctx.Done():
			return ctx.Err()
		case <-limit:
			return fmt.Errorf("waited %v for %s", timeout, what)
		}
	}
}

// wait waits for the answers to the mails ids and returns when each came.
func (a *arrivals) wait(ctx context.Context, ids []string, timeout time.Duration) ([]time.Time, error) {
	err := a.until(ctx, timeout, fmt.Sprintf("the answers to %d mails", len(ids)), func() bool {
		for _, id := range ids {
			if _, ok := a.answered[strings.Trim(id, "<>")]; !ok {
				return false
			}
		}
		return true
	})
	if err != nil {
		return nil, err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	out := make([]time.Time, len(ids))
	for i, id := range ids {
		out[i] = a.answered[strings.Trim(id, "<>")]
	}
	return out, nil
}

// welcomes waits for n welcome mails and returns them by game/side.
func (a *arrivals) welcomes(ctx context.Context, n int, timeout time.Duration) (map[string][]byte, error) {
	err := a.until(ctx, timeout, fmt.Sprintf("%d welcome mails", n), func() bool { return len(a.welcome) >= n })
	a.mu.Lock()
	defer a.mu.Unlock()
	return maps.Clone(a.welcome), err
}

// waitOver waits until every side of a long game has its final report,
// and returns the number of rounds it played.
func (a *arrivals) waitOver(ctx context.Context, game string, sides int, timeout time.Duration) (int, error) {
	err := a.until(ctx, timeout, "the end of "+game, func() bool { return a.over[game] >= sides })
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.rounds[game], err
}

// counts returns the order mails accepted and refused so far.
func (a *arrivals) counts() (accepted, refused int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.kinds[protocol.KindAccepted], a.kinds[protocol.KindRejected]
}
