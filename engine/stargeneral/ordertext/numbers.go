package ordertext

import (
	"errors"
	"fmt"
	"strconv"
)

// maxOrderNumber bounds every number written in orders. No count of the
// rules (rounds, air points, shots, strength points) comes near it, and a
// bound where the number is read keeps every sum of them far from the int
// range: two attacks with AIR 9223372036854775807 added up past it and were
// accepted (issue 15).
const maxOrderNumber = 9999

// orderNumber reads a number written in orders. isNumber is false for a
// word that is no number at all; err says that a number is out of bounds.
func orderNumber(s string) (n int, isNumber bool, err error) {
	v, err := strconv.Atoi(s)
	switch {
	case err == nil && -maxOrderNumber <= v && v <= maxOrderNumber:
		return v, true, nil
	case err == nil || errors.Is(err, strconv.ErrRange):
		return 0, true, fmt.Errorf("%s is too large: numbers in orders are at most %d", s, maxOrderNumber)
	}
	return 0, false, nil
}
