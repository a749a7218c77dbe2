package sweep

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/metrics"
	"github.com/lbanalyze/lbanalyze/internal/stats"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/replay"
)

// Settings of the resampling: fixed, so that the same episodes give the same
// answer.
const (
	// StabilityResamples is how many bootstrap resamples the choice is made
	// again on.
	StabilityResamples = 1000
	// maxCandidateCells bounds configs × episodes held per episode for the
	// stability and cross-validation: above it, they choose among the front.
	maxCandidateCells = 4_000_000
	// maxKeptCells bounds the configs × episodes whose cells the replay of
	// every config keeps for the answer (16 bytes each), held beside the
	// replay's own tables: above it, the answer replays its candidates
	// again.
	maxKeptCells = 1_000_000
)

// Below these the sweep describes the episodes and answers nothing.
const (
	// MinEpisodes: with fewer episodes the folds of the cross-validation
	// hold a handful each, too few to say which config leads.
	MinEpisodes = 20
	// MinTelling: the configs and now must have different outcomes on at
	// least this many episodes; on the others every config stops at the same
	// turn, or none stops, and they say nothing about which to choose.
	MinTelling = 10
)

// The evidence a ship needs beyond its comparison with now (docs/commands.md,
// "sweep: which setting to ship"): the rule must choose the config's class
// again in at least MinStability of the bootstrap resamples and on at least
// MinFoldsAgreeing of the folds (3 of 5). Chosen with the calibration study
// (docs/calibration.md, "The evidence thresholds"): no threshold was needed
// to keep harmful ships within their goal; these withhold the ships of a
// config the data cannot single out among its neighbours, most of them
// worse than now in truth, and few others.
const (
	MinStability     = 0.2
	MinFoldsAgreeing = 0.6
)

// Verdict is what the answer says to do.
type Verdict int

const (
	// Ship the change the rule chose.
	Ship Verdict = iota
	// Keep the current setting.
	Keep
	// NoClearWinner: a change leads, but the data cannot tell it is better
	// than now.
	NoClearWinner
)

func (v Verdict) String() string { return [...]string{"ship", "keep", "no_clear_winner"}[v] }

// Figures are a config's figures over the n episodes, in sample.
type Figures struct {
	Tally
	// FalseRate is the high bound of the false-termination rate (unknown
	// stops and censored outcomes as premature), FalseRateLow the low
	// (premature stops alone); FalseRateCI is FalseRate's Wilson interval.
	FalseRate, FalseRateLow float64
	FalseRateCI             [2]float64
	SavedShare              float64 // turns saved ÷ logged turns
}

// Choice is the config the rule chose on all the episodes, and what is known
// of its error.
type Choice struct {
	Config int // index into Result.Configs; -1: now
	In     Figures
	// Stability is the share of StabilityResamples bootstrap resamples in
	// which the rule chooses Config's class again; Rivals the others chosen
	// most (Config -1: now).
	Stability float64
	Rivals    []Rival
	// Candidates is how many configs the resampled and cross-validated
	// choices were made among (one a class, or the front for a large grid).
	Candidates int
	CV         CV
}

// Answer is what to do: ship the rule's choice, keep the current setting, or
// no clear winner between them.
type Answer struct {
	Verdict Verdict
	Choice         // the rule's choice on all the episodes: the change that leads, or now
	Why     string // why the current setting is kept, or why there is no clear winner
	// Now are the current setting's figures.
	Now Figures
	// Block is the text to paste (system.System.Block); empty unless shipped.
	Block string
	// Versus is the named config's own comparison with now (baseline), on
	// all n episodes, paired: every metric of batch. In sample: the
	// episodes chose it. Nil when the choice is now.
	Versus []metrics.Metric
	// HeldOut compares now with the rule as a procedure, each episode under
	// the config chosen on the folds without it: what choosing by this rule
	// gives on new episodes, of no one config. The verdict is taken on it;
	// on Versus with --folds 0 (nil then).
	HeldOut []metrics.Metric
	// Safer: the named config is a change the other way, with fewer false
	// terminations than now at a cost in what it saves (docs/commands.md,
	// "sweep: which setting to ship").
	Safer bool
	// Settle is how many episodes in all would settle the comparison the
	// verdict was taken on (decisive), from its discordance
	// (stats.PairedSettle); nil when no change leads or no count would.
	Settle *Settle
	// BreakEven is the trade-off of the named config in the user's units;
	// nil when no change leads.
	BreakEven *BreakEven
	// Shown: the comparison with now alone would ship the change (within
	// the margin, saving more); Verdict is Ship when the evidence
	// thresholds hold too.
	Shown bool
	// Limits, when the config the answer tells to run misses a target,
	// say which binds among the configs the system runs.
	Limits *Limits
}

// Settle is a range of episodes in all: Low at the favourable ends of the
// intervals of the difference (Tango's) and of the discordance (Wilson's),
// High at both as observed (0: no upper estimate) (stats.PairedSettle). Low
// is at least Saved, the count that would show what the change saves at the
// upper bound of the saving's interval, and High at least that count at the
// saving observed (0 when the saving is shown). They rest on the discordance of the
// comparison the verdict was taken on: Worse episodes worse under the change
// than under now, Better the other way, of the held-out pairs when HeldOut.
// A count no more than the episodes at hand is not what would settle it
// (Reached): what blocks the verdict is then the discordance observed, or
// the evidence (docs/commands.md, "sweep: which setting to ship").
type Settle struct {
	Low, High, Saved int
	HeldOut          bool
	Worse, Better    int
}

// Reached says whether the episodes at hand, n, are already as many as the
// count at the discordance's favourable end: more of them is then not what
// the verdict waits for.
func (s *Settle) Reached(n int) bool { return s.Low <= n }

// decisive is the comparison the verdict is taken on: held out, else (--folds
// 0) the named config's own.
func (a *Answer) decisive() []metrics.Metric {
	if a.HeldOut != nil {
		return a.HeldOut
	}
	return a.Versus
}

// HeldOutIsOwn says whether the held-out comparison is the named config's
// own: every fold chose it, and HeldOut is Versus, the same pairs.
func (a *Answer) HeldOutIsOwn() bool {
	return len(a.HeldOut) > 0 && len(a.Versus) > 0 && &a.HeldOut[0] == &a.Versus[0]
}

// Config is the config the answer tells to run: the choice when shipped,
// else the current setting.
func (a *Answer) config(r *Result) *Config {
	if a.Verdict != Ship {
		return r.Current
	}
	return &r.Configs[a.Config]
}

// Overall is the best config of the whole grid when the system cannot run it
// as it is: the change it would need, and what it would add.
type Overall struct {
	Choice
	Change string // why the system cannot run it, and the smallest change that would
	// Over compares the answer's config (baseline) with this one (after),
	// in sample.
	Over []metrics.Metric
}

// Limits say, when the config the answer tells to run misses a target, how
// the configs the system runs fare: MeetsBoth is the one that saves the most
// of those that meet both targets; else LowestFalse has the lowest
// false-termination rate within the censoring limit, and LeastCensored,
// when some meet the false-termination target, is the least censored of
// them. -1: none.
type Limits struct{ MeetsBoth, LowestFalse, LeastCensored int }

// Rival is another config chosen in some resamples.
type Rival struct {
	Config int     `json:"config"` // -1: now
	Share  float64 `json:"share"`
}

// CV is the k-fold cross-validation of the rule: on each fold, the config
// chosen on the other folds, measured on the fold held out; over the folds,
// every episode judged by a config chosen without it.
type CV struct {
	Folds int
	// HeldOutFalseRate is the held-out episodes' outcomes the logs cannot
	// show fine ÷ n (the high bound), with its Wilson interval;
	// HeldOutFalseRateLow their premature stops ÷ n.
	HeldOutFalseRate, HeldOutFalseRateLow float64
	HeldOutFalseCI                        [2]float64
	HeldOutSavedShare                     float64     // turns saved on held-out episodes ÷ their logged turns
	HeldOutSavedCI                        *[2]float64 // its 95% interval (metrics.Compare's), for the answer's rule
	// HeldOutTokensSaved is the tokens saved on held-out episodes, summed
	// over the folds (when they rank the configs).
	HeldOutTokensSaved int64
	// Agree is how many folds chose the class chosen on all the data.
	Agree int
	// Chosen[k] is the config fold k chose on the other folds (-1: now),
	// and Sizes[k] how many episodes it holds: the held-out figures are of
	// this mixture.
	Chosen, Sizes []int
}

// figures are the per-episode figures of the candidates and, last, the
// current setting: what a choice needs, for any subset or resample of the
// episodes.
type figures struct {
	n        int
	turns    []int     // logged turns of episode i
	cells    [][]cell  // [column][episode]
	tokens   [][]int64 // when ranked by tokens
	byTokens bool      // ranked by tokens: grow adds tokens' columns too
	changed  []int     // [column]: settings changed from now (now: -1)
}

// now is the current setting's column.
func (f *figures) now() int { return len(f.cells) - 1 }

// cell is one config's outcome on one episode, as the tallies read it: one
// read of memory a cell, for the millions a resampling sums.
type cell struct {
	forgo episode.Score
	saved int32
	// class has a bit for each of premature, unknown, censored, and for
	// worse and better: unjudged and not under now, and the other way.
	class uint8
}

const (
	premature = 1 << iota
	unknown
	censored
	worse
	better
	unjudged = premature | unknown | censored
)

func (c cell) unjudged() int { return b2i(c.class&unjudged != 0) }

// weights are the episodes a tally counts and how many times each: a
// bootstrap resample, or a subset. Only those counted are listed, so a sum
// skips the rest (a resample leaves out a third of the episodes).
type weights struct{ e, k []int32 }

// of lists the episodes with a count in w.
func (ws *weights) of(w []int32) *weights {
	ws.e, ws.k = ws.e[:0], ws.k[:0]
	for e, k := range w {
		if k != 0 {
			ws.e, ws.k = append(ws.e, int32(e)), append(ws.k, k)
		}
	}
	return ws
}

// everyone weighs every one of n episodes once.
func everyone(n int) *weights {
	w := make([]int32, n)
	for i := range w {
		w[i] = 1
	}
	return (&weights{}).of(w)
}

// answer chooses what to do and measures the choice, or says why the data
// cannot support an answer. kept are every config's cells, now's the last
// column, as the replay of every config gave them, for the answer's figures
// to take rather than replay again; nil past maxKeptCells.
func (r *Result) answer(eps []*episode.Episode, kept *figures) {
	if r.N < MinEpisodes {
		r.NoAnswer = fmt.Sprintf("%s, too few to choose a setting (an answer needs at least %d episodes, for its "+
			"cross-validation to mean something): what follows describes the data, not what to ship.", episodes(r.N), MinEpisodes)
		return
	}
	if !slices.Contains(r.Runnable, true) {
		r.NoAnswer = fmt.Sprintf("no config of this grid runs on %s as it is: add one it runs to --policy (%s) to find the best that does.",
			r.System.Name, strings.Join(r.runnableNames(), ", "))
		return
	}
	runnable, all := r.representatives(true), r.representatives(false)
	cands := slices.Clone(all)
	for _, i := range runnable {
		if !slices.Contains(cands, i) {
			cands = append(cands, i)
		}
	}
	slices.Sort(cands)
	if len(cands)*len(eps) > maxCandidateCells {
		// A large grid: the choices are made among the front and the
		// choices on all the episodes (on the configs' own tallies: their
		// columns are their indices, now's the last).
		t, changed := make([]Tally, len(r.Configs)+1), make([]int, len(r.Configs)+1)
		for i := range r.Configs {
			t[i], changed[i] = r.Configs[i].Tally, Changed(r.Configs[i].Policy, r.Current.Policy)
		}
		t[len(r.Configs)], changed[len(r.Configs)] = r.Current.Tally, -1
		keep := slices.Clone(r.Front)
		for _, pool := range [][]int{runnable, all} {
			if c := r.choose(pool, t, changed, r.N); c < len(r.Configs) {
				keep = append(keep, c)
			}
		}
		slices.Sort(keep)
		cands = slices.Compact(keep)
	}
	f := r.figures(eps, cands, kept)
	if t := f.telling(); t < MinTelling {
		r.NoAnswer = fmt.Sprintf("only %d of the %s have outcomes that differ between the configs and now (on the others every "+
			"config stops at the same turn, or none stops): too few to tell the configs apart, so this describes the "+
			"episodes and recommends nothing.", t, episodes(r.N))
		return
	}
	var pools [2][]int // columns: the configs the system runs as it is, and all
	for c, i := range cands {
		pools[1] = append(pools[1], c)
		if slices.Contains(runnable, i) {
			pools[0] = append(pools[0], c)
		}
	}
	all1 := f.tallies(everyone(f.n))
	var picks [2]int
	for p := range pools {
		picks[p] = f.choose(r, pools[p], all1, f.n)
	}
	resampled := r.resample(f, pools[:])
	cvs, heldOut := r.crossValidate(eps, f, cands, pools[:], picks[:])
	tallyOf := func(i int) Tally { // a config's own tally, now's for -1
		if i < 0 {
			return r.Current.Tally
		}
		return r.Configs[i].Tally
	}
	choice := func(p int) Choice {
		col := picks[p]
		c := Choice{Config: f.config(cands, col), CV: cvs[p], Candidates: len(cands)}
		c.In = r.figuresOf(tallyOf(c.Config))
		c.Stability, c.Rivals = summarise(resampled[p], cands, col, f.now())
		return c
	}
	end := r.phase("comparing with the current setting", 0)
	defer end()
	a := &Answer{Choice: choice(0), Now: r.figuresOf(r.Current.Tally)}
	r.Answer = a
	if picks[0] == f.now() {
		a.Verdict, a.Why = Keep, fmt.Sprintf("no config %s runs as it is saves more %s than now without more false terminations "+
			"(the high bound of their rate) on these episodes", r.System.Name, r.rank())
		if !r.vetoWorse() {
			a.Why = fmt.Sprintf("no stop rule %s runs as it is saves more %s with its false terminations (the high bound of "+
				"their rate) shown within --ft-margin %s on these episodes; now stops no episode, so every stop rule adds "+
				"some: --ft-margin is how many more you accept", r.System.Name, r.rank(), ppMargin(r.FTMargin))
		}
	} else {
		named := r.Configs[a.Config].Policy
		a.Versus = r.versus(eps, func(int) policy.Policy { return named })
		if procedure := heldOut[0]; procedure != nil {
			a.HeldOut = a.Versus // every fold chose it: the same pairs
			if slices.ContainsFunc(procedure, func(c int) bool { return c != picks[0] }) {
				a.HeldOut = r.versus(eps, func(e int) policy.Policy { return f.policy(r, cands, procedure[e]) })
			}
			a.CV.HeldOutSavedCI = metricNamed(a.HeldOut, "turns_saved_pct").AfterCI
		}
		own, now := r.Configs[a.Config].Tally, r.Current.Tally
		a.Safer = r.saved(&own) <= r.saved(&now) && own.Unjudged() < now.Unjudged()
		r.decide(a)
		a.BreakEven = r.breakEven(a)
	}
	if a.Verdict == Ship {
		a.Block, _ = r.System.Block(r.Configs[a.Config].Policy)
	}
	if ac := a.config(r); !(r.withinFalse(ac.Tally, r.N) && r.withinCensored(ac.Tally, r.N)) {
		a.Limits = r.limits(runnable)
	}
	if best := picks[1]; best != f.now() && r.Configs[cands[best]].Class != classOf(r, a.Config) {
		o := &Overall{Choice: choice(1)}
		if _, err := r.System.Block(r.Configs[cands[best]].Policy); err != nil {
			o.Change = err.Error()
		}
		base, after := a.config(r).Policy, r.Configs[cands[best]].Policy
		o.Over = r.versus(eps, func(int) policy.Policy { return after }, base)
		r.BestOverall = o
	}
}

// classOf is config i's class (-1 for now's, as for now itself).
func classOf(r *Result, i int) int {
	if i < 0 {
		return -1
	}
	return r.Configs[i].Class
}

// decide sets the verdict of an answer whose rule chose a change, from its
// comparison with now held out (Answer.decisive; docs/commands.md, "sweep:
// which setting to ship"). A change that saves more ships only when it is
// not significantly worse on false terminations (where now is a stop rule:
// vetoWorse), the upper bound of the change of their rate is within the
// margin, what it saves is significantly more, and the choice is stable; a
// safer change (Answer.Safer) ships when its rate is significantly lower
// and the choice is stable, the ship stating what it costs and the
// break-even (shipWhy).
// Keep when the change is significantly worse, saves no more, or is shown
// beyond the margin (the lower bound of its change above it: no count of
// episodes would show it within); else no clear winner, with how many
// episodes would settle it.
func (r *Result) decide(a *Answer) {
	ft, sv := metricNamed(a.decisive(), "false_termination_rate"), metricNamed(a.decisive(), r.savedMetric())
	name := r.Configs[a.Config].Policy.String()
	who := whoDecides(a.HeldOut != nil, name)
	stableDraws := a.Stability >= MinStability-1e-9
	stableFolds := a.CV.Folds == 0 || float64(a.CV.Agree) >= MinFoldsAgreeing*float64(a.CV.Folds)-1e-9
	var short []string
	if !stableDraws {
		short = append(short, fmt.Sprintf("the rule chooses it again in only %s of the bootstrap resamples (a ship needs %s)",
			pct(a.Stability), pct(MinStability)))
	}
	if !stableFolds {
		short = append(short, fmt.Sprintf("only %d of the %d folds choose it (a ship needs %s of them)", a.CV.Agree, a.CV.Folds,
			pct(MinFoldsAgreeing)))
	}
	if a.Safer {
		r.decideSafer(a, ft, who, short)
		return
	}
	st := Stand(ft, r.Current.Policy, r.FTMargin)
	a.Shown = st == ShownWithin && sv.CI != nil && sv.CI[0] > 0
	switch {
	case st == SignificantlyWorse:
		a.Verdict, a.Why = Keep, fmt.Sprintf("%s has significantly more false terminations than now", who.change)
		return
	case sv.CI == nil || sv.Change <= 0:
		a.Verdict, a.Why = Keep, fmt.Sprintf("%s saves no more %s than now", who.change, r.rank())
		return
	case st == BeyondMargin:
		a.Verdict, a.Why = Keep, fmt.Sprintf("%s has %s more false terminations than now, the lower "+
			"bound of its interval %s above --ft-margin %s: no count of episodes would show it within the margin",
			who.change, pp(ft.Change/100), pp(ft.CI[0]/100), ppMargin(r.FTMargin))
		return
	case a.Shown && len(short) == 0:
		a.Verdict = Ship
		return
	}
	a.Verdict = NoClearWinner
	if st == NotShown {
		short = append([]string{fmt.Sprintf("%s may rise by %s, above --ft-margin %s (the upper "+
			"bound of its change)", who.rate, pp(ft.CI[1]/100), ppMargin(r.FTMargin))}, short...)
	}
	var saved [2]int
	if sv.CI[0] <= 0 {
		short = append(short, fmt.Sprintf("the %s it saves over now are within chance", r.rank()))
		// At the interval's upper bound, the favourable end, and as observed.
		saved[0], _ = stats.PairedMeanN(r.N, sv.CI[0], sv.CI[1], sv.CI[1])
		saved[1], _ = stats.PairedMeanN(r.N, sv.CI[0], sv.CI[1], sv.Change)
	}
	a.Why = strings.Join(short, "; ")
	a.Settle = r.settle(a, r.FTMargin, saved)
}

// decider is how the answer's reasons name what their figures measured
// (docs/commands.md, "sweep: which setting to ship"): held out, the rule's
// choice on new episodes, a mixture of the configs the folds chose, never
// one config's name; in sample, the named config.
type decider struct{ change, safer, rate string }

// byTheRule names the held-out figures: the rule's, on new episodes.
const byTheRule = "held out, choosing by this rule on new episodes"

// The answer's first sentence names the config that leads; held out, the
// figures are the rule's, so a reason does not name it again.
func whoDecides(heldOut bool, name string) decider {
	if heldOut {
		return decider{change: byTheRule, safer: byTheRule, rate: byTheRule + ", the false-termination rate"}
	}
	return decider{
		change: name + ", the change that leads, on the episodes that chose it,",
		safer:  name + ", the safer change that leads, on the episodes that chose it,",
		rate:   "on the episodes that chose it, " + name + "'s false-termination rate",
	}
}

// decideSafer sets the verdict of a safer change (Answer.Safer) from ft, its
// comparison with now of false terminations: ship when significantly fewer
// and stable (short empty), keep when no fewer, else no clear winner.
func (r *Result) decideSafer(a *Answer, ft *metrics.Metric, who decider, short []string) {
	a.Shown = ft.CI[1] < 0
	switch {
	case ft.Change >= 0:
		a.Verdict, a.Why = Keep, fmt.Sprintf("%s has no fewer false terminations than now", who.safer)
		return
	case a.Shown && len(short) == 0:
		a.Verdict = Ship
		return
	case !a.Shown:
		short = append([]string{fmt.Sprintf("%s has fewer false terminations than now only "+
			"within chance (the upper bound of the change, %s, is above 0)", who.safer, pp(ft.CI[1]/100))}, short...)
	}
	a.Verdict, a.Why = NoClearWinner, strings.Join(short, "; ")
	a.Settle = r.settle(a, 0, [2]int{})
}

// settle is how many episodes in all would settle the comparison the
// verdict was taken on (Answer.decisive) against margin (0: shown fewer
// false terminations), from its discordant episodes, and at least saved
// (what would show its saving: at its interval's upper bound, as observed);
// nil when no count would.
func (r *Result) settle(a *Answer, margin float64, saved [2]int) *Settle {
	ft := metricNamed(a.decisive(), "false_termination_rate")
	b, c := ft.Discordant[0], ft.Discordant[1]
	low, high, never := stats.PairedSettle(b, c, r.N, margin)
	if never {
		return nil
	}
	s := &Settle{Low: max(low, saved[0]), High: high, Saved: saved[0], HeldOut: a.HeldOut != nil, Worse: b, Better: c}
	if high > 0 {
		s.High = max(high, saved[1], s.Low)
	}
	return s
}

// savedMetric is the metric of what the configs are ranked by.
func (r *Result) savedMetric() string {
	if r.ByTokens {
		return "tokens_saved"
	}
	return "turns_saved"
}

// metricNamed is the metric of ms called name.
func metricNamed(ms []metrics.Metric, name string) *metrics.Metric {
	for i := range ms {
		if ms[i].Name == name {
			return &ms[i]
		}
	}
	panic("sweep: no metric " + name)
}

// runnableNames are the policies of the registry the system runs as it is,
// at ZorkGPT's default settings.
func (r *Result) runnableNames() []string {
	var out []string
	for _, n := range policy.Names() {
		if r.System.Runs(policy.Policy{Name: n}) {
			out = append(out, string(n))
		}
	}
	return out
}

// limits says which target binds among the configs idx and now.
func (r *Result) limits(idx []int) *Limits {
	l := &Limits{MeetsBoth: -1, LowestFalse: -1, LeastCensored: -1}
	for _, i := range idx {
		t := r.Configs[i].Tally
		if r.withinFalse(t, r.N) && r.withinCensored(t, r.N) && (l.MeetsBoth < 0 || r.saved(&t) > r.saved(&r.Configs[l.MeetsBoth].Tally)) {
			l.MeetsBoth = i
		}
		if r.withinCensored(t, r.N) && (l.LowestFalse < 0 || t.Unjudged() < r.Configs[l.LowestFalse].Unjudged()) {
			l.LowestFalse = i
		}
		if r.withinFalse(t, r.N) && (l.LeastCensored < 0 || t.Censored < r.Configs[l.LeastCensored].Censored) {
			l.LeastCensored = i
		}
	}
	return l
}

func (r *Result) withinFalse(t Tally, n int) bool {
	return float64(t.Unjudged()) <= r.MaxFalseRate*float64(n)+1e-9
}

func (r *Result) withinCensored(t Tally, n int) bool {
	return float64(t.Censored) <= r.MaxCensored*float64(n)+1e-9
}

// choose is the rule, applied alike to the whole dataset, to bootstrap
// resamples and to training folds, over the columns pool and now, on their
// tallies t (now's the last) over n episodes (docs/commands.md, "sweep:
// which setting to ship"): the config that saves the most of those that
// save more than now and are shown non-inferior to it on these episodes
// (screen); when none is, the config that saves the most of those that save
// no more, yet stop some episode, and are shown to have fewer outcomes the
// logs cannot show fine than now (the high bound of the false-termination
// rate: the other direction, safer; a config that stops none is no loop
// break to ship); when none is, the config that saves the most of those
// with no more such outcomes than now, the change that leads; else now.
// Every config chosen has its censored outcomes within MaxCensored. Ties go
// to fewer unjudged outcomes, less score forgone, fewer premature stops,
// then the config nearest to now (changed: settings changed, -1 for now
// itself), then grid order (columns are in it). It returns a column:
// len(t)-1 for now.
func (r *Result) choose(pool []int, t []Tally, changed []int, n int) int {
	now := len(t) - 1
	tab, safer := r.shown.table(n), r.safer.table(n)
	// tier: 2 a change shown non-inferior that saves more; 1 a safer change
	// shown to have fewer unjudged outcomes, saving no more; 0 the change
	// that leads, or now.
	best, tier := now, 0
	for _, c := range pool {
		x := &t[c]
		if !r.withinCensored(*x, n) {
			continue
		}
		switch saves := r.saved(x) > r.saved(&t[now]); {
		case saves && shownWithin(x, tab):
			if tier < 2 || r.better(t, changed, c, best) > 0 {
				best, tier = c, 2
			}
		case tier == 2:
		case !saves && r.saved(x) > 0 && shownWithin(x, safer):
			if tier < 1 || r.better(t, changed, c, best) > 0 {
				best, tier = c, 1
			}
		case tier == 0 && x.Unjudged() <= t[now].Unjudged() && r.better(t, changed, c, best) > 0:
			best = c
		}
	}
	return best
}

// better compares columns a and b by the rule's order on tallies t: > 0 when
// a is better.
func (r *Result) better(t []Tally, changed []int, a, b int) int {
	x, y := &t[a], &t[b]
	return cmp.Or(cmp.Compare(r.saved(x), r.saved(y)), cmp.Compare(y.Unjudged(), x.Unjudged()),
		cmp.Compare(y.ScoreForgone, x.ScoreForgone), cmp.Compare(y.FalseTerminations, x.FalseTerminations),
		cmp.Compare(changed[b], changed[a]), cmp.Compare(b, a))
}

// choose is the rule on the columns of f.
func (f *figures) choose(r *Result, pool []int, t []Tally, n int) int {
	return r.choose(pool, t, f.changed, n)
}

// config is the config of column c of cands: -1 for now.
func (f *figures) config(cands []int, c int) int {
	if c == f.now() {
		return -1
	}
	return cands[c]
}

// policy is the policy of column c.
func (f *figures) policy(r *Result, cands []int, c int) policy.Policy {
	if c == f.now() {
		return r.Current.Policy
	}
	return r.Configs[cands[c]].Policy
}

// figures are the candidates' and the current setting's cells over every
// episode, the current setting's column the last: taken from kept, every
// config's cells (Result.answer), or replayed again (the fast path) when
// kept is nil.
func (r *Result) figures(eps []*episode.Episode, cands []int, kept *figures) *figures {
	ps := make([]policy.Policy, 0, len(cands)+1)
	for _, i := range cands {
		ps = append(ps, r.Configs[i].Policy)
	}
	ps = append(ps, r.Current.Policy)
	f := r.newFigures(eps, 0)
	f.changed = make([]int, len(ps))
	for c := range ps {
		f.changed[c] = Changed(ps[c], r.Current.Policy)
	}
	f.changed[len(ps)-1] = -1
	if kept != nil {
		for c := range ps {
			i := kept.now()
			if c < len(cands) {
				i = cands[c]
			}
			f.cells = append(f.cells, kept.cells[i])
			if kept.tokens != nil {
				f.tokens = append(f.tokens, kept.tokens[i])
			}
		}
		return f
	}
	f.grow(len(ps))
	out := make([]replay.Outcome, len(ps))
	for e, ep := range eps {
		replay.NewSweeper(ep).Outcomes(ps, out)
		for c := range out {
			out[c].GainHorizon = r.GainHorizon
			f.set(c, e, &out[c], r.nowUnjudged[e])
		}
	}
	return f
}

// newFigures are figures over eps with cols columns of cells (and of
// tokens, when ranked by tokens).
func (r *Result) newFigures(eps []*episode.Episode, cols int) *figures {
	f := &figures{n: len(eps), turns: make([]int, len(eps)), byTokens: r.ByTokens}
	for e, ep := range eps {
		f.turns[e] = ep.N()
	}
	f.grow(cols)
	return f
}

// grow adds cols columns.
func (f *figures) grow(cols int) {
	for range cols {
		f.cells = append(f.cells, make([]cell, f.n))
		if f.byTokens {
			f.tokens = append(f.tokens, make([]int64, f.n))
		}
	}
}

// set sets column c's cell on episode e to outcome o's, whose episode's
// outcome under now is unjudged or not.
func (f *figures) set(c, e int, o *replay.Outcome, nowUnjudged bool) {
	u := o.Unjudged()
	cls := b2i(o.FalseTerminationCandidate())*premature | b2i(o.Unknown())*unknown | b2i(o.Censored)*censored |
		b2i(u && !nowUnjudged)*worse | b2i(!u && nowUnjudged)*better
	f.cells[c][e] = cell{saved: int32(o.TurnsSaved), forgo: o.ScoreForgone, class: uint8(cls)}
	if f.tokens != nil {
		f.tokens[c][e] = o.TokensSaved
	}
}

// telling counts the episodes on which the columns' outcomes (now's
// included) are not all the same.
func (f *figures) telling() int {
	n := 0
	for e := range f.n {
		for c := 1; c < len(f.cells); c++ {
			if a, b := f.cells[c][e], f.cells[0][e]; a.class&unjudged != b.class&unjudged || a.saved != b.saved {
				n++
				break
			}
		}
	}
	return n
}

// tally sums column c's figures over the episodes weighted by w (a count a
// resampled episode, 1 or 0 for a subset). Score forgone is summed in floats
// in the episodes' order, then rounded once to episode.ScoreResolution: exact
// for whole scores, and the same whatever the cores (an Add a cell costs a
// tenth of the sweep).
func (f *figures) tally(c int, w *weights) Tally {
	var ft, unk, saved, cens, wo, be int
	var forgo float64
	cells, ks := f.cells[c], w.k[:len(w.e)]
	for i, e := range w.e {
		k, x := int(ks[i]), &cells[e]
		ft += k * int(x.class&premature)
		unk += k * int(x.class&unknown>>1)
		cens += k * int(x.class&censored>>2)
		wo += k * int(x.class&worse>>3)
		be += k * int(x.class&better>>4)
		saved += k * int(x.saved)
		forgo += float64(k) * float64(x.forgo)
	}
	t := Tally{FalseTerminations: ft, Unknown: unk, TurnsSaved: saved, ScoreForgone: episode.Score(0).Add(episode.Score(forgo)),
		Censored: cens, Worse: wo, Better: be}
	if f.tokens != nil {
		for i, e := range w.e {
			t.TokensSaved += int64(w.k[i]) * f.tokens[c][e]
		}
	}
	return t
}

// tallies are every column's tally over w.
func (f *figures) tallies(w *weights) []Tally {
	t := make([]Tally, len(f.cells))
	for c := range t {
		t[c] = f.tally(c, w)
	}
	return t
}

// resample draws a bootstrap resample as a count per episode.
func resample(rng *rand.Rand, w []int32) {
	clear(w)
	for range w {
		w[rng.IntN(len(w))]++
	}
}

// figuresOf are the in-sample figures of a config with tally t.
func (r *Result) figuresOf(t Tally) Figures {
	g := Figures{Tally: t, FalseRate: share(t.Unjudged(), r.N), FalseRateLow: share(t.FalseTerminations, r.N),
		SavedShare: share(t.TurnsSaved, r.TotalTurns)}
	g.FalseRateCI[0], g.FalseRateCI[1] = stats.Wilson(t.Unjudged(), r.N)
	return g
}

// resample chooses again, by the rule over each pool of candidates (columns
// of f), on StabilityResamples bootstrap resamples: picks[pool][resample] is
// the column chosen (f.now() for now).
func (r *Result) resample(f *figures, pools [][]int) [][]int {
	picks := make([][]int, len(pools))
	for p := range picks {
		picks[p] = make([]int, StabilityResamples)
	}
	step, end := r.steps("choosing again on bootstrap resamples", StabilityResamples)
	defer end()
	jobs := r.jobs()
	// The resamples are drawn in order from one seed, then chosen on in
	// parallel, two at a time (talliesInto): the same choices whatever the
	// workers. A few are held at a time, not all of them (4 bytes an
	// episode each).
	type draw struct {
		b int
		w [2][]int32 // resamples b and b+1; b's twice for the last of an odd count
	}
	draws, free := make(chan draw, jobs), make(chan []int32, 4*jobs)
	for range 4 * jobs {
		free <- make([]int32, f.n)
	}
	go func() {
		rng := rand.New(rand.NewPCG(metrics.BootstrapSeed+1, uint64(f.n)))
		for b := 0; b < StabilityResamples; b += 2 {
			var d draw
			d.b, d.w[0] = b, <-free
			resample(rng, d.w[0])
			d.w[1] = d.w[0]
			if b+1 < StabilityResamples {
				d.w[1] = <-free
				resample(rng, d.w[1])
			}
			draws <- d
		}
		close(draws)
	}()
	ch := f.chain()
	var wg sync.WaitGroup
	for range jobs {
		wg.Go(func() {
			tallies := [2][]Tally{make([]Tally, len(f.cells)), make([]Tally, len(f.cells))}
			ws := [2]*weights{{}, {}}
			for d := range draws {
				ws[0].of(d.w[0])
				ws[1].of(d.w[1])
				f.talliesInto(&tallies, ch, &d.w, &ws)
				for k := range min(2, StabilityResamples-d.b) {
					for p, pool := range pools {
						picks[p][d.b+k] = f.choose(r, pool, tallies[k], f.n)
					}
					free <- d.w[k]
					step()
				}
			}
		})
	}
	wg.Wait()
	return picks
}

// summarise is how often picks (columns) chose column col, and the three
// others chosen most (config -1: now).
func summarise(picks, cands []int, col, now int) (float64, []Rival) {
	chosen := map[int]int{}
	for _, c := range picks {
		chosen[c]++
	}
	var rivals []Rival
	for c, times := range chosen {
		if c != col {
			i := -1
			if c != now {
				i = cands[c]
			}
			rivals = append(rivals, Rival{Config: i, Share: float64(times) / StabilityResamples})
		}
	}
	slices.SortFunc(rivals, func(a, b Rival) int { return cmp.Or(cmp.Compare(b.Share, a.Share), cmp.Compare(a.Config, b.Config)) })
	return float64(chosen[col]) / StabilityResamples, rivals[:min(3, len(rivals))]
}

// Folds deals the episodes into k folds by their identity alone: sorted by
// a hash of it (then the id, the segment, the source, for equal hashes),
// dealt round-robin, so that every fold holds n/k episodes or one more, none
// is empty (k ≤ n), and the same episodes fall the same way wherever their
// files lie and wherever the user points (docs/commands.md, "sweep: which
// setting to ship").
// An episode's identity is its id where the log records one; else, as the
// id is then made from the path below the directory given, its content
// (episode.Episode.Identity). fold[i] is episode i's.
func Folds(eps []*episode.Episode, k int) []int {
	type key struct {
		h   uint64
		ep  *episode.Episode
		pos int
	}
	keys := make([]key, len(eps))
	for i, ep := range eps {
		keys[i] = key{ep.Identity(), ep, i}
	}
	slices.SortStableFunc(keys, func(a, b key) int {
		return cmp.Or(cmp.Compare(a.h, b.h), cmp.Compare(a.ep.ID, b.ep.ID), cmp.Compare(a.ep.Segment, b.ep.Segment),
			cmp.Compare(a.ep.Source, b.ep.Source))
	})
	fold := make([]int, len(eps))
	for j, kk := range keys {
		fold[kk.pos] = j % k
	}
	return fold
}

// crossValidate chooses by the rule over each pool on k−1 folds and measures
// the choice on the fold held out; picks[p] is the column pool p chose on
// all the data. heldOut[p][e] is the column chosen on the folds without
// episode e (nil without cross-validation).
func (r *Result) crossValidate(eps []*episode.Episode, f *figures, cands []int, pools [][]int, picks []int) ([]CV, [][]int) {
	cvs := make([]CV, len(pools))
	if r.Folds < 2 || f.n < r.Folds {
		return cvs, make([][]int, len(pools))
	}
	end := r.phase("cross-validating", 0)
	defer end()
	fold := Folds(eps, r.Folds)
	heldOut := make([][]int, len(pools))
	for p := range heldOut {
		heldOut[p] = make([]int, f.n)
	}
	train := make([]int32, f.n)
	ws := &weights{}
	for p := range cvs {
		cvs[p].Chosen, cvs[p].Sizes = make([]int, r.Folds), make([]int, r.Folds)
	}
	for k := range r.Folds {
		nTrain := 0
		for e := range fold {
			train[e] = int32(b2i(fold[e] != k))
			nTrain += int(train[e])
		}
		tallies := f.tallies(ws.of(train))
		for p, pool := range pools {
			c := f.choose(r, pool, tallies, nTrain)
			if c == picks[p] {
				cvs[p].Agree++
			}
			cvs[p].Chosen[k], cvs[p].Sizes[k] = f.config(cands, c), f.n-nTrain
			for e := range fold {
				if fold[e] == k {
					heldOut[p][e] = c
				}
			}
		}
	}
	turns := 0
	for e := range f.n {
		turns += f.turns[e]
	}
	for p := range cvs {
		var unjudged, pre, saved int
		var tokens int64
		for e, c := range heldOut[p] {
			x := f.cells[c][e]
			unjudged += x.unjudged()
			pre += int(x.class & premature)
			saved += int(x.saved)
			if f.tokens != nil {
				tokens += f.tokens[c][e]
			}
		}
		cv := &cvs[p]
		cv.Folds = r.Folds
		cv.HeldOutFalseRate, cv.HeldOutFalseRateLow = share(unjudged, f.n), share(pre, f.n)
		cv.HeldOutFalseCI[0], cv.HeldOutFalseCI[1] = stats.Wilson(unjudged, f.n)
		cv.HeldOutSavedShare = share(saved, turns)
		cv.HeldOutTokensSaved = tokens
	}
	return cvs, heldOut
}

// versus compares a base policy (now, unless given) with after(e) on every
// episode e, as batch compares two: every metric, with its interval.
func (r *Result) versus(eps []*episode.Episode, after func(e int) policy.Policy, base ...policy.Policy) []metrics.Metric {
	b0 := r.Current.Policy
	if len(base) > 0 {
		b0 = base[0]
	}
	pairs := make(metrics.Pairs, len(eps))
	r.eachEpisode(len(eps), func(e int) {
		b, a := replay.Run(eps[e], b0), replay.Run(eps[e], after(e))
		b.GainHorizon, a.GainHorizon = r.GainHorizon, r.GainHorizon
		pairs[e] = metrics.PairOf(eps[e], b, a)
	})
	return metrics.Compare(pairs, r.Costs, r.System.Shows.Applies)
}

// rankOrder is the rule's order on two configs' tallies for the front's
// ranking, with now's tally now over n episodes: first those the rule
// would choose first (shown non-inferior to now, saving more, censored
// within the limit), by what they save; then those within its reach
// otherwise (no more unjudged outcomes than now, censored within the limit),
// by what they save; then the rest, censored within the limit first, by
// fewer unjudged outcomes, then what they save. > 0 when a is better.
func (r *Result) rankOrder(a, b, now Tally, n int) int {
	tab := r.shown.table(n)
	tier := func(t Tally) int {
		switch {
		case !r.withinCensored(t, n):
			return 0
		case shownWithin(&t, tab) && r.saved(&t) > r.saved(&now):
			return 3
		case t.Unjudged() <= now.Unjudged():
			return 2
		}
		return 1
	}
	ta, tb := tier(a), tier(b)
	switch {
	case ta != tb:
		return cmp.Compare(ta, tb)
	case ta >= 2:
		return cmp.Or(cmp.Compare(r.saved(&a), r.saved(&b)), cmp.Compare(b.Unjudged(), a.Unjudged()),
			cmp.Compare(b.ScoreForgone, a.ScoreForgone))
	}
	return cmp.Or(cmp.Compare(b.Unjudged(), a.Unjudged()), cmp.Compare(r.saved(&a), r.saved(&b)),
		cmp.Compare(b.ScoreForgone, a.ScoreForgone))
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
