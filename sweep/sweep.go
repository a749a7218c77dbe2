// Package sweep searches a grid of loop-break settings over a dataset: every
// metric of batch for every config, the Pareto front of turns saved against
// false terminations and score forgone, and a recommendation with its
// uncertainty — bootstrap intervals, how stable the choice is under
// resampling, and its error out of sample by k-fold cross-validation.
//
// Configs are not replayed one by one: replay.Sweeper answers every threshold
// of a (policy, interval) from one pass over an episode.
package sweep

import (
	"runtime"
	"sync"

	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/replay"
	"github.com/lbanalyze/lbanalyze/report"
)

// Options say what to search for.
type Options struct {
	MaxFalseRate float64 // the highest false-termination rate to recommend, a share (0.05)
	MaxCensored  float64 // the highest share of censored outcomes to recommend
	Folds        int     // k of the cross-validation
	CallsPerTurn int
	Jobs         int
}

// Config is one setting of the grid and its metrics over the dataset.
type Config struct {
	Policy policy.Policy
	Sums   report.Sums // every metric of batch
	Tally
	Pareto bool // on the front: no other config saves as many turns with no more false terminations and no more score forgone, and is better in one
}

// Tally are the whole numbers the front and the choice are made of.
type Tally struct {
	FalseTerminations int // false-termination candidates
	TurnsSaved        int
	ScoreForgone      int
	Censored          int
}

func (t *Tally) add(o *replay.Outcome) {
	if o.FalseTerminationCandidate() {
		t.FalseTerminations++
	}
	t.TurnsSaved += o.TurnsSaved
	t.ScoreForgone += o.ScoreForgone
	if o.Censored {
		t.Censored++
	}
}

func (t *Tally) merge(u Tally) {
	t.FalseTerminations += u.FalseTerminations
	t.TurnsSaved += u.TurnsSaved
	t.ScoreForgone += u.ScoreForgone
	t.Censored += u.Censored
}

// Result is a sweep over a dataset.
type Result struct {
	Options
	N          int // episodes
	TotalTurns int // logged turns over all episodes
	Defs       report.Defs
	Configs    []Config
	Front      []int   // indices into Configs, by turns saved, most first
	Current    *Config // the setting ZorkGPT runs now (--config, else its defaults)
	// Recommended is the choice, nil when no config meets the targets.
	Recommended *Recommendation
	// BestRunnable is the best config ZorkGPT can run as it is, when the
	// recommendation needs a code change (an index into Configs, -1 if none).
	BestRunnable int
}

// Run evaluates every config over the episodes and makes the recommendation.
func Run(eps []*replay.Episode, configs []policy.Policy, current policy.Policy, opt Options) *Result {
	r := &Result{Options: opt, N: len(eps), Defs: report.NewDefs(opt.CallsPerTurn), BestRunnable: -1}
	for _, ep := range eps {
		r.TotalTurns += ep.N()
	}
	r.Configs = r.evaluate(eps, configs)
	cur := r.evaluate(eps, []policy.Policy{current})
	r.Current = &cur[0]
	r.Front = front(r.Configs)
	for _, i := range r.Front {
		r.Configs[i].Pareto = true
	}
	r.recommend(eps)
	return r
}

// evaluate sums every metric of every config over the episodes, the
// episodes split among workers. The sums are of whole numbers, exact in any
// order, so the result does not depend on the workers.
func (r *Result) evaluate(eps []*replay.Episode, configs []policy.Policy) []Config {
	jobs := max(1, min(r.Jobs, len(eps)))
	if r.Jobs <= 0 {
		jobs = max(1, min(runtime.GOMAXPROCS(0), len(eps)))
	}
	parts := make([][]Config, jobs)
	var wg sync.WaitGroup
	for w := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			parts[w] = r.evaluatePart(eps[w*len(eps)/jobs:(w+1)*len(eps)/jobs], configs)
		}()
	}
	wg.Wait()
	out := parts[0]
	for _, p := range parts[1:] {
		for i := range out {
			out[i].Sums.Merge(&p[i].Sums)
			out[i].Tally.merge(p[i].Tally)
		}
	}
	return out
}

func (r *Result) evaluatePart(eps []*replay.Episode, configs []policy.Policy) []Config {
	out := make([]Config, len(configs))
	for i, p := range configs {
		out[i] = Config{Policy: p, Sums: r.Defs.NewSums()}
	}
	outcomes := make([]replay.Outcome, len(configs))
	for _, ep := range eps {
		replay.NewSweeper(ep).Outcomes(configs, outcomes)
		for i := range outcomes {
			o := &outcomes[i]
			r.Defs.Add(&out[i].Sums, ep, o)
			out[i].Tally.add(o)
		}
	}
	return out
}

// FalseRate is a config's false-termination rate, a share.
func (r *Result) FalseRate(c *Config) float64 { return share(c.FalseTerminations, r.N) }

// SavedShare is a config's turns saved as a share of all logged turns.
func (r *Result) SavedShare(c *Config) float64 { return share(c.TurnsSaved, r.TotalTurns) }

// CensoredShare is the share of episodes whose outcome is censored.
func (r *Result) CensoredShare(c *Config) float64 { return share(c.Censored, r.N) }

func share(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}
