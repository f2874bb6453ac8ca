package hexdraw

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"sync"
)

// Base is the part of a map's picture that only the map decides (its
// terrain, roads, grid and hex numbers): a game's map is drawn every
// round over the same base, so each is drawn once, kept, and copied into
// the later pictures of that map.
type Base struct {
	Pix []uint8  // the base's pixels, rows of the picture's width from its top
	Pal *Palette // the palette they were drawn in; nil for a fixed palette
}

// bases are the kept bases by key. A key names everything its base shows;
// past maxBases (a megabyte or two each) all are forgotten and drawn
// afresh.
var bases = struct {
	sync.Mutex
	m map[string]*Base
}{m: map[string]*Base{}}

const maxBases = 32

// BaseKey names a base by everything that draws it: the family's name and
// what it shows (the map, its terrain, its marked hexes, the size), written
// as JSON and hashed.
func BaseKey(family string, shows any) string {
	b, err := json.Marshal(shows)
	if err != nil {
		panic(fmt.Sprintf("a map's base does not marshal: %v", err)) // maps are stored as JSON: they always marshal
	}
	return fmt.Sprintf("%s %x", family, sha256.Sum256(b))
}

// KeptBase is the base kept under key, if any.
func KeptBase(key string) (*Base, bool) {
	bases.Lock()
	defer bases.Unlock()
	b, ok := bases.m[key]
	return b, ok
}

// KeepBase keeps b under key. b is only read from then on, so pictures
// of one base can be drawn at once.
func KeepBase(key string, b *Base) {
	bases.Lock()
	defer bases.Unlock()
	if len(bases.m) >= maxBases {
		clear(bases.m)
	}
	bases.m[key] = b
}

// ForgetBases forgets every kept base: the next picture of each map draws
// its base afresh (for tests that compare the two).
func ForgetBases() {
	bases.Lock()
	defer bases.Unlock()
	clear(bases.m)
}
