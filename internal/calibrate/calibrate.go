// Package calibrate is the calibration study of the sweep's answer
// (docs/calibration.md): samples drawn from a large synthetic population,
// each swept as `lbanalyze sweep` sweeps a dataset, and the answer's
// intervals and decisions judged against the population's own figures.
// How often each printed interval covers the value it speaks of, and how
// often a shipped change is worse than now in truth, say how far the answer
// can be trusted — on the generator's episodes; real ones may differ.
package calibrate

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"

	"math"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/stats"
	"github.com/lbanalyze/lbanalyze/internal/sweep"
	"github.com/lbanalyze/lbanalyze/policy"
)

// Options say what to study.
type Options struct {
	Seed       uint64  // the population's: synth's --seed
	Population int     // N, its episodes
	Sizes      []int   // the sample sizes n
	Samples    int     // R, the samples of each size
	SampleSeed uint64  // the draws'
	Margin     float64 // how much worse than now, in false-termination rate, makes a ship harmful (a share)
	// Now is the current setting the samples are swept against (the
	// command's --config; DefaultNow unless set).
	Now     policy.Policy
	Workers int // samples swept at once (0: GOMAXPROCS)
}

// Defaults are the study of `make calibrate`.
func Defaults() Options {
	return Options{Seed: 1, Population: 2000, Sizes: []int{30, 75, 200, 500}, Samples: 100, SampleSeed: 1, Margin: 0.02, Now: DefaultNow()}
}

// Study is what the samples gave.
type Study struct {
	Options
	Configs int           // of the grid
	Now     policy.Policy // the current setting
	// NowFalseRate is now's false-termination rate in the population.
	NowFalseRate float64
	Sizes        []Size
}

// Size is the samples of one size.
type Size struct {
	N       int
	Samples []Sample
}

// Sample is one sample's answer, judged against the population.
type Sample struct {
	Verdict sweep.Verdict
	Config  policy.Policy // what the answer tells to run
	// TrueDiff is the population's false-termination rate of Config minus
	// now's (its high bound, which the answer judges), TrueDiffLow the same
	// of the low bound (premature stops alone).
	TrueDiff, TrueDiffLow float64
	// VersusCovers: the printed interval of the change of the
	// false-termination rate against now covers Config's own true change
	// (for a ship; the interval is of the procedure, Intervals judges it so).
	VersusCovers bool
	// The evidence of the leader (Answer): whether its comparison alone
	// would ship it, its true change, its stability and folds agreeing.
	Shown                   bool
	LeaderDiff, LeaderSaved float64
	Stability               float64
	Agree, Folds            int
	Intervals               []Judged
	// Safer: the leader is a change the other way (fewer false
	// terminations at a cost).
	Safer bool
	// TrueSaved is the population's turns saved per episode of Config
	// over now's.
	TrueSaved float64
	// WorseBias and SavedBias are the leader's share of episodes worse than
	// now and turns saved an episode over now, on the sample minus in the
	// population: how the choice biases what it is chosen on.
	WorseBias, SavedBias float64
	// TwoSided are the intervals the answer prints one-sided, judged whole.
	TwoSided []Judged
	// SettleJudged: the answer printed a low end of how many episodes would
	// settle it (more than the n at hand) above the floor every low end has
	// at a margin above 0 (z²(1 − m)/m: 189 at 2 pp), and SettleAtLeast,
	// the count the population's discordance gives is at least that low
	// end. RangeJudged: the answer gave a high end too, and SettleWithin,
	// the population's count lies between the two.
	SettleJudged, SettleAtLeast, RangeJudged, SettleWithin bool
	// BreakEvenJudged: the answer printed a break-even; BreakEvenSafe, it
	// is on the safe side of the population's (no higher, for a change
	// that saves more; no lower, for a safer one).
	BreakEvenJudged, BreakEvenSafe bool
}

// Judged is a printed interval and whether it covers the population's value
// of what it speaks of.
type Judged struct {
	Interval
	Truth   float64
	Covered bool
}

// harmful says whether the sample shipped a harmful change (harmfulChange):
// on the high bound of the false-termination rate, or with low on the low
// bound.
func (s *Sample) harmful(margin float64, low bool) bool {
	d := s.TrueDiff
	if low {
		d = s.TrueDiffLow
	}
	return s.Verdict == sweep.Ship && harmfulChange(d, s.TrueSaved, margin, s.Safer)
}

// harmfulChange says whether a change whose true change of the
// false-termination rate against now is diff (a share), saving saved turns
// an episode more than now, harms: worse than now by more than margin; or,
// a safer change, one that avoids no false termination in truth and saves
// no more: it costs turns for nothing.
func harmfulChange(diff, saved, margin float64, safer bool) bool {
	return diff > margin+1e-12 || safer && diff > -1e-12 && saved <= 1e-12
}

// Run builds the population, its truth, and sweeps every sample. progress,
// when set, is told of each phase.
func Run(opt Options, progress func(string)) (*Study, error) {
	if progress == nil {
		progress = func(string) {}
	}
	if opt.Workers <= 0 {
		opt.Workers = runtime.GOMAXPROCS(0)
	}
	for _, n := range opt.Sizes {
		if n < 1 || n > opt.Population {
			return nil, fmt.Errorf("a sample of %d from a population of %d", n, opt.Population)
		}
	}
	progress(fmt.Sprintf("generating a population of %d episodes (seed %d)", opt.Population, opt.Seed))
	pop, err := population(opt.Seed, opt.Population, opt.Workers)
	if err != nil {
		return nil, err
	}
	return study(pop, opt, progress), nil
}

// study is the study of the population pop, of opt.Population episodes, on
// opt.Workers workers (at least 1).
func study(pop []*episode.Episode, opt Options, progress func(string)) *Study {
	if opt.Now == (policy.Policy{}) {
		opt.Now = DefaultNow()
	}
	configs, now := grid(), opt.Now
	progress(fmt.Sprintf("replaying %d configs and now over the population", len(configs)))
	truth := newTruth(pop, append(slices.Clone(configs), now), opt.Workers)
	st := &Study{Options: opt, Configs: len(configs), Now: now}
	st.NowFalseRate, _ = truth.Of(Quantity{Figure: FalseRate, Of: now})
	for _, n := range opt.Sizes {
		progress(fmt.Sprintf("sweeping %d samples of %d episodes", opt.Samples, n))
		st.Sizes = append(st.Sizes, Size{N: n, Samples: sweepAll(pop, truth, n, opt)})
	}
	return st
}

// sweepAll sweeps the R samples of size n, Workers at a time; each sample's
// result depends on its draw alone.
func sweepAll(pop []*episode.Episode, truth *truthTable, n int, opt Options) []Sample {
	out := make([]Sample, opt.Samples)
	next := make(chan int)
	var wg sync.WaitGroup
	for range opt.Workers {
		wg.Go(func() {
			for r := range next {
				out[r] = judge(answer(draw(pop, n, opt.SampleSeed, r), opt.Now), truth)
			}
		})
	}
	for r := range opt.Samples {
		next <- r
	}
	close(next)
	wg.Wait()
	return out
}

// draw is sample r of size n from pop, without replacement: a partial
// Fisher–Yates shuffle from a stream of its own (seed, n, r).
func draw(pop []*episode.Episode, n int, seed uint64, r int) []*episode.Episode {
	rng := rand.New(rand.NewPCG(seed, uint64(n)<<32|uint64(r)))
	idx := make([]int, len(pop))
	for i := range idx {
		idx[i] = i
	}
	out := make([]*episode.Episode, n)
	for k := range n {
		j := k + rng.IntN(len(idx)-k)
		idx[k], idx[j] = idx[j], idx[k]
		out[k] = pop[idx[k]]
	}
	return out
}

// judge sets, for each interval of a, the population's value and whether the
// interval covers it (a closed interval, with room for rounding).
func judge(a Answer, truth *truthTable) Sample {
	s := Sample{Verdict: a.Verdict, Config: a.Config, Shown: a.Shown, Stability: a.Stability, Agree: a.Agree, Folds: a.Folds}
	s.TrueDiff, _ = truth.Of(Quantity{Figure: FalseRate, Of: a.Config, Base: a.Now, Versus: true})
	s.TrueDiffLow, _ = truth.Of(Quantity{Figure: FalseRateLow, Of: a.Config, Base: a.Now, Versus: true})
	s.LeaderDiff, _ = truth.Of(Quantity{Figure: FalseRate, Of: a.Leader, Base: a.Now, Versus: true})
	s.LeaderSaved, _ = truth.Of(Quantity{Figure: SavedPerEpisode, Of: a.Leader, Base: a.Now, Versus: true})
	worse, _ := truth.Of(Quantity{Figure: WorseShare, Of: a.Leader})
	s.WorseBias, s.SavedBias = a.Worse-worse, a.Saved-s.LeaderSaved
	if a.Versus != nil {
		s.VersusCovers = a.Versus[0]-1e-9 <= s.TrueDiff && s.TrueDiff <= a.Versus[1]+1e-9
	}
	s.TrueSaved, _ = truth.Of(Quantity{Figure: SavedPerEpisode, Of: a.Config, Base: a.Now, Versus: true})
	s.Safer = a.Safer
	s.judgeSettle(a, truth)
	s.judgeBreakEven(a, truth)
	s.Intervals, s.TwoSided = judgeAll(a.Intervals, truth), judgeAll(a.TwoSided, truth)
	return s
}

// judgeAll judges each interval against the population's value.
func judgeAll(ivs []Interval, truth *truthTable) []Judged {
	var out []Judged
	for _, iv := range ivs {
		v, ok := truth.Of(iv.Of)
		if !ok {
			panic(fmt.Sprintf("calibrate: %s speaks of a config the population was not replayed under", iv.Label))
		}
		out = append(out, Judged{Interval: iv, Truth: v, Covered: iv.Lo-1e-9 <= v && v <= iv.Hi+1e-9})
	}
	return out
}

// judgeSettle judges the printed count of episodes that would settle the
// comparison against the count the population's own discordance of the
// pairs it rests on (the leader's, or the folds' choices held out) gives
// (stats.SettleAt: infinite when none would). A low end the answer does not
// print (no more than n: sweep.Settle.Reached), at the floor every low end
// has, which any population's count meets, or set by the saving (taken as
// printed), is not judged.
func (s *Sample) judgeSettle(a Answer, truth *truthTable) {
	if a.Settle == nil || a.Verdict != sweep.NoClearWinner {
		return
	}
	worse, _ := truth.Of(Quantity{Figure: WorseShare, Mix: a.SettleOf})
	better, _ := truth.Of(Quantity{Figure: BetterShare, Mix: a.SettleOf})
	margin := a.Margin
	if a.Safer {
		margin = 0
	}
	// The count for the savings is taken as printed (its truth is not
	// replayed): the population's count is the larger of the two.
	n := stats.SettleAt(worse-better, worse+better, margin)
	if n > 0 {
		n = max(n, a.Settle.Saved)
	}
	floor := stats.SettleAt(0, 0, margin)
	s.SettleJudged = !a.Settle.Reached(a.N) && a.Settle.Low > floor && a.Settle.Low > a.Settle.Saved
	s.SettleAtLeast = s.SettleJudged && (n == 0 || n >= a.Settle.Low)
	s.RangeJudged = a.Settle.High > 0
	s.SettleWithin = s.RangeJudged && n != 0 && a.Settle.Low <= n && n <= a.Settle.High
}

// judgeBreakEven judges the printed break-even against the population's:
// the leader's turns saved over now per episode ÷ its change of episodes
// the logs cannot show fine per episode.
func (s *Sample) judgeBreakEven(a Answer, truth *truthTable) {
	b := a.BreakEven
	if b == nil {
		return
	}
	saved, _ := truth.Of(Quantity{Figure: SavedPerEpisode, Of: a.Leader, Base: a.Now, Versus: true})
	diff, _ := truth.Of(Quantity{Figure: FalseRate, Of: a.Leader, Base: a.Now, Versus: true})
	s.BreakEvenJudged = true
	if b.Safer {
		// Worth shipping above the rate: safe when the true rate is no
		// higher (it avoids none in truth: infinite, unsafe unless printed so).
		t := math.Inf(1)
		if diff < 0 {
			t = max(0, -saved) / -diff
		}
		s.BreakEvenSafe = t <= b.Rate*(1+1e-9)
		return
	}
	t := math.Inf(1) // worth shipping below the rate: safe when the true rate is no lower
	if diff > 0 {
		t = max(0, saved) / diff
	}
	s.BreakEvenSafe = t >= b.Rate*(1-1e-9)
}
