// Package rating is the Glicko-2 rating system (Mark Glickman, "Example of
// the Glicko-2 system", 2013), with its parameters as data: glicko2.json.
package rating

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
)

// Params are the system's parameters, each citing its source.
type Params struct {
	// Initial is a new player's rating, deviation and volatility.
	Rating     float64 `json:"rating"`
	Deviation  float64 `json:"deviation"`
	Volatility float64 `json:"volatility"`
	// Tau constrains the volatility's change over time.
	Tau float64 `json:"tau"`
	// Epsilon is the convergence tolerance of the volatility's iteration.
	Epsilon float64 `json:"epsilon"`
}

//go:embed glicko2.json
var defaultParams []byte

// DefaultParams are the bundled parameters (glicko2.json).
func DefaultParams() Params {
	var file struct {
		Params Params `json:"params"`
	}
	if err := json.Unmarshal(defaultParams, &file); err != nil {
		panic(fmt.Sprintf("rating: the bundled glicko2.json does not read: %v", err))
	}
	return file.Params
}

// Rating is a player's rating on the Glicko scale.
type Rating struct {
	Rating     float64 `json:"rating"`
	Deviation  float64 `json:"deviation"`
	Volatility float64 `json:"volatility"`
}

// New is a new player's rating.
func (p Params) New() Rating {
	return Rating{Rating: p.Rating, Deviation: p.Deviation, Volatility: p.Volatility}
}

// Result is one game of a rating period: the opponent's rating before it
// and the score, 1 for a win, 0.5 for a draw, 0 for a loss.
type Result struct {
	Opponent Rating
	Score    float64
}

// glickoScale converts between the Glicko and Glicko-2 scales (step 2).
const glickoScale = 173.7178

// Update is a player's rating after a rating period with the results
// (steps 1 to 8 of Glickman's example). A period without games only
// widens the deviation.
func (p Params) Update(r Rating, results []Result) Rating {
	mu, phi, sigma := (r.Rating-1500)/glickoScale, r.Deviation/glickoScale, r.Volatility
	if len(results) == 0 {
		return Rating{Rating: r.Rating, Deviation: math.Sqrt(phi*phi+sigma*sigma) * glickoScale, Volatility: sigma}
	}
	var vInv, sum float64
	for _, res := range results {
		muJ, phiJ := (res.Opponent.Rating-1500)/glickoScale, res.Opponent.Deviation/glickoScale
		g := 1 / math.Sqrt(1+3*phiJ*phiJ/(math.Pi*math.Pi))
		e := 1 / (1 + math.Exp(-g*(mu-muJ)))
		vInv += g * g * e * (1 - e)
		sum += g * (res.Score - e)
	}
	v := 1 / vInv
	delta := v * sum
	sigma = p.volatility(phi, sigma, v, delta)
	phiStar := math.Sqrt(phi*phi + sigma*sigma)
	phi = 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	mu += phi * phi * sum
	return Rating{Rating: mu*glickoScale + 1500, Deviation: phi * glickoScale, Volatility: sigma}
}

// volatility is step 5: the new volatility, by the Illinois algorithm.
func (p Params) volatility(phi, sigma, v, delta float64) float64 {
	a := math.Log(sigma * sigma)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi*phi + v + ex
		return ex*(delta*delta-phi*phi-v-ex)/(2*d*d) - (x-a)/(p.Tau*p.Tau)
	}
	A := a
	var B float64
	if delta*delta > phi*phi+v {
		B = math.Log(delta*delta - phi*phi - v)
	} else {
		k := 1.0
		for f(a-k*p.Tau) < 0 {
			k++
		}
		B = a - k*p.Tau
	}
	fA, fB := f(A), f(B)
	for i := 0; math.Abs(B-A) > p.Epsilon && i < 1000; i++ {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	return math.Exp(A / 2)
}
