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
