package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestWilsonNewcombe(t *testing.T) {
	// Newcombe (1998), "Interval estimation for the difference between
	// independent proportions", Statistics in Medicine 17, example (a):
	// 56/70 − 48/80 = 0.80 − 0.60 = 0.20, method 10 interval 0.0524 to 0.3339.
	// The Wilson intervals it is built from: 56/70 → 0.6918 to 0.8770.
	d, lo, hi := Newcombe(56, 70, 48, 80)
	near := func(got, want float64) bool { return got > want-0.00006 && got < want+0.00006 }
	if !near(d, 0.2) || !near(lo, 0.0524) || !near(hi, 0.3339) {
		t.Errorf("Newcombe(56/70, 48/80) = %.4f [%.4f, %.4f]", d, lo, hi)
	}
	if l, h := Wilson(56, 70); !near(l, 0.6918) || !near(h, 0.8770) {
		t.Errorf("Wilson(56, 70) = [%.4f, %.4f]", l, h)
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
