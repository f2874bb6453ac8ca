package rules

import "fieldpost/engine/hex"

// Hex is a hex of the map, in the CCRR numbering of printed maps
// (engine/hex, shared by every game family).
type Hex = hex.Hex

// The hex grid's functions, as the rules name them.
var (
	ParseHex = hex.Parse
	MustHex  = hex.MustParse
	Compare  = hex.Compare
	Distance = hex.Distance
	Adjacent = hex.Adjacent
	Between  = hex.Between
)
