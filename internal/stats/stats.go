// Package stats holds the few interval estimates lbanalyze reports, so that
// every command computes them the same way.
package stats

import (
	"math"
	"slices"
)

// z95 is the two-sided 95% normal quantile.
const z95 = 1.959963984540054

// Wilson is the 95% Wilson score interval of k successes in n trials.
func Wilson(k, n int) (lo, hi float64) {
	if n <= 0 {
		return 0, 1
	}
	p, nn, z2 := float64(k)/float64(n), float64(n), z95*z95
	den := 1 + z2/nn
	centre := (p + z2/(2*nn)) / den
	half := z95 * math.Sqrt(p*(1-p)/nn+z2/(4*nn*nn)) / den
	return max(0, centre-half), min(1, centre+half)
}

// Newcombe is the difference p1 − p2 of two independent proportions with
// Newcombe's hybrid score 95% interval (his method 10, from Wilson intervals).
func Newcombe(k1, n1, k2, n2 int) (d, lo, hi float64) {
	p1, p2 := float64(k1)/float64(n1), float64(k2)/float64(n2)
	l1, u1 := Wilson(k1, n1)
	l2, u2 := Wilson(k2, n2)
	d = p1 - p2
	lo = d - math.Sqrt((p1-l1)*(p1-l1)+(u2-p2)*(u2-p2))
	hi = d + math.Sqrt((u1-p1)*(u1-p1)+(p2-l2)*(p2-l2))
	return d, lo, hi
}

// Percentiles are the 2.5th and 97.5th percentiles of x (sorted in place),
// interpolated linearly between order statistics (R's type 7).
func Percentiles(x []float64) [2]float64 {
	slices.Sort(x)
	q := func(p float64) float64 {
		h := p * float64(len(x)-1)
		lo := math.Floor(h)
		return x[int(lo)] + (h-lo)*(x[min(int(lo)+1, len(x)-1)]-x[int(lo)])
	}
	return [2]float64{q(0.025), q(0.975)}
}
