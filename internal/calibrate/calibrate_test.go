package calibrate

import (
	"bytes"
	"slices"
	"sync"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/sweep"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/replay"
)

var (
	popOnce sync.Once
	pop     []*episode.Episode
	popErr  error
)

// testPopulation is a population of 300 episodes, made once.
func testPopulation(t *testing.T) []*episode.Episode {
	t.Helper()
	popOnce.Do(func() { pop, popErr = population(1, 300, 2) })
	if popErr != nil {
		t.Fatal(popErr)
	}
	return pop
}

// The truth is each config's figures over the population, recomputed here
// from the plain replay (replay.Run), not the sweep's fast path.
func TestTruth(t *testing.T) {
	eps := testPopulation(t)[:60]
	configs, now := grid(), DefaultNow()
	ps := []policy.Policy{now, configs[0], configs[40], configs[100], configs[len(configs)-1]}
	truth := newTruth(eps, ps, 2)
	n := float64(len(eps))
	for _, p := range ps {
		var ft, pre, cens, saved int
		for _, ep := range eps {
			o := replay.Run(ep, p)
			if o.FalseTerminationCandidate() || o.Unknown() || o.Censored { // the high bound
				ft++
			}
			if o.FalseTerminationCandidate() { // the low
				pre++
			}
			if o.Censored {
				cens++
			}
			saved += o.TurnsSaved
		}
		want := map[Figure]float64{FalseRate: float64(ft) / n, CensoredShare: float64(cens) / n,
			SavedPerEpisode: float64(saved) / n, FalseRateLow: float64(pre) / n}
		for f, w := range want {
			if got, ok := truth.Of(Quantity{Figure: f, Of: p}); !ok || got != w {
				t.Errorf("%v: %v = %v, want %v", p, f, got, w)
			}
		}
		// A difference is the difference of the two figures.
		a, _ := truth.Of(Quantity{Figure: FalseRate, Of: p})
		b, _ := truth.Of(Quantity{Figure: FalseRate, Of: now})
		if d, _ := truth.Of(Quantity{Figure: FalseRate, Of: p, Base: now, Versus: true}); d != a-b {
			t.Errorf("%v versus now: %v, want %v", p, d, a-b)
		}
	}
	if _, ok := truth.Of(Quantity{Figure: FalseRate, Of: configs[1]}); ok {
		t.Error("a config not replayed has a truth")
	}
}

// A draw is n distinct episodes of the population, the same for the same
// (seed, n, r), another for another r.
func TestDraw(t *testing.T) {
	p := testPopulation(t)
	a, b, c := draw(p, 75, 1, 0), draw(p, 75, 1, 0), draw(p, 75, 1, 1)
	if !slices.Equal(a, b) {
		t.Error("the same draw twice differs")
	}
	if slices.Equal(a, c) {
		t.Error("two draws are the same")
	}
	seen := map[*episode.Episode]bool{}
	for _, ep := range a {
		if seen[ep] || !slices.Contains(p, ep) {
			t.Fatalf("%s drawn twice, or not from the population", ep.ID)
		}
		seen[ep] = true
	}
	if len(a) != 75 {
		t.Errorf("a draw of %d", len(a))
	}
	if all := draw(p, len(p), 1, 0); len(all) != len(p) {
		t.Errorf("a draw of the whole population has %d", len(all))
	}
}

// Coverage is of the closed interval; a ship is harmful only when more than
// the margin worse than now.
func TestJudge(t *testing.T) {
	configs, now := grid(), DefaultNow()
	p := configs[3]
	truth := newTruth(testPopulation(t)[:40], []policy.Policy{now, p}, 1)
	rate, _ := truth.Of(Quantity{Figure: FalseRate, Of: p})
	diff, _ := truth.Of(Quantity{Figure: FalseRate, Of: p, Base: now, Versus: true})
	q := Quantity{Figure: FalseRate, Of: p}
	s := judge(Answer{Verdict: sweep.Ship, Config: p, Now: now, Intervals: []Interval{
		{Label: "at the low end", Lo: rate, Hi: rate + 0.1, Of: q},
		{Label: "at the high end", Lo: rate - 0.1, Hi: rate, Of: q},
		{Label: "below", Lo: rate - 0.1, Hi: rate - 0.001, Of: q},
		{Label: "above", Lo: rate + 0.001, Hi: rate + 0.1, Of: q},
	}}, truth)
	for i, want := range []bool{true, true, false, false} {
		if j := s.Intervals[i]; j.Covered != want || j.Truth != rate {
			t.Errorf("%s: covered %v (truth %v), want %v (truth %v)", j.Label, j.Covered, j.Truth, want, rate)
		}
	}
	if s.TrueDiff != diff {
		t.Errorf("TrueDiff = %v, want %v", s.TrueDiff, diff)
	}
	for _, c := range []struct {
		v       sweep.Verdict
		diff    float64
		harmful bool
	}{{sweep.Ship, 0.0201, true}, {sweep.Ship, 0.02, false}, {sweep.Ship, -0.05, false}, {sweep.Keep, 0.05, false}, {sweep.NoClearWinner, 0.05, false}} {
		if got := (&Sample{Verdict: c.v, TrueDiff: c.diff, TrueDiffLow: -1}).harmful(0.02, false); got != c.harmful {
			t.Errorf("%v at %+v pp: harmful %v", c.v, 100*c.diff, got)
		}
		if got := (&Sample{Verdict: c.v, TrueDiff: -1, TrueDiffLow: c.diff}).harmful(0.02, true); got != c.harmful {
			t.Errorf("%v at %+v pp of the low bound: harmful %v", c.v, 100*c.diff, got)
		}
	}
}

// A safer ship is harmful when, in the population, it avoids no false
// termination and saves no more turns than now: it costs turns for nothing;
// beyond the margin worse, whatever its direction.
func TestHarmfulSaferShip(t *testing.T) {
	for _, c := range []struct {
		diff, saved float64
		safer, want bool
	}{
		{0, -3, true, true},       // no gain, 3 turns an episode lost
		{0.001, -3, true, true},   // worse, within the margin, at a cost
		{-0.001, -3, true, false}, // some gain, at a cost: the break-even weighs it
		{0, 2, true, false},       // no gain, but saves more: no cost
		{0.03, 2, true, true},     // beyond the margin
		{0.001, -3, false, false}, // a change that saves more: the margin alone
		{0.0201, 5, false, true},
	} {
		if got := (&Sample{Verdict: sweep.Ship, TrueDiff: c.diff, TrueSaved: c.saved, Safer: c.safer}).harmful(0.02, false); got != c.want {
			t.Errorf("%+v: harmful %v", c, got)
		}
	}
}

// The count to settle is judged only where it says something: a low end
// printed (above the n at hand) and above the floor every low end has at a
// margin of 2 pp, ⌈1.959964²·0.98/0.02⌉ = ⌈188.2⌉ = 189; a range only with
// a high end. At the population's discordance of 1% worse, none better,
// Δ = 1%: 7.84888·0.01/0.01² = 784.9, 785.
func TestJudgeSettle(t *testing.T) {
	configs, now := grid(), DefaultNow()
	p := configs[3]
	truth := &truthTable{N: 100, index: map[policy.Policy]int{p: 0, now: 1}, values: make([][figures]float64, 2)}
	truth.values[0][WorseShare] = 0.01
	for _, c := range []struct {
		settle                       sweep.Settle
		n                            int
		judged, atLeast, rng, within bool
	}{
		{sweep.Settle{Low: 189}, 75, false, false, false, false},           // the floor: holds by construction
		{sweep.Settle{Low: 300, High: 2000}, 75, true, true, true, true},   // 785 ≥ 300, within 300–2000
		{sweep.Settle{Low: 800, High: 2000}, 75, true, false, true, false}, // 785 < 800: the low end fails
		{sweep.Settle{Low: 300, High: 700}, 200, true, true, true, false},  // 785 above the range
		{sweep.Settle{Low: 189, High: 785}, 200, false, false, true, true}, // low end reached: not printed
		// A low end the saving sets is not judged; the population's count is
		// at least the saving's, as printed: max(785, 300) = 785, within
		// 300–2000; max(785, 900) = 900, within 900–2000.
		{sweep.Settle{Low: 300, High: 2000, Saved: 300}, 75, false, false, true, true},
		{sweep.Settle{Low: 900, High: 2000, Saved: 900}, 75, false, false, true, true},
	} {
		a := Answer{Verdict: sweep.NoClearWinner, Now: now, Leader: p, Settle: &c.settle, SettleOf: []Part{{p, 1}}, Margin: 0.02, N: c.n}
		var s Sample
		s.judgeSettle(a, truth)
		if s.SettleJudged != c.judged || s.SettleAtLeast != c.atLeast || s.RangeJudged != c.rng || s.SettleWithin != c.within {
			t.Errorf("%+v at n = %d: judged %v, at least %v, range %v, within %v; want %v, %v, %v, %v", c.settle, c.n,
				s.SettleJudged, s.SettleAtLeast, s.RangeJudged, s.SettleWithin, c.judged, c.atLeast, c.rng, c.within)
		}
	}
}

// The small study: 6 samples of 30 and of 60 from a population of 300. Its
// tables are the same on one worker and on two; every answer has its
// intervals judged; the decisions add up.
func TestStudySmall(t *testing.T) {
	opt := Options{Seed: 1, Population: 300, Sizes: []int{30, 60}, Samples: 6, SampleSeed: 2, Margin: 0.02, Workers: 1}
	one := study(testPopulation(t), opt, func(string) {})
	opt.Workers = 2
	two := study(testPopulation(t), opt, func(string) {})
	var a, b bytes.Buffer
	one.Write(&a)
	two.Write(&b)
	if a.String() != b.String() {
		t.Fatalf("the tables depend on the workers:\n%s\n%s", a.String(), b.String())
	}
	for _, s := range one.Sizes {
		if len(s.Samples) != 6 {
			t.Fatalf("n = %d: %d samples", s.N, len(s.Samples))
		}
		verdicts := 0
		for _, v := range []sweep.Verdict{sweep.Ship, sweep.Keep, sweep.NoClearWinner} {
			verdicts += s.count(func(x *Sample) bool { return x.Verdict == v })
		}
		if verdicts != 6 {
			t.Errorf("n = %d: %d verdicts of 6 samples", s.N, verdicts)
		}
		for _, x := range s.Samples {
			if x.Verdict != sweep.NoClearWinner && len(x.Intervals) == 0 {
				t.Errorf("n = %d: an answer (%v) with no interval judged", s.N, x.Verdict)
			}
		}
	}
	for _, want := range []string{"N = 300", "R = 6", "| n = 30 | n = 60 |", "| ships |", "harmful ships",
		"evidence thresholds: ships / harmful / worse than now", "keep · now: false-termination rate"} {
		if !bytes.Contains(a.Bytes(), []byte(want)) {
			t.Errorf("the tables lack %q:\n%s", want, a.String())
		}
	}
	if _, err := Run(Options{Seed: 1, Population: 300, Sizes: []int{301}, Samples: 1}, nil); err == nil {
		t.Error("a sample larger than the population is not refused")
	}
}
