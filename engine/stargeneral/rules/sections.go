package rules

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// Sec names a part of the rules the engine cites. The two books number
// their sections differently (Three Star General's retreat is 2.5, Two Star
// General's 2.6; its air power 9, not 7), so the number a report line, a
// refusal or a case cites comes from the ruleset being played ("sections"
// in engine/stargeneral/data/rulesets/*.json), never from the code.
type Sec int

// The parts of the rules the engine cites. SecNone cites nothing.
const (
	SecNone Sec = iota
	SecCommand
	SecStacking
	SecStrength
	SecOrders
	SecSequence
	SecMovement
	SecTransport
	SecStatusMovement
	SecSupportSwap
	SecMoveRestrictions
	SecTerrain
	SecRetreat
	SecCombat
	SecCombatOverview
	SecInitiating
	SecSupport
	SecSupportAttacking
	SecSupportDefending
	SecSupportRange
	SecRetreatCombat
	SecWeapons
	SecArmourCover
	SecOtherFactors
	SecLosses
	SecFallBack
	SecPursuit
	SecArtillery
	SecArtilleryPhase
	SecSpotting
	SecHQ
	SecAir
	SecNight
	SecNightRecovery
	SecNightReshuffle
	SecNewDay
	SecVictory
)

// secNames are the keys of a ruleset's "sections".
var secNames = map[Sec]string{
	SecCommand:          "command",
	SecStacking:         "stacking",
	SecStrength:         "strength",
	SecOrders:           "orders",
	SecSequence:         "sequence",
	SecMovement:         "movement",
	SecTransport:        "transport",
	SecStatusMovement:   "status_movement",
	SecSupportSwap:      "support_swap",
	SecMoveRestrictions: "movement_restrictions",
	SecTerrain:          "terrain",
	SecRetreat:          "retreat",
	SecCombat:           "combat",
	SecCombatOverview:   "combat_overview",
	SecInitiating:       "initiating",
	SecSupport:          "support",
	SecSupportAttacking: "support_attacking",
	SecSupportDefending: "support_defending",
	SecSupportRange:     "fire_support_range",
	SecRetreatCombat:    "retreat_combat",
	SecWeapons:          "weapons",
	SecArmourCover:      "armour_cover",
	SecOtherFactors:     "other_factors",
	SecLosses:           "losses",
	SecFallBack:         "fall_back",
	SecPursuit:          "pursuit",
	SecArtillery:        "artillery",
	SecArtilleryPhase:   "artillery_phase",
	SecSpotting:         "spotting",
	SecHQ:               "hq",
	SecAir:              "air",
	SecNight:            "night",
	SecNightRecovery:    "night_recovery",
	SecNightReshuffle:   "night_reshuffle",
	SecNewDay:           "new_day",
	SecVictory:          "victory",
}

// Section is the number this ruleset's book gives the part of the rules k
// ("" for SecNone).
func (rs *Ruleset) Section(k Sec) string {
	if k == SecNone {
		return ""
	}
	return rs.Sections[secNames[k]]
}

// InBook reports whether the book being played has a section so numbered.
func (rs *Ruleset) InBook(section string) bool {
	return slices.Contains(rs.BookSections, section)
}

// checkSections: every part the engine cites has a number in the book, and
// the ruleset numbers nothing the engine does not cite.
func (rs *Ruleset) checkSections() error {
	known := map[string]bool{}
	for _, name := range secNames {
		known[name] = true
		n := rs.Sections[name]
		if n == "" {
			return fmt.Errorf("sections has no number for %q", name)
		}
		if !rs.InBook(n) {
			return fmt.Errorf("sections: %q is %q, which is not in book_sections", name, n)
		}
	}
	for _, name := range sortedKeys(rs.Sections) {
		if !known[name] {
			return fmt.Errorf("sections: unknown part of the rules %q", name)
		}
	}
	return nil
}

// untaggedSettings are the ruleset's own fields, which cite nothing.
var untaggedSettings = map[string]bool{"name": true, "title": true, "sources": true, "sections": true, "book_sections": true}

// checkSources: every setting says where it comes from, the book's section
// or Fieldpost's own ruling or estimate, and only settings are tagged.
func (rs *Ruleset) checkSources() error {
	settings := map[string]bool{}
	t := reflect.TypeOf(*rs)
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name == "" || name == "-" || untaggedSettings[name] {
			continue
		}
		settings[name] = true
		if strings.TrimSpace(rs.Sources[name]) == "" {
			return fmt.Errorf("sources: setting %q does not say where it comes from", name)
		}
	}
	for _, name := range sortedKeys(rs.Sources) {
		if !settings[name] {
			return fmt.Errorf("sources: %q is not a setting", name)
		}
	}
	return nil
}
