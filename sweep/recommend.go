package sweep

import (
	"cmp"
	"hash/fnv"
	"math/rand/v2"
	"slices"
	"strconv"
	"sync"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/stats"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/replay"
	"github.com/lbanalyze/lbanalyze/report"
)

// Settings of the resampling: fixed, so that the same episodes give the same
// recommendation.
const (
	// StabilityResamples is how many bootstrap resamples the choice is made
	// again on.
	StabilityResamples = 1000
	// maxCandidateCells bounds configs × episodes held per episode for the
	// stability and cross-validation: above it, they choose among the front.
	maxCandidateCells = 4_000_000
)

// Recommendation is the config chosen, with what is known of its error.
type Recommendation struct {
	Config int // index into Result.Configs
	// MeetsTarget is false when no config keeps the false-termination rate
	// within the target: Config is then the nearest, the lowest rate.
	MeetsTarget bool
	// 95% paired-bootstrap intervals of its false-termination rate and its
	// turns saved (shares), over the same resamples as batch's intervals.
	FalseRateCI, SavedShareCI [2]float64
	// Stability is the share of StabilityResamples bootstrap resamples in which
	// the same config is chosen; Rivals the others chosen most often.
	Stability float64
	Rivals    []Rival
	// Candidates is how many configs the resampled and cross-validated choices
	// were made among (every config, or the front for a large grid).
	Candidates int
	CV         CV
	// Versus compares the current setting (baseline) with the recommendation
	// (after) on every metric of batch, with paired bootstrap intervals.
	Versus []report.Metric
	TOML   string // the block to paste; empty when ZorkGPT cannot run it
	Change string // why not, and the smallest change to ZorkGPT that would
}

// Rival is another config chosen in some resamples.
type Rival struct {
	Config int     `json:"config"`
	Share  float64 `json:"share"`
}

// CV is the k-fold cross-validation of the choice: chosen on k−1 folds,
// measured on the fold held out, summed over the folds.
type CV struct {
	Folds             int
	HeldOutFalseRate  float64    // false-termination candidates on held-out episodes ÷ n
	HeldOutFalseCI    [2]float64 // Wilson 95% interval of that share
	HeldOutSavedShare float64    // turns saved on held-out episodes ÷ their logged turns
	// Agree is how many folds chose the config chosen on all the data;
	// Undecided, how many found no config within the targets (held out with no
	// loop break at all).
	Agree, Undecided int
}

// figures are the per-episode figures of the candidates: what the choice
// needs, for any subset or resample of the episodes.
type figures struct {
	n      int
	turns  []int    // logged turns of episode i
	ft     [][]int8 // [candidate][episode] false-termination candidate
	saved  [][]int32
	forgo  [][]int32
	censor [][]int8
	tokens [][]int64 // when ranked by tokens
}

// recommend chooses within the targets and measures the choice.
func (r *Result) recommend(eps []*episode.Episode) {
	all := make([]int, len(r.Configs))
	for i := range all {
		all[i] = i
	}
	whole := func(i int) Tally { return r.Configs[i].Tally }
	pick, met := r.choose(all, whole, r.N, false)
	r.BestRunnable, _ = r.choose(all, whole, r.N, true)
	if pick < 0 {
		return
	}
	rec := &Recommendation{Config: pick, MeetsTarget: met}
	r.Recommended = rec
	cands := all
	if len(all)*len(eps) > maxCandidateCells {
		cands = slices.Clone(r.Front)
		for _, i := range []int{pick, r.BestRunnable} {
			if i >= 0 && !slices.Contains(cands, i) {
				cands = append(cands, i)
			}
		}
		slices.Sort(cands)
	}
	rec.Candidates = len(cands)
	f := r.figures(eps, cands)
	local := slices.Index(cands, pick)
	rec.FalseRateCI, rec.SavedShareCI = r.levels(f, local)
	rec.Stability, rec.Rivals = r.stability(f, cands, pick)
	rec.CV = r.crossValidate(eps, f, cands, pick)
	rec.Versus = r.versus(eps, r.Configs[pick].Policy)
	p := r.Configs[pick].Policy
	if block, err := r.block(p); err == nil {
		rec.TOML = block
	} else {
		rec.Change = err.Error()
		if c := p.Kind().Change; c != "" {
			rec.Change += ": " + c
		}
	}
}

// choose is the rule of the recommendation, applied alike to the whole
// dataset, to bootstrap resamples and to training folds. Among the configs idx
// whose censored outcomes are within MaxCensored (and, if runnable, that
// ZorkGPT can run as it is), it picks the one that saves the most turns with a
// false-termination rate within MaxFalseRate (met); when none is within it,
// the nearest: the lowest rate, then the most turns saved. Remaining ties go
// to less score forgone, then the first in the grid. -1 when no config is
// within MaxCensored.
func (r *Result) choose(idx []int, tally func(i int) Tally, n int, runnable bool) (best int, met bool) {
	best = -1
	var bt Tally
	for _, i := range idx {
		t := tally(i)
		if float64(t.Censored) > r.MaxCensored*float64(n)+1e-9 {
			continue
		}
		if runnable {
			if _, err := r.block(r.Configs[i].Policy); err != nil {
				continue
			}
		}
		within := float64(t.FalseTerminations) <= r.MaxFalseRate*float64(n)+1e-9
		var c int
		switch {
		case best < 0 || within && !met:
			c = 1
		case met && within:
			c = cmp.Or(cmp.Compare(r.saved(&t), r.saved(&bt)), cmp.Compare(bt.FalseTerminations, t.FalseTerminations),
				cmp.Compare(bt.ScoreForgone, t.ScoreForgone))
		case !met && !within:
			c = cmp.Or(cmp.Compare(bt.FalseTerminations, t.FalseTerminations), cmp.Compare(r.saved(&t), r.saved(&bt)),
				cmp.Compare(bt.ScoreForgone, t.ScoreForgone))
		}
		if c > 0 {
			best, bt, met = i, t, within
		}
	}
	return best, met
}

// figures replays the candidates over every episode (the fast path again).
func (r *Result) figures(eps []*episode.Episode, cands []int) *figures {
	f := &figures{n: len(eps), turns: make([]int, len(eps))}
	f.ft = make([][]int8, len(cands))
	f.saved = make([][]int32, len(cands))
	f.forgo = make([][]int32, len(cands))
	f.censor = make([][]int8, len(cands))
	for c := range cands {
		f.ft[c], f.censor[c] = make([]int8, len(eps)), make([]int8, len(eps))
		f.saved[c], f.forgo[c] = make([]int32, len(eps)), make([]int32, len(eps))
	}
	if r.ByTokens {
		f.tokens = make([][]int64, len(cands))
		for c := range cands {
			f.tokens[c] = make([]int64, len(eps))
		}
	}
	ps := make([]policy.Policy, len(cands))
	for c, i := range cands {
		ps[c] = r.Configs[i].Policy
	}
	out := make([]replay.Outcome, len(cands))
	for e, ep := range eps {
		f.turns[e] = ep.N()
		replay.NewSweeper(ep).Outcomes(ps, out)
		for c := range out {
			o := &out[c]
			f.ft[c][e] = int8(b2i(o.FalseTerminationCandidate()))
			f.censor[c][e] = int8(b2i(o.Censored))
			f.saved[c][e], f.forgo[c][e] = int32(o.TurnsSaved), int32(o.ScoreForgone)
			if f.tokens != nil {
				f.tokens[c][e] = o.TokensSaved
			}
		}
	}
	return f
}

// tally sums candidate c's figures over the episodes weighted by w (a count
// a resampled episode, 1 or 0 for a subset).
func (f *figures) tally(c int, w []int32) Tally {
	var t Tally
	for e, k := range w {
		if k == 0 {
			continue
		}
		t.FalseTerminations += int(k) * int(f.ft[c][e])
		t.TurnsSaved += int(k) * int(f.saved[c][e])
		t.ScoreForgone += int(k) * int(f.forgo[c][e])
		t.Censored += int(k) * int(f.censor[c][e])
		if f.tokens != nil {
			t.TokensSaved += int64(k) * f.tokens[c][e]
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

// levels are the bootstrap intervals of candidate c's false-termination rate
// and turns-saved share.
func (r *Result) levels(f *figures, c int) (ft, saved [2]float64) {
	if f.n < report.MinN {
		return
	}
	rng := rand.New(rand.NewPCG(report.BootstrapSeed, uint64(f.n)))
	w := make([]int32, f.n)
	fr, sv := make([]float64, report.Resamples), make([]float64, report.Resamples)
	for b := range report.Resamples {
		resample(rng, w)
		t := f.tally(c, w)
		turns := 0
		for e, k := range w {
			turns += int(k) * f.turns[e]
		}
		fr[b] = share(t.FalseTerminations, f.n)
		sv[b] = share(t.TurnsSaved, turns)
	}
	return stats.Percentiles(fr), stats.Percentiles(sv)
}

// stability chooses again on StabilityResamples bootstrap resamples.
func (r *Result) stability(f *figures, cands []int, pick int) (float64, []Rival) {
	if f.n < report.MinN {
		return 0, nil
	}
	// The resamples are drawn in order from one seed, then chosen on in
	// parallel: the same choices whatever the workers.
	rng := rand.New(rand.NewPCG(report.BootstrapSeed+1, uint64(f.n)))
	weights := make([][]int32, StabilityResamples)
	for b := range weights {
		weights[b] = make([]int32, f.n)
		resample(rng, weights[b])
	}
	local := make([]int, len(cands))
	for c := range local {
		local[c] = c
	}
	picks := make([]int, StabilityResamples)
	jobs := r.jobs()
	var wg sync.WaitGroup
	for j := range jobs {
		wg.Go(func() {
			for b := j; b < len(weights); b += jobs {
				picks[b], _ = r.choose(local, func(c int) Tally { return f.tally(c, weights[b]) }, f.n, false)
			}
		})
	}
	wg.Wait()
	chosen := map[int]int{}
	for _, c := range picks {
		if c >= 0 {
			chosen[cands[c]]++
		}
	}
	var rivals []Rival
	for i, k := range chosen {
		if i != pick && i >= 0 {
			rivals = append(rivals, Rival{Config: i, Share: float64(k) / StabilityResamples})
		}
	}
	slices.SortFunc(rivals, func(a, b Rival) int { return cmp.Or(cmp.Compare(b.Share, a.Share), cmp.Compare(a.Config, b.Config)) })
	return float64(chosen[pick]) / StabilityResamples, rivals[:min(3, len(rivals))]
}

// Fold is the cross-validation fold of an episode: a hash of its id (and
// source and segment, so that copies split the same way wherever they lie),
// independent of the order episodes are read in.
func Fold(ep *episode.Episode, k int) int {
	h := fnv.New64a()
	h.Write([]byte(ep.ID + "\x00" + ep.Source + "\x00" + strconv.Itoa(ep.Segment)))
	return int(h.Sum64() % uint64(k))
}

// crossValidate chooses on k−1 folds and measures on the one held out.
func (r *Result) crossValidate(eps []*episode.Episode, f *figures, cands []int, pick int) CV {
	cv := CV{Folds: r.Folds}
	if r.Folds < 2 || f.n < r.Folds {
		return cv
	}
	fold := make([]int, f.n)
	for e, ep := range eps {
		fold[e] = Fold(ep, r.Folds)
	}
	local := make([]int, len(cands))
	for c := range local {
		local[c] = c
	}
	train, test := make([]int32, f.n), make([]int32, f.n)
	var heldFT, heldSaved, heldTurns int
	for k := range r.Folds {
		nTrain := 0
		for e := range fold {
			train[e], test[e] = int32(b2i(fold[e] != k)), int32(b2i(fold[e] == k))
			nTrain += int(train[e])
			heldTurns += int(test[e]) * f.turns[e]
		}
		c, _ := r.choose(local, func(c int) Tally { return f.tally(c, train) }, nTrain, false)
		if c < 0 {
			cv.Undecided++
			continue
		}
		if cands[c] == pick {
			cv.Agree++
		}
		t := f.tally(c, test)
		heldFT += t.FalseTerminations
		heldSaved += t.TurnsSaved
	}
	cv.HeldOutFalseRate = share(heldFT, f.n)
	cv.HeldOutFalseCI[0], cv.HeldOutFalseCI[1] = stats.Wilson(heldFT, f.n)
	cv.HeldOutSavedShare = share(heldSaved, heldTurns)
	return cv
}

// versus compares the current setting with the recommended one as batch
// does: every metric, with paired bootstrap intervals.
func (r *Result) versus(eps []*episode.Episode, rec policy.Policy) []report.Metric {
	pairs := make([]report.Episode, len(eps))
	for i, ep := range eps {
		pairs[i] = report.Episode{Ep: ep, Outcomes: []replay.Outcome{replay.Run(ep, r.Current.Policy), replay.Run(ep, rec)}}
	}
	return report.MetricsWith(pairs, 0, 1, r.costs())
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
