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

// Percentiles are the 2.5th and 97.5th percentiles of x (reordered in place),
// interpolated linearly between order statistics (R's type 7). The four
// order statistics are selected, not sorted for: linear time.
func Percentiles(x []float64) [2]float64 {
	return [2]float64{Quantile(x, 0.025), Quantile(x, 0.975)}
}

// Quantile is the p-quantile of x (reordered in place), interpolated linearly
// between order statistics (R's type 7), exactly as after sorting x.
func Quantile(x []float64, p float64) float64 {
	if slices.ContainsFunc(x, math.IsNaN) {
		// NaN has no place in an order: leave it to the sort's convention.
		slices.Sort(x)
		h := p * float64(len(x)-1)
		lo := math.Floor(h)
		return x[int(lo)] + (h-lo)*(x[min(int(lo)+1, len(x)-1)]-x[int(lo)])
	}
	h := p * float64(len(x)-1)
	lo := math.Floor(h)
	k := int(lo)
	a := Select(x, k)
	b := a
	if k+1 < len(x) {
		b = slices.Min(x[k+1:]) // x[k+1:] holds the larger order statistics
	}
	return a + (h-lo)*(b-a)
}

// Select reorders x so that x[k] is the value it would have after sorting,
// with no larger value before it and no smaller one after it, and returns it
// (quickselect, median-of-three pivots, insertion sort for short ranges).
// x must not contain NaN.
func Select(x []float64, k int) float64 {
	lo, hi := 0, len(x)-1
	for hi-lo > 16 {
		// Median of three as the pivot, moved to lo.
		m := lo + (hi-lo)/2
		if x[m] < x[lo] {
			x[m], x[lo] = x[lo], x[m]
		}
		if x[hi] < x[lo] {
			x[hi], x[lo] = x[lo], x[hi]
		}
		if x[hi] < x[m] {
			x[hi], x[m] = x[m], x[hi]
		}
		x[lo], x[m] = x[m], x[lo]
		pivot := x[lo]
		// Hoare partition: equal values go to both sides, so runs of equal
		// values (common: counts) still split in the middle.
		i, j := lo, hi+1
		for {
			for i++; x[i] < pivot; i++ {
			}
			for j--; pivot < x[j]; j-- {
			}
			if i >= j {
				break
			}
			x[i], x[j] = x[j], x[i]
		}
		x[lo], x[j] = x[j], x[lo]
		switch {
		case k < j:
			hi = j - 1
		case k > j:
			lo = j + 1
		default:
			return x[k]
		}
	}
	for i := lo + 1; i <= hi; i++ {
		for j := i; j > lo && x[j] < x[j-1]; j-- {
			x[j], x[j-1] = x[j-1], x[j]
		}
	}
	return x[k]
}

// Normal is the 95% normal interval of a statistic of n episodes whose value
// is t and whose linearisation at episode i is l[i] (its influence: how
// much the statistic moves per unit of weight on that episode): t ± z·se,
// se² = n/(n−1)·Σ(l[i] − mean)², the bootstrap's variance Σ(l[i] − mean)²
// with the n/(n−1) of an unbiased one. ok is false when Cochran's rule n > 25·g₁² (W. G. Cochran, Sampling
// Techniques, 3rd ed., 1977, section 2.15), g₁ the skewness of l, says n is
// too small for the normal shape. Equal l give t's own point.
func Normal(t float64, l []float64) (lo, hi float64, ok bool) {
	n := float64(len(l))
	if n < 2 {
		return 0, 0, false
	}
	var mean float64
	for _, x := range l {
		mean += x
	}
	mean /= n
	var m2, m3 float64
	for _, x := range l {
		d := x - mean
		m2 += d * d
		m3 += d * d * d
	}
	m2, m3 = m2/n, m3/n
	if m2 > 0 && n <= 25*m3*m3/(m2*m2*m2) {
		return 0, 0, false
	}
	half := z95 * math.Sqrt(m2*n*n/(n-1))
	return t - half, t + half, true
}
