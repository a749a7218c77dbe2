package metrics

import (
	"math"
	"math/rand/v2"
	"runtime"
	"strconv"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/replay"
)

// The intervals of sums are the same whatever the cores (one stream of
// resamples from the seed), and none is given below MinN episodes.
func TestSumIntervalsDeterministic(t *testing.T) {
	x := make([][]float64, 7)
	for c := range x {
		x[c] = make([]float64, 30)
		for e := range x[c] {
			x[c][e] = float64((c+1)*e%11) / 3
		}
	}
	prev := runtime.GOMAXPROCS(1)
	one := SumIntervals(x)
	runtime.GOMAXPROCS(4)
	four := SumIntervals(x)
	runtime.GOMAXPROCS(prev)
	for c := range x {
		if one[c] == nil || *one[c] != *four[c] {
			t.Errorf("row %d: %v with one core, %v with four", c, one[c], four[c])
		}
	}
	if few := SumIntervals([][]float64{{1, 2, 3, 4}}); few[0] != nil {
		t.Errorf("an interval from 4 episodes: %v", *few[0])
	}
}

// randomPairs are n episodes of 60–259 turns, each stopped at 40 under the
// baseline half the time and under the after policy a third of the time.
func randomPairs(n int, seed uint64) Pairs {
	rng := rand.New(rand.NewPCG(seed, seed))
	pairs := make(Pairs, n)
	for i := range pairs {
		turns := 60 + rng.IntN(200)
		ep := &episode.Episode{ID: strconv.Itoa(i), Turns: make([]episode.Turn, turns)}
		b, a := replay.Outcome{Length: turns}, replay.Outcome{Length: turns}
		if rng.IntN(2) == 0 {
			b.TerminationTurn, b.Length, b.TurnsSaved, b.TurnsStuck = 40, 40, turns-40, 40
		}
		if rng.IntN(3) == 0 {
			a.TerminationTurn, a.Length, a.TurnsSaved, a.TurnsStuck = 40, 40, turns-40, 20+rng.IntN(21)
		}
		pairs[i] = PairOf(ep, b, a)
	}
	return pairs
}

// A sum's interval is the one Compare gives the after side of a sum (turns
// saved): one bootstrap, on the same resamples.
func TestSumIntervalsAreCompares(t *testing.T) {
	pairs := randomPairs(40, 5)
	saved := make([]float64, len(pairs))
	for i, p := range pairs {
		saved[i] = float64(p.After.TurnsSaved)
	}
	got := SumIntervals([][]float64{saved})[0]
	for _, m := range Compare(pairs, Costs{CallsPerTurn: 4}, zorkGPT) {
		if m.Name == "turns_saved" && (got == nil || m.AfterCI == nil || *got != *m.AfterCI) {
			t.Errorf("the sum's interval %v, Compare's %v", got, m.AfterCI)
		}
	}
}

// From NormalFrom episodes a sum's or a mean's intervals are the normal
// ones, and at n = 2,000 they agree with the bootstrap's percentiles to
// within 5% of the width at each end: every sum and mean, its change, its
// relative change and each side.
func TestNormalNearBootstrap(t *testing.T) {
	pairs := randomPairs(2000, 9)
	defer func(v int) { NormalFrom = v }(NormalFrom)
	NormalFrom = len(pairs) + 1
	boot := Compare(pairs, Costs{CallsPerTurn: 4}, zorkGPT)
	NormalFrom = len(pairs)
	norm := Compare(pairs, Costs{CallsPerTurn: 4}, zorkGPT)
	checked := 0
	for k := range norm {
		b, m := &boot[k], &norm[k]
		if b.Method != PairedBootstrap {
			continue
		}
		if m.Method != PairedNormal {
			t.Errorf("%s: %v at n = %d", m.Name, m.Method, len(pairs))
			continue
		}
		for _, iv := range []struct {
			what   string
			bi, ni *[2]float64
		}{{"change", b.CI, m.CI}, {"relative change", b.CIPct, m.CIPct}, {"baseline", b.BaselineCI, m.BaselineCI}, {"after", b.AfterCI, m.AfterCI}} {
			if (iv.bi == nil) != (iv.ni == nil) {
				t.Errorf("%s, %s: bootstrap %v, normal %v", m.Name, iv.what, iv.bi, iv.ni)
				continue
			}
			if iv.bi == nil {
				continue
			}
			width := iv.bi[1] - iv.bi[0]
			if math.Abs(iv.bi[0]-iv.ni[0]) > 0.05*width || math.Abs(iv.bi[1]-iv.ni[1]) > 0.05*width {
				t.Errorf("%s, %s: bootstrap %v, normal %v", m.Name, iv.what, *iv.bi, *iv.ni)
			}
			checked++
		}
	}
	if checked < 20 {
		t.Errorf("only %d intervals compared", checked)
	}
}

// Cochran's rule keeps the bootstrap for a sum too skewed for its n: of
// 1,000 episodes one stops under the after policy and none under the
// baseline, so that the change of turns saved rests on one episode
// (g₁² ≈ 998, 25·g₁² ≈ 24,950 > 1,000).
func TestNormalRefusedWhenSkewed(t *testing.T) {
	pairs := randomPairs(1000, 11)
	for i := range pairs {
		turns := pairs[i].Turns
		pairs[i].Baseline = replay.Outcome{Length: turns}
		pairs[i].After = replay.Outcome{Length: turns}
	}
	pairs[0].After = replay.Outcome{TerminationTurn: 40, Length: 40, TurnsSaved: pairs[0].Turns - 40, TurnsStuck: 40}
	for _, m := range Compare(pairs, Costs{CallsPerTurn: 4}, zorkGPT) {
		if m.Name == "turns_saved" && (m.Method != PairedBootstrap || m.CI == nil) {
			t.Errorf("%s: %v, interval %v", m.Name, m.Method, m.CI)
		}
	}
}

// The title's words name how the sums' and means' intervals were made, and
// which metrics kept the bootstrap beside the normal interval.
func TestSumsMethod(t *testing.T) {
	boot := "a paired bootstrap over episodes for sums and means, 10000 resamples, seed 1"
	normal := "the normal interval of a paired difference for sums and means, from 1000 episodes"
	cases := []struct {
		methods []Method
		want    string
	}{
		{[]Method{PairedProportions, PairedBootstrap}, boot},
		{[]Method{PairedProportions, PairedNormal, PairedNormal}, normal},
		{[]Method{PairedNormal, PairedBootstrap}, normal + "; for m1, too skewed for it, " + boot},
	}
	for _, c := range cases {
		ms := make([]Metric, len(c.methods))
		for i, m := range c.methods {
			ms[i] = Metric{Label: "m" + strconv.Itoa(i), Method: m}
		}
		if got := SumsMethod(ms); got != c.want {
			t.Errorf("%v: %q, want %q", c.methods, got, c.want)
		}
	}
}

// TestSumRowsAsRowByRow: sumRows gives each column the very float of adding
// its rows one at a time in idx's order, for widths that take the eight-,
// four- and one-column passes alone and together, on values of mixed
// magnitudes whose sums depend on the order of addition.
func TestSumRowsAsRowByRow(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, width := range []int{1, 3, 4, 7, 8, 12, 13, 16, 21, 28} {
		const n = 50
		rows := make([]float64, n*width)
		for j := range rows {
			rows[j] = (rng.Float64() - 0.5) * math.Pow(10, float64(rng.IntN(12)))
		}
		idx := make([]int32, 3*n)
		for j := range idx {
			idx[j] = int32(rng.IntN(n))
		}
		want := make([]float64, width)
		sumRowByRow(want, rows, idx)
		got := make([]float64, width)
		for j := range got {
			got[j] = math.NaN() // every column set, none accumulated onto
		}
		sumRows(got, rows, idx)
		for j := range want {
			if math.Float64bits(got[j]) != math.Float64bits(want[j]) {
				t.Errorf("width %d, column %d: %v, want %v", width, j, got[j], want[j])
			}
		}
	}
}

// sumRowByRow is sumRows' plain form: each row of idx in turn, adding every
// column of it.
func sumRowByRow(acc, rows []float64, idx []int32) {
	clear(acc)
	width := len(acc)
	for _, i := range idx {
		row := rows[int(i)*width : int(i+1)*width]
		for j, x := range row {
			acc[j] += x
		}
	}
}
