package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestWilsonNewcombe(t *testing.T) {
	near := func(got, want float64) bool { return got > want-0.00006 && got < want+0.00006 }
	// Newcombe (1998), "Two-sided confidence intervals for the single
	// proportion: comparison of seven methods", Statistics in Medicine
	// 17:857–872, Table I, method 3 (Wilson, no continuity correction).
	// 0/20 has an upper limit above 0 (and 20/20 a lower one below 1).
	for _, c := range []struct {
		k, n   int
		lo, hi float64
	}{
		{81, 263, 0.2553, 0.3662},
		{15, 148, 0.0624, 0.1605},
		{0, 20, 0, 0.1611},
		{1, 29, 0.0061, 0.1718},
		{20, 20, 1 - 0.1611, 1},
	} {
		if l, h := Wilson(c.k, c.n); !near(l, c.lo) || !near(h, c.hi) {
			t.Errorf("Wilson(%d, %d) = [%.4f, %.4f], want [%.4f, %.4f]", c.k, c.n, l, h, c.lo, c.hi)
		}
	}
	// Newcombe (1998), "Interval estimation for the difference between
	// independent proportions: comparison of eleven methods", Statistics in
	// Medicine 17:873–890, Table II, method 10: examples (a), (b) and (d).
	for _, c := range []struct {
		k1, n1, k2, n2 int
		lo, hi         float64
	}{
		{56, 70, 48, 80, 0.0524, 0.3339},
		{9, 10, 3, 10, 0.1705, 0.8090},
		{5, 56, 0, 29, -0.0381, 0.1926},
	} {
		d, lo, hi := Newcombe(c.k1, c.n1, c.k2, c.n2)
		want := float64(c.k1)/float64(c.n1) - float64(c.k2)/float64(c.n2)
		if !near(d, want) || !near(lo, c.lo) || !near(hi, c.hi) {
			t.Errorf("Newcombe(%d/%d, %d/%d) = %.4f [%.4f, %.4f], want %.4f [%.4f, %.4f]",
				c.k1, c.n1, c.k2, c.n2, d, lo, hi, want, c.lo, c.hi)
		}
	}
	// Wilson of 0/n starts at 0; of n/n ends at 1.
	if l, _ := Wilson(0, 10); l != 0 {
		t.Errorf("Wilson(0, 10) low = %v", l)
	}
	if _, h := Wilson(10, 10); h != 1 {
		t.Errorf("Wilson(10, 10) high = %v", h)
	}
}

func TestPercentiles(t *testing.T) {
	x := make([]float64, 101)
	for i := range x {
		x[i] = float64(100 - i) // 100 … 0, unsorted
	}
	// type 7: h = 0.025 × 100 = 2.5 → 2.5; h = 97.5 → 97.5
	if p := Percentiles(x); p != [2]float64{2.5, 97.5} {
		t.Errorf("Percentiles(0..100) = %v, want [2.5 97.5]", p)
	}
}

// Quantile selects exactly what sorting gives, ties and runs of equal values
// included.
func TestQuantileEqualsSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 2000 {
		n := 1 + rng.IntN(300)
		x := make([]float64, n)
		distinct := 1 + rng.IntN(n+3)
		for i := range x {
			x[i] = float64(rng.IntN(distinct)) / 4
			if trial%3 == 0 {
				x[i] = rng.NormFloat64()
			}
		}
		for _, p := range []float64{0, 0.025, 0.5, 0.975, 1} {
			sorted := slices.Sorted(slices.Values(x))
			h := p * float64(n-1)
			lo := math.Floor(h)
			want := sorted[int(lo)] + (h-lo)*(sorted[min(int(lo)+1, n-1)]-sorted[int(lo)])
			y := slices.Clone(x)
			if got := Quantile(y, p); got != want {
				t.Fatalf("trial %d: Quantile(n=%d, %v) = %v, want %v", trial, n, p, got, want)
			}
			slices.Sort(y)
			if !slices.Equal(y, sorted) {
				t.Fatalf("trial %d: Quantile lost or changed values", trial)
			}
		}
	}
}

// Normal's half-width is z·√(n/(n−1)·Σ(l − mean)²), worked by hand; and
// Cochran's rule refuses a statistic too skewed for its n.
func TestNormal(t *testing.T) {
	cases := []struct {
		name   string
		t      float64
		l      []float64
		lo, hi float64
		ok     bool
	}{
		// mean 0, Σd² = 4, n/(n−1)·Σd² = 16/3, √ = 2.3094011, × 1.9599640 = 4.5263430.
		{"symmetric", 10, []float64{1, -1, 1, -1}, 5.473657, 14.526343, true},
		// Equal influences: no spread, the point itself.
		{"equal", 3, []float64{2, 2, 2, 2, 2}, 3, 3, true},
		// One 1 among 20: mean 0.05, m2 = 0.0475, m3 = 0.04275, g₁² =
		// 0.04275²/0.0475³ = 17.05, and 20 ≤ 25·17.05 = 426: refused.
		{"skewed", 1, append(make([]float64, 19), 1), 0, 0, false},
		// One episode: no spread to measure.
		{"one", 1, []float64{1}, 0, 0, false},
	}
	for _, c := range cases {
		lo, hi, ok := Normal(c.t, c.l)
		if ok != c.ok || math.Abs(lo-c.lo) > 1e-6 || math.Abs(hi-c.hi) > 1e-6 {
			t.Errorf("%s: %v … %v (%v), want %v … %v (%v)", c.name, lo, hi, ok, c.lo, c.hi, c.ok)
		}
	}
	// One 1 among 1,000 (g₁² ≈ 998, 25·g₁² ≈ 24,950 > 1,000) is refused;
	// one in ten (g₁² ≈ 7.1, 25·g₁² ≈ 178) is not.
	rare, tenth := make([]float64, 1000), make([]float64, 1000)
	rare[0] = 1
	for i := 0; i < 1000; i += 10 {
		tenth[i] = 1
	}
	if _, _, ok := Normal(1, rare); ok {
		t.Error("one in 1,000: the normal interval is not refused")
	}
	if _, _, ok := Normal(100, tenth); !ok {
		t.Error("one in ten of 1,000: the normal interval is refused")
	}
}
