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
	"cmp"
	"runtime"
	"slices"

	"github.com/lbanalyze/lbanalyze/episode"
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
	// CostPerCall and CostPerMTok price what a config saves
	// (report.Options.CostSaved).
	CostPerCall, CostPerMTok float64
	// ByTokens ranks the configs by the tokens they save, not the turns: the
	// front and the choice (where the logs record tokens).
	ByTokens bool
	// Harness: the episodes come from a harness with no stop rule of its
	// own, whose block to paste is policy.Policy.HarnessBlock, not ZorkGPT's
	// pyproject.toml (docs/sources.md, "Harness logs").
	Harness bool
}

// block is the block to paste that makes the system that ran the episodes
// run p, or why it cannot.
func (o Options) block(p policy.Policy) (string, error) {
	if o.Harness {
		return p.HarnessBlock()
	}
	return p.TOML()
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
	TokensSaved       int64 // where the logs record tokens
}

// add counts sign times one episode's outcome.
func (t *Tally) add(o *replay.Outcome, sign int) {
	t.FalseTerminations += sign * b2i(o.FalseTerminationCandidate())
	t.TurnsSaved += sign * o.TurnsSaved
	t.ScoreForgone += sign * o.ScoreForgone
	t.Censored += sign * b2i(o.Censored)
	t.TokensSaved += int64(sign) * o.TokensSaved
}

func (t *Tally) carry(u Tally) {
	t.FalseTerminations += u.FalseTerminations
	t.TurnsSaved += u.TurnsSaved
	t.ScoreForgone += u.ScoreForgone
	t.Censored += u.Censored
	t.TokensSaved += u.TokensSaved
}

// saved is what the configs are ranked by: the turns saved, or the tokens.
func (o Options) saved(t *Tally) int64 {
	if o.ByTokens {
		return t.TokensSaved
	}
	return int64(t.TurnsSaved)
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
	// Tokens: some log records tokens.
	Tokens bool
}

// Run evaluates every config over the episodes and makes the recommendation.
func Run(eps []*episode.Episode, configs []policy.Policy, current policy.Policy, opt Options) *Result {
	// Resamples draw episodes by position: put them in an order of their own,
	// as batch does, so that the input's order changes nothing.
	eps = slices.Clone(eps)
	slices.SortStableFunc(eps, func(a, b *episode.Episode) int {
		return cmp.Or(cmp.Compare(a.ID, b.ID), cmp.Compare(a.Source, b.Source), cmp.Compare(a.Segment, b.Segment))
	})
	tokens := slices.ContainsFunc(eps, func(ep *episode.Episode) bool { return ep.Signals.Has(episode.Tokens) })
	r := &Result{Options: opt, N: len(eps), Defs: report.NewDefsWith(opt.costs(), tokens), BestRunnable: -1, Tokens: tokens}
	for _, ep := range eps {
		r.TotalTurns += ep.N()
	}
	r.Configs = r.evaluate(eps, configs)
	cur := r.evaluate(eps, []policy.Policy{current})
	r.Current = &cur[0]
	r.Front = front(r.Configs, opt.saved)
	for _, i := range r.Front {
		r.Configs[i].Pareto = true
	}
	r.recommend(eps)
	return r
}

// evaluate sums every metric of every config over the episodes. Each config
// is summed by one worker, in episode order (replay.Sweep), so the result does
// not depend on the workers.
func (r *Result) evaluate(eps []*episode.Episode, configs []policy.Policy) []Config {
	// Configs of one policy and interval, by max_turns_stuck, side by side:
	// neighbours then often have the same result on an episode (the stop moves
	// only where the running maximum of turns stuck rises), and what it adds to
	// the sums is computed once for all of them.
	order := evaluationOrder(configs)
	sorted := make([]policy.Policy, len(configs))
	acc := make([]Config, len(configs)) // in the sorted order, so that a chunk's sums lie together
	sums := r.Defs.NewSumsSlab(len(configs))
	for k, i := range order {
		sorted[k] = configs[i]
		acc[k] = Config{Policy: configs[i], Sums: sums[k]}
	}
	// Each chunk of configs gets, for each episode, the contribution of its
	// first config and then only the changes from one config to the next;
	// running totals along the chunk then give every config its sums.
	jobs := r.jobs()
	type buffers struct{ cur, prev report.Contribution }
	bufs := make([]buffers, jobs)
	for w := range bufs {
		bufs[w] = buffers{r.Defs.NewContribution(), r.Defs.NewContribution()}
	}
	starts := make([]bool, len(configs)+1) // where a chunk begins: each written by its one worker
	replay.Sweep(eps, sorted, jobs, func(w, i, from int, os []replay.Outcome) {
		ep, b := eps[i], &bufs[w]
		starts[from] = true
		for k := range os {
			if k > 0 && replay.SameResult(&os[k], &os[k-1]) {
				continue
			}
			r.Defs.Contribute(b.cur, ep, &os[k])
			cfg := &acc[from+k]
			if k == 0 {
				b.cur.AddTo(&cfg.Sums)
				cfg.Tally.add(&os[k], 1)
			} else {
				b.cur.AddChange(&cfg.Sums, b.prev)
				cfg.Tally.add(&os[k], 1)
				cfg.Tally.add(&os[k-1], -1)
			}
			b.cur, b.prev = b.prev, b.cur
		}
	})
	for k := 1; k < len(acc); k++ {
		if !starts[k] {
			acc[k].Sums.Carry(&acc[k-1].Sums)
			acc[k].Tally.carry(acc[k-1].Tally)
		}
	}
	out := make([]Config, len(configs))
	for k, i := range order {
		out[i] = acc[k]
	}
	return out
}

// evaluationOrder groups the configs that differ only in max_turns_stuck,
// groups in the order they first appear, each by max_turns_stuck.
func evaluationOrder(configs []policy.Policy) []int {
	group := map[policy.Policy]int{}
	var groups [][]int
	for i, p := range configs {
		p.MaxTurnsStuck = 0
		g, ok := group[p]
		if !ok {
			g = len(groups)
			group[p] = g
			groups = append(groups, nil)
		}
		groups[g] = append(groups[g], i)
	}
	order := make([]int, 0, len(configs))
	for _, g := range groups {
		byW := func(a, b int) int { return cmp.Compare(configs[a].MaxTurnsStuck, configs[b].MaxTurnsStuck) }
		if !slices.IsSortedFunc(g, byW) {
			slices.SortStableFunc(g, byW)
		}
		order = append(order, g...)
	}
	return order
}

// costs are the options of the metrics.
func (o Options) costs() report.Options {
	return report.Options{CallsPerTurn: o.CallsPerTurn, CostPerCall: o.CostPerCall, CostPerMTok: o.CostPerMTok}
}

func (r *Result) jobs() int {
	if r.Jobs > 0 {
		return r.Jobs
	}
	return runtime.GOMAXPROCS(0)
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
