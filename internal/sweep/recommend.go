package sweep

import (
	"cmp"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"slices"
	"strconv"
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
)

// Below these the sweep describes the episodes and answers nothing.
const (
	// MinEpisodes: with fewer episodes the intervals are wide and the folds of
	// the cross-validation hold a handful each, too few to trust a choice
	// among hundreds of configs.
	MinEpisodes = 20
	// MinTelling: the configs must have different outcomes on at least this
	// many episodes; on the others every config stops at the same turn, or
	// none stops, and they say nothing about which to choose.
	MinTelling = 10
)

// Figures are a config's figures over the n episodes, in sample, with 95%
// paired-bootstrap intervals of the false-termination rate and the share of
// turns saved (over the same resamples as batch's intervals).
type Figures struct {
	Tally
	FalseRate, SavedShare     float64
	FalseRateCI, SavedShareCI [2]float64
}

// Choice is the config a rule chose, and what is known of its error.
type Choice struct {
	Config int // index into Result.Configs
	// MeetsTarget is false when no config of the rule's pool meets both
	// targets: Config is then the nearest, the lowest false-termination rate.
	MeetsTarget bool
	In          Figures
	// Stability is the share of StabilityResamples bootstrap resamples in
	// which the rule chooses Config again; Rivals the others chosen most.
	Stability float64
	Rivals    []Rival
	// Candidates is how many configs the resampled and cross-validated
	// choices were made among (every config, or the front for a large grid).
	Candidates int
	CV         CV
}

// Answer is what to ship: the best config the system runs as it is (the
// Choice), or the current setting when that config is the current one, or
// does no better by the rule, or cannot be told apart from it.
type Answer struct {
	Choice
	KeepCurrent bool
	Why         string // why the current setting is kept
	// Now are the current setting's figures.
	Now Figures
	// Block is the text to paste (system.System.Block); empty when KeepCurrent.
	Block string
	// Versus compares the current setting (baseline) with the choice (after)
	// on every metric of batch, with paired bootstrap intervals.
	Versus []metrics.Metric
	// Limits, when no config the system runs meets both targets, say which
	// target keeps them out.
	Limits *Limits
}

// Config is the config the answer tells to run: the choice, or the current
// setting when it is kept.
func (a *Answer) config(r *Result) *Config {
	if a.KeepCurrent {
		return r.Current
	}
	return &r.Configs[a.Config]
}

// Overall is the best config of the whole grid when the system cannot run it
// as it is: the change it would need, and what it would add.
type Overall struct {
	Choice
	Change string // why the system cannot run it, and the smallest change that would
	// Over compares the answer's config (baseline) with this one (after).
	Over []metrics.Metric
}

// Limits say which target keeps out every config a pool has: those within
// the censoring limit all exceed the false-termination target, the lowest
// being LowestFalse; and LeastCensored, when some meet that target, is the
// least censored of them, beyond the limit all the same. -1: none.
type Limits struct{ LowestFalse, LeastCensored int }

// Rival is another config chosen in some resamples.
type Rival struct {
	Config int     `json:"config"`
	Share  float64 `json:"share"`
}

// CV is the k-fold cross-validation of a rule's choice: chosen on k−1 folds,
// measured on the fold held out, summed over the folds.
type CV struct {
	Folds             int
	HeldOutFalseRate  float64    // false-termination candidates on held-out episodes ÷ n
	HeldOutFalseCI    [2]float64 // Wilson 95% interval of that share
	HeldOutSavedShare float64    // turns saved on held-out episodes ÷ their logged turns
	// HeldOutTokensSaved is the tokens saved on held-out episodes, summed
	// over the folds (when they rank the configs).
	HeldOutTokensSaved int64
	// Agree is how many folds chose the config chosen on all the data;
	// Undecided, how many found no config within the censoring limit (held
	// out with no loop break at all).
	Agree, Undecided int
}

// figures are the per-episode figures of the candidates (and, last, the
// current setting): what a choice needs, for any subset or resample of the
// episodes.
type figures struct {
	n      int
	turns  []int     // logged turns of episode i
	cells  [][]cell  // [candidate][episode]
	tokens [][]int64 // when ranked by tokens
	lv     map[int][2][2]float64
}

// cell is one config's outcome on one episode, as the tallies read it: one
// read of memory a cell, for the millions a resampling sums.
type cell struct {
	forgo      episode.Score
	saved      int32
	ft, censor int8
}

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

// answer chooses what to ship and measures the choice, or says why the data
// cannot support a choice.
func (r *Result) answer(eps []*episode.Episode) {
	if r.N < MinEpisodes {
		r.NoAnswer = fmt.Sprintf("%s, too few to choose a setting (an answer needs at least %d episodes, for its intervals and "+
			"cross-validation to mean something): what follows describes the data, not what to ship.", episodes(r.N), MinEpisodes)
		return
	}
	var all, runnable []int
	for i := range r.Configs {
		all = append(all, i)
		if r.Runnable[i] {
			runnable = append(runnable, i)
		}
	}
	whole := func(i int) Tally { return r.Configs[i].Tally }
	pick, met := r.choose(runnable, whole, r.N)
	best, bestMet := r.choose(all, whole, r.N)
	cands := all
	if len(all)*len(eps) > maxCandidateCells {
		cands = slices.Clone(r.Front)
		for _, i := range []int{pick, best} {
			if i >= 0 && !slices.Contains(cands, i) {
				cands = append(cands, i)
			}
		}
		slices.Sort(cands)
	}
	f := r.figures(eps, cands)
	if t := f.telling(len(cands)); t < MinTelling {
		r.NoAnswer = fmt.Sprintf("only %d of the %s have outcomes that differ between the configs (on the others every config "+
			"stops at the same turn, or none stops): too few stops to tell the configs apart, so this describes the "+
			"episodes and recommends nothing.", t, episodes(r.N))
		return
	}
	if best < 0 {
		r.NoAnswer = fmt.Sprintf("every config has censored outcomes in more than %s of the episodes (their lengths are "+
			"lower bounds), so none is recommended.", pct(r.MaxCensored))
		return
	}
	// Each rule chosen again on resamples and on folds: the answer's (the
	// configs the system runs) and the whole grid's.
	var local, localRunnable []int
	for c, i := range cands {
		local = append(local, c)
		if r.Runnable[i] {
			localRunnable = append(localRunnable, c)
		}
	}
	pools, picks := [][]int{localRunnable, local}, []int{pick, best}
	cols := []int{len(cands)} // now's, the answer's and the best overall's, on the same resamples
	for _, i := range picks {
		if c := slices.Index(cands, i); c >= 0 && !slices.Contains(cols, c) {
			cols = append(cols, c)
		}
	}
	f.levels(cols...)
	resampled := r.resample(f, pools)
	cvs := r.crossValidate(eps, f, cands, pools, picks)
	choice := func(k, i int, met bool) Choice {
		c := Choice{Config: i, MeetsTarget: met, In: r.figuresOf(r.Configs[i].Tally, f, slices.Index(cands, i)), CV: cvs[k],
			Candidates: len(cands)}
		c.Stability, c.Rivals = summarise(resampled[k], cands, i)
		return c
	}
	end := r.phase("comparing with the current setting", 0)
	defer end()
	base := r.Current.Policy // what the best overall is compared with: what the answer runs
	switch {
	case len(runnable) == 0:
		r.NoAnswer = fmt.Sprintf("no config of this grid runs on %s as it is: add one it runs to --policy (%s) to find the best that does.",
			r.System.Name, strings.Join(r.runnableNames(), ", "))
	case pick < 0:
		r.NoAnswer = fmt.Sprintf("every config %s runs as it is has censored outcomes in more than %s of the episodes "+
			"(their lengths are lower bounds), so none is recommended.", r.System.Name, pct(r.MaxCensored))
	default:
		a := &Answer{Choice: choice(0, pick, met), Now: r.figuresOf(r.Current.Tally, f, len(cands))}
		a.Versus = r.versus(eps, r.Current.Policy, r.Configs[pick].Policy)
		a.KeepCurrent, a.Why = r.keep(a)
		if !a.KeepCurrent {
			a.Block, _ = r.System.Block(r.Configs[pick].Policy)
		}
		if !met {
			a.Limits = r.limits(runnable)
		}
		r.Answer = a
		base = a.config(r).Policy
	}
	if best != pick {
		o := &Overall{Choice: choice(1, best, bestMet)}
		if _, err := r.System.Block(r.Configs[best].Policy); err != nil {
			o.Change = err.Error()
		}
		o.Over = r.versus(eps, base, r.Configs[best].Policy)
		r.BestOverall = o
	}
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

// keep says whether to keep the current setting rather than ship the
// answer's choice, and why: the choice is the current setting; or the
// current setting does at least as well by the same rule; or no figure of
// the choice is better than now's by more than chance.
func (r *Result) keep(a *Answer) (bool, string) {
	c := &r.Configs[a.Config]
	if c.Policy == r.Current.Policy {
		return true, fmt.Sprintf("it is the best config %s runs as it is", r.System.Name)
	}
	pair := func(i int) Tally { return []Tally{r.Current.Tally, c.Tally}[i] }
	if k, _ := r.choose([]int{0, 1}, pair, r.N); k == 0 {
		return true, fmt.Sprintf("it does at least as well, by the same rule, as %s, the best config of the grid %s runs as it is",
			c.Policy, r.System.Name)
	}
	for i := range a.Versus {
		if m := &a.Versus[i]; m.Headline && m.Significant() && (m.Change > 0) == (m.Better > 0) {
			return false, ""
		}
	}
	return true, fmt.Sprintf("the best config %s runs as it is, %s, is not distinguishable from it: none of its changes from now "+
		"has a 95%% paired interval clear of 0 in its favour", r.System.Name, c.Policy)
}

// limits says which target binds among the configs idx, none of which meets both.
func (r *Result) limits(idx []int) *Limits {
	l := &Limits{LowestFalse: -1, LeastCensored: -1}
	l.LowestFalse, _ = r.choose(idx, func(i int) Tally { return r.Configs[i].Tally }, r.N)
	for _, i := range idx {
		t := r.Configs[i].Tally
		if r.withinFalse(t, r.N) && (l.LeastCensored < 0 || t.Censored < r.Configs[l.LeastCensored].Censored) {
			l.LeastCensored = i
		}
	}
	return l
}

func (r *Result) withinFalse(t Tally, n int) bool {
	return float64(t.FalseTerminations) <= r.MaxFalseRate*float64(n)+1e-9
}

func (r *Result) withinCensored(t Tally, n int) bool {
	return float64(t.Censored) <= r.MaxCensored*float64(n)+1e-9
}

// better is the rule of the answer, comparing two configs' tallies over n
// episodes: > 0 when a is better. Within the false-termination target, the
// more saved the better (turns, or tokens with ByTokens); a config within it
// is better than one beyond it; beyond it, the lower rate, then the more
// saved. Remaining ties go to fewer false terminations, then less score
// forgone.
func (r *Result) better(a, b Tally, n int) int {
	wa, wb := r.withinFalse(a, n), r.withinFalse(b, n)
	switch {
	case wa != wb:
		if wa {
			return 1
		}
		return -1
	case wa:
		return cmp.Or(cmp.Compare(r.saved(&a), r.saved(&b)), cmp.Compare(b.FalseTerminations, a.FalseTerminations),
			cmp.Compare(b.ScoreForgone, a.ScoreForgone))
	}
	return cmp.Or(cmp.Compare(b.FalseTerminations, a.FalseTerminations), cmp.Compare(r.saved(&a), r.saved(&b)),
		cmp.Compare(b.ScoreForgone, a.ScoreForgone))
}

// choose applies the rule alike to the whole dataset, to bootstrap resamples
// and to training folds: among the configs idx whose censored outcomes are
// within MaxCensored, the best by better, the first in idx on a tie. met says
// whether it is within the false-termination target; -1 when no config is
// within MaxCensored.
func (r *Result) choose(idx []int, tally func(i int) Tally, n int) (best int, met bool) {
	best = -1
	var bt Tally
	for _, i := range idx {
		t := tally(i)
		if !r.withinCensored(t, n) {
			continue
		}
		if best < 0 || r.better(t, bt, n) > 0 {
			best, bt = i, t
		}
	}
	return best, best >= 0 && r.withinFalse(bt, n)
}

// figures replays the candidates and the current setting over every episode
// (the fast path again); the current setting's column is the last.
func (r *Result) figures(eps []*episode.Episode, cands []int) *figures {
	ps := make([]policy.Policy, 0, len(cands)+1)
	for _, i := range cands {
		ps = append(ps, r.Configs[i].Policy)
	}
	ps = append(ps, r.Current.Policy)
	f := &figures{n: len(eps), turns: make([]int, len(eps)), cells: make([][]cell, len(ps))}
	for c := range ps {
		f.cells[c] = make([]cell, len(eps))
	}
	if r.ByTokens {
		f.tokens = make([][]int64, len(ps))
		for c := range ps {
			f.tokens[c] = make([]int64, len(eps))
		}
	}
	out := make([]replay.Outcome, len(ps))
	for e, ep := range eps {
		f.turns[e] = ep.N()
		replay.NewSweeper(ep).Outcomes(ps, out)
		for c := range out {
			o := &out[c]
			f.cells[c][e] = cell{saved: int32(o.TurnsSaved), forgo: o.ScoreForgone,
				ft: int8(b2i(o.FalseTerminationCandidate())), censor: int8(b2i(o.Censored))}
			if f.tokens != nil {
				f.tokens[c][e] = o.TokensSaved
			}
		}
	}
	return f
}

// telling counts the episodes on which the first k columns' outcomes are not
// all the same.
func (f *figures) telling(k int) int {
	n := 0
	for e := range f.n {
		for c := 1; c < k; c++ {
			if a, b := f.cells[c][e], f.cells[0][e]; a.ft != b.ft || a.saved != b.saved || a.censor != b.censor {
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
	var ft, saved, censor int
	var forgo float64
	cells, ks := f.cells[c], w.k[:len(w.e)]
	for i, e := range w.e {
		k, x := int(ks[i]), &cells[e]
		ft += k * int(x.ft)
		saved += k * int(x.saved)
		forgo += float64(k) * float64(x.forgo)
		censor += k * int(x.censor)
	}
	t := Tally{FalseTerminations: ft, TurnsSaved: saved, ScoreForgone: episode.Score(0).Add(episode.Score(forgo)), Censored: censor}
	if f.tokens != nil {
		for i, e := range w.e {
			t.TokensSaved += int64(w.k[i]) * f.tokens[c][e]
		}
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

// figuresOf are the figures of a config with tally t, column c of f.
func (r *Result) figuresOf(t Tally, f *figures, c int) Figures {
	g := Figures{Tally: t, FalseRate: share(t.FalseTerminations, r.N), SavedShare: share(t.TurnsSaved, r.TotalTurns)}
	if _, ok := f.lv[c]; !ok {
		f.levels(c)
	}
	g.FalseRateCI, g.SavedShareCI = f.lv[c][0], f.lv[c][1]
	return g
}

// levels sets the bootstrap intervals of the false-termination rate and
// turns-saved share of the columns cs, all on the same resamples (drawn once
// for all of them: a column's intervals are those it would have alone).
func (f *figures) levels(cs ...int) {
	if f.lv == nil {
		f.lv = map[int][2][2]float64{}
	}
	if f.n < metrics.MinN {
		for _, c := range cs {
			f.lv[c] = [2][2]float64{}
		}
		return
	}
	rng := rand.New(rand.NewPCG(metrics.BootstrapSeed, uint64(f.n)))
	w, ws := make([]int32, f.n), &weights{}
	fr, sv := make([][]float64, len(cs)), make([][]float64, len(cs))
	for i := range cs {
		fr[i], sv[i] = make([]float64, metrics.Resamples), make([]float64, metrics.Resamples)
	}
	for b := range metrics.Resamples {
		resample(rng, w)
		ws.of(w)
		turns := 0
		for i, e := range ws.e {
			turns += int(ws.k[i]) * f.turns[e]
		}
		for i, c := range cs {
			t := f.tally(c, ws)
			fr[i][b] = share(t.FalseTerminations, f.n)
			sv[i][b] = share(t.TurnsSaved, turns)
		}
	}
	for i, c := range cs {
		f.lv[c] = [2][2]float64{stats.Percentiles(fr[i]), stats.Percentiles(sv[i])}
	}
}

// resample chooses again, by the rule over each pool of candidates (columns
// of f), on StabilityResamples bootstrap resamples: picks[pool][resample] is
// the config chosen (an index into the candidates, -1 none).
func (r *Result) resample(f *figures, pools [][]int) [][]int {
	picks := make([][]int, len(pools))
	for p := range picks {
		picks[p] = make([]int, StabilityResamples)
	}
	step, end := r.steps("choosing again on bootstrap resamples", StabilityResamples)
	defer end()
	jobs := r.jobs()
	// The resamples are drawn in order from one seed, then chosen on in
	// parallel: the same choices whatever the workers. A few are held at a
	// time, not all of them (4 bytes an episode each).
	type draw struct {
		b int
		w []int32
	}
	draws, free := make(chan draw, jobs), make(chan []int32, 2*jobs)
	for range 2 * jobs {
		free <- make([]int32, f.n)
	}
	go func() {
		rng := rand.New(rand.NewPCG(metrics.BootstrapSeed+1, uint64(f.n)))
		for b := range StabilityResamples {
			w := <-free
			resample(rng, w)
			draws <- draw{b, w}
		}
		close(draws)
	}()
	var wg sync.WaitGroup
	for range jobs {
		wg.Go(func() {
			tallies, ws := make([]Tally, len(f.cells)-1), &weights{}
			for d := range draws {
				ws.of(d.w)
				for c := range tallies {
					tallies[c] = f.tally(c, ws)
				}
				for p, pool := range pools {
					picks[p][d.b], _ = r.choose(pool, func(c int) Tally { return tallies[c] }, f.n)
				}
				free <- d.w
				step()
			}
		})
	}
	wg.Wait()
	return picks
}

// summarise is how often picks (indices into cands) chose config i, and the
// three others chosen most.
func summarise(picks, cands []int, i int) (float64, []Rival) {
	chosen := map[int]int{}
	for _, c := range picks {
		if c >= 0 {
			chosen[cands[c]]++
		}
	}
	var rivals []Rival
	for k, times := range chosen {
		if k != i {
			rivals = append(rivals, Rival{Config: k, Share: float64(times) / StabilityResamples})
		}
	}
	slices.SortFunc(rivals, func(a, b Rival) int { return cmp.Or(cmp.Compare(b.Share, a.Share), cmp.Compare(a.Config, b.Config)) })
	return float64(chosen[i]) / StabilityResamples, rivals[:min(3, len(rivals))]
}

// Fold is the cross-validation fold of an episode: a hash of its id (and
// source and segment, so that copies split the same way wherever they lie),
// independent of the order episodes are read in.
func Fold(ep *episode.Episode, k int) int {
	h := fnv.New64a()
	h.Write([]byte(ep.ID + "\x00" + ep.Source + "\x00" + strconv.Itoa(ep.Segment)))
	return int(h.Sum64() % uint64(k))
}

// crossValidate chooses by the rule over each pool on k−1 folds and measures
// the choice on the fold held out; picks[p] is the config pool p chose on all
// the data (an index into Configs).
func (r *Result) crossValidate(eps []*episode.Episode, f *figures, cands []int, pools [][]int, picks []int) []CV {
	cvs := make([]CV, len(pools))
	if r.Folds < 2 || f.n < r.Folds {
		return cvs
	}
	end := r.phase("cross-validating", 0)
	defer end()
	fold := make([]int, f.n)
	for e, ep := range eps {
		fold[e] = Fold(ep, r.Folds)
	}
	type held struct {
		ft, saved int
		tokens    int64
	}
	sums := make([]held, len(pools))
	train, test := make([]int32, f.n), make([]int32, f.n)
	tallies := make([]Tally, len(cands))
	heldTurns := 0
	for k := range r.Folds {
		nTrain := 0
		for e := range fold {
			train[e], test[e] = int32(b2i(fold[e] != k)), int32(b2i(fold[e] == k))
			nTrain += int(train[e])
			heldTurns += int(test[e]) * f.turns[e]
		}
		trainW, testW := (&weights{}).of(train), (&weights{}).of(test)
		for c := range tallies {
			tallies[c] = f.tally(c, trainW)
		}
		for p, pool := range pools {
			c, _ := r.choose(pool, func(c int) Tally { return tallies[c] }, nTrain)
			if c < 0 {
				cvs[p].Undecided++
				continue
			}
			if cands[c] == picks[p] {
				cvs[p].Agree++
			}
			t := f.tally(c, testW)
			sums[p].ft += t.FalseTerminations
			sums[p].saved += t.TurnsSaved
			sums[p].tokens += t.TokensSaved
		}
	}
	for p := range cvs {
		cv := &cvs[p]
		cv.Folds = r.Folds
		cv.HeldOutFalseRate = share(sums[p].ft, f.n)
		cv.HeldOutFalseCI[0], cv.HeldOutFalseCI[1] = stats.Wilson(sums[p].ft, f.n)
		cv.HeldOutSavedShare = share(sums[p].saved, heldTurns)
		cv.HeldOutTokensSaved = sums[p].tokens
	}
	return cvs
}

// versus compares two settings as batch does: every metric, with paired
// bootstrap intervals.
func (r *Result) versus(eps []*episode.Episode, base, after policy.Policy) []metrics.Metric {
	pairs := make([]metrics.Pair, len(eps))
	for i, ep := range eps {
		b, a := replay.Run(ep, base), replay.Run(ep, after)
		pairs[i] = metrics.Pair{Ep: ep, Baseline: &b, After: &a}
	}
	return metrics.Compare(pairs, r.Costs)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
