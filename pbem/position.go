package pbem

import (
	"cmp"
	"fmt"

	"fieldpost/engine"
	"fieldpost/pbem/protocol"
)

// LegacySystem is the game system of games, state files and mails from
// before the judge hosted several (protocol.LegacySystem).
const LegacySystem = protocol.LegacySystem

// system returns the game system a game is played in.
func (s *Service) system(g *Game) (engine.System, error) { return systemOf(s.opts.Systems, g) }

func systemOf(systems engine.Systems, g *Game) (engine.System, error) {
	sys, err := systems.Lookup(cmp.Or(g.System, LegacySystem))
	if err != nil {
		return nil, fmt.Errorf("game %s: %w", g.ID, err)
	}
	return sys, nil
}

// positionKey names a game's position at the start of a turn.
type positionKey struct {
	game string
	turn int
}

// position returns a game's current position.
func (t *txn) position(g *Game) (engine.Position, error) { return t.positionAt(g, g.Turn) }

// positionAt returns a game's position at the start of a turn, read from
// the store once per transaction.
func (t *txn) positionAt(g *Game, turn int) (engine.Position, error) {
	key := positionKey{g.ID, turn}
	if p, ok := t.positions[key]; ok {
		return p, nil
	}
	p, err := loadPosition(t.s.opts.Systems, t.storeTx, g, turn)
	if err != nil {
		return nil, err
	}
	if t.positions == nil {
		t.positions = map[positionKey]engine.Position{}
	}
	t.positions[key] = p
	return p, nil
}

// loadPosition reads a game's position at the start of a turn.
func loadPosition(systems engine.Systems, st storeTx, g *Game, turn int) (engine.Position, error) {
	raw, err := st.state(g.ID, turn)
	if err != nil {
		return nil, err
	}
	sys, err := systemOf(systems, g)
	if err != nil {
		return nil, err
	}
	p, err := sys.Load(raw)
	if err != nil {
		return nil, fmt.Errorf("game %s at turn %d: %w", g.ID, turn, err)
	}
	return p, nil
}

// putPosition stores a position of a game under its turn.
func (t *txn) putPosition(g *Game, p engine.Position) error {
	raw, err := p.Marshal()
	if err != nil {
		return fmt.Errorf("game %s: storing the position: %w", g.ID, err)
	}
	if err := t.putState(g.ID, p.Turn(), raw); err != nil {
		return err
	}
	if t.positions == nil {
		t.positions = map[positionKey]engine.Position{}
	}
	t.positions[positionKey{g.ID, p.Turn()}] = p
	return nil
}

// dropPosition forgets a game's position at a turn (ROLLBACK).
func (t *txn) dropPosition(g *Game, turn int) error {
	delete(t.positions, positionKey{g.ID, turn})
	return t.deleteState(g.ID, turn)
}

// sideTitle is the title of a side of a position, "" for none.
func sideTitle(p engine.Position, side string) string {
	for _, sd := range p.Sides() {
		if sd.Name == side {
			return sd.Title
		}
	}
	return ""
}
