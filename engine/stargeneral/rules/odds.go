package rules

// HitDistribution gives the exact chance of each number of hits when n dice
// are rolled on a hit rule: index h holds P(hits == h). Each die either
// scores by itself, shows the double face, or misses; pairs of the double
// face score one hit each (3.2).
func (hr HitRule) HitDistribution(n int) []float64 {
	if n <= 0 {
		return []float64{1}
	}
	pScore := float64(7-hr.Min) / 6
	pDouble := 0.0
	if hr.Double != 0 {
		pDouble = 1.0 / 6
	}
	pMiss := 1 - pScore - pDouble
	// ways[a][b]: probability of a scoring dice and b double faces so far.
	ways := make([][]float64, n+1)
	for i := range ways {
		ways[i] = make([]float64, n+1)
	}
	ways[0][0] = 1
	for die := 0; die < n; die++ {
		next := make([][]float64, n+1)
		for i := range next {
			next[i] = make([]float64, n+1)
		}
		for a := 0; a <= die; a++ {
			for b := 0; a+b <= die; b++ {
				p := ways[a][b]
				if p == 0 {
					continue
				}
				next[a+1][b] += p * pScore
				next[a][b+1] += p * pDouble
				next[a][b] += p * pMiss
			}
		}
		ways = next
	}
	dist := make([]float64, n+1)
	for a := 0; a <= n; a++ {
		for b := 0; a+b <= n; b++ {
			dist[a+b/2] += ways[a][b]
		}
	}
	return dist
}

// Expected is the mean of a distribution over counts.
func Expected(dist []float64) float64 {
	e := 0.0
	for h, p := range dist {
		e += float64(h) * p
	}
	return e
}

// ChanceMore is the chance that a draw from a beats a draw from b (strictly).
func ChanceMore(a, b []float64) float64 {
	p := 0.0
	for i, pa := range a {
		for j, pb := range b {
			if i > j {
				p += pa * pb
			}
		}
	}
	return p
}

// AirThrough is the chance that an air point gets past k enemy AA platoons
// firing at it one after the other, each missing with its dice (9; 2SG 7).
func (rs *Ruleset) AirThrough(k int) float64 {
	miss := rs.aaRule.HitDistribution(rs.AADice)[0]
	p := 1.0
	for range k {
		p *= miss
	}
	return p
}

// PoolOdds is the exact chance of each number of hits a force scores with its
// pool as worked out before any die is rolled: every source's dice, except
// that an air point enemy AA fires at adds its dice only if it gets through
// (AirThrough), and never fewer than MinDice. The pool is one throw, so doubles pair across all of it: the
// odds mix the hit distributions of every pool size by its chance.
func (rs *Ruleset) PoolOdds(f Force) []float64 {
	// sizes[n] is the chance that the pool is n dice.
	sizes := []float64{1}
	for _, s := range f.Sources {
		p := 1.0
		if s.AAShots > 0 {
			p = rs.AirThrough(s.AAShots)
		}
		next := make([]float64, len(sizes)+s.Dice)
		for n, pn := range sizes {
			next[n+s.Dice] += pn * p
			next[n] += pn * (1 - p)
		}
		sizes = next
	}
	var odds []float64
	for n, pn := range sizes {
		if pn == 0 {
			continue
		}
		for h, ph := range f.Rule.HitDistribution(max(n, f.MinDice)) {
			for len(odds) <= h {
				odds = append(odds, 0)
			}
			odds[h] += pn * ph
		}
	}
	return odds
}
