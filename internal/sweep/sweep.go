// Package sweep searches a grid of loop-break settings over a dataset: every
// metric of batch for every config, the Pareto front of turns saved against
// false terminations and score forgone, and a recommendation with its
// uncertainty — paired intervals against the current setting, how stable
// the choice is under resampling, and its error out of sample by k-fold
// cross-validation.
//
// Configs are not replayed one by one: replay.Sweeper answers every threshold
// of a (policy, interval) from one pass over an episode.
package sweep

import (
	"cmp"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/metrics"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/replay"
	"github.com/lbanalyze/lbanalyze/system"
)

// Options say what to search for.
type Options struct {
	MaxFalseRate float64 // the false-termination rate (its high bound) a config should keep within, a share (0.05)
	MaxCensored  float64 // the highest share of censored outcomes of a config to ship
	// FTMargin is how much higher than now's a shipped change's
	// false-termination rate may be, at most, by the upper bound of its
	// paired interval: a share; DefaultFTMargin when 0.
	FTMargin float64
	// GainHorizon: a later gain is evidence of a premature stop only within
	// this many turns of it; 0, any (replay.Outcome.GainHorizon).
	GainHorizon   int
	Folds         int // k of the cross-validation
	Jobs          int
	metrics.Costs // what a config saves is priced with
	// ByTokens ranks the configs by the tokens they save, not the turns: the
	// front, the answer and the best overall (where the logs record tokens).
	ByTokens bool
	// ValuePerPoint, when above 0, is what an episode stopped before a later
	// gain is worth to the user, in turns (or tokens, ranked by them): the
	// answer prints the trade-off's verdict at it beside the rule's, which
	// it does not change (BreakEven).
	ValuePerPoint float64
	// System runs the episodes and will run the answer (system.OfAll when nil).
	System *system.System
	// Progress, when set, is told of each long phase: its name and how many
	// steps it has (0: unknown); it returns the step and the end of the phase.
	Progress func(phase string, steps int) (step func(), end func())
}

// DefaultFTMargin is --ft-margin's default, 2 percentage points: the margin
// of non-inferiority the issue of the answer's rule sets (docs/commands.md,
// "sweep: which setting to ship").
const DefaultFTMargin = 0.02

// Config is one setting of the grid and its metrics over the dataset.
type Config struct {
	Policy policy.Policy
	Sums   metrics.Sums // every metric of batch
	Tally
	// Class is the index of the config that stands for every config with
	// the same outcome as this one on every episode (Result.Classes); -1
	// for a config with now's outcomes everywhere, which now stands for.
	Class  int
	Pareto bool // on the front: no other config saves as many turns with no more false terminations and no more score forgone, and is better in one
}

// Tally are the whole numbers the front and the choice are made of.
type Tally struct {
	FalseTerminations int // premature stops: false-termination candidates
	Unknown           int // stops the log is cut too soon after to judge
	TurnsSaved        int
	ScoreForgone      episode.Score // summed to episode.ScoreResolution: exact whatever the order
	Censored          int
	TokensSaved       int64 // where the logs record tokens
	// Worse and Better are the discordant episodes of the false-termination
	// rate's high bound against now: unjudged under the config and not under
	// now, and the other way (Unjudged).
	Worse, Better int
	// sig is a signature of the outcome on every episode: configs with
	// the same outcomes everywhere, and only they (but with a chance of
	// about 2^-128), have the same.
	sig [2]uint64
}

// Unjudged counts the outcomes the logs cannot show fine (premature,
// unknown or censored): the high bound of the false-termination rate, which
// the targets are judged on.
func (t *Tally) Unjudged() int { return t.FalseTerminations + t.Unknown + t.Censored }

// add counts sign times the outcome o of episode e, whose outcome under now
// is unjudged or not.
func (t *Tally) add(o *replay.Outcome, e, sign int, nowUnjudged bool) {
	u := o.Unjudged()
	t.Worse += sign * b2i(u && !nowUnjudged)
	t.Better += sign * b2i(!u && nowUnjudged)
	t.FalseTerminations += sign * b2i(o.FalseTerminationCandidate())
	t.Unknown += sign * b2i(o.Unknown())
	t.TurnsSaved += sign * o.TurnsSaved
	t.ScoreForgone = t.ScoreForgone.Add(episode.Score(sign) * o.ScoreForgone)
	t.Censored += sign * b2i(o.Censored)
	t.TokensSaved += int64(sign) * o.TokensSaved
	h := signature(o, e)
	t.sig[0] += uint64(sign) * h[0]
	t.sig[1] += uint64(sign) * h[1]
}

func (t *Tally) carry(u Tally) {
	t.FalseTerminations += u.FalseTerminations
	t.Unknown += u.Unknown
	t.TurnsSaved += u.TurnsSaved
	t.ScoreForgone = t.ScoreForgone.Add(u.ScoreForgone)
	t.Censored += u.Censored
	t.TokensSaved += u.TokensSaved
	t.Worse += u.Worse
	t.Better += u.Better
	t.sig[0] += u.sig[0]
	t.sig[1] += u.sig[1]
}

// signature is two 64-bit hashes of what outcome o is on episode e: its stop
// turn and its class (premature, unknown, censored), from which every figure
// of the sweep follows. Summed over the episodes (modulo 2^64), they give a
// config's Tally.sig: a sum, so that a sweep adds only the changes along a
// run of configs, as it does the other figures.
func signature(o *replay.Outcome, e int) [2]uint64 {
	key := uint64(e)<<32 | uint64(uint32(o.TerminationTurn))<<3 |
		uint64(b2i(o.FalseTerminationCandidate()))<<2 | uint64(b2i(o.Unknown()))<<1 | uint64(b2i(o.Censored))
	return [2]uint64{mix64(key ^ 0x9e3779b97f4a7c15), mix64(key ^ 0xc2b2ae3d27d4eb4f)}
}

// mix64 is splitmix64's finaliser: every bit of x moves every bit of the
// result.
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
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
	Defs       metrics.Defs
	Configs    []Config
	Front      []int   // indices into Configs (one a class: Result.outcomes), by turns saved, most first
	Current    *Config // the setting the system runs now (--config, else its defaults)
	// Classes are the configs with the same outcome on every episode, each
	// listed by its representative (Config.Class): the member nearest to
	// now (fewest settings changed, then grid order), first; NowClass are
	// the configs of the grid with now's outcomes everywhere.
	Classes  map[int][]int
	NowClass []int
	// Runnable[i] says whether the system runs Configs[i] as it is.
	Runnable []bool
	// Answer is what to ship, among the configs the system runs as it is; nil
	// when the data cannot support one, and NoAnswer says why.
	Answer   *Answer
	NoAnswer string
	// BestOverall is the best config of the whole grid, when the system
	// cannot run it as it is (nil otherwise, or without an answer).
	BestOverall *Overall
	// Tokens: some log records tokens; EstimatedTokens counts the episodes
	// whose tokens per turn are estimates (episode.Episode.Estimated).
	Tokens          bool
	EstimatedTokens int
	// Results: every run is judged by its result (docs/semantics.md, "6.4
	// Runs judged by their result"), so that the score a config forgoes is
	// the solves it loses, and the front says so; Quartile is then the 75th
	// percentile of their lengths in QuartileUnit (steps, or seconds where
	// their steps cannot be replayed), whose cap the answer shows beside it.
	Results      bool
	Quartile     int
	QuartileUnit quartileUnit
	// Dollars are what the configs of the front, the answer and the best
	// overall, and the current setting, save in dollars, when the sweep is
	// priced (nil otherwise).
	Dollars map[policy.Policy]Dollars
	// nowUnjudged[e] says whether now's outcome on episode e is unjudged.
	nowUnjudged []bool
	// shown tells which tallies show a change non-inferior to now.
	shown *screen
	// safer screens the changes shown to have fewer unjudged outcomes than now.
	safer *screen
	// LeftOut say which policies were left out of the grid, or replaced as
	// the current setting, as some log lacks a signal they need, and which
	// settings are off on some logs (replay.Sweepable).
	LeftOut []string
}

// Run evaluates every config over the episodes and makes the recommendation.
// A config that some episode's log cannot replay (it lacks a signal the
// policy needs) is left out first, and a current setting that cannot be is
// replaced by none (docs/sources.md, "Signals a policy needs"): the answer,
// the best overall and the front are of the configs kept, and LeftOut says
// what was left out.
func Run(eps []*episode.Episode, configs []policy.Policy, current policy.Policy, opt Options) *Result {
	eps = ordered(eps)
	if opt.System == nil {
		opt.System = system.OfAll(eps)
	}
	if opt.FTMargin <= 0 {
		opt.FTMargin = DefaultFTMargin
	}
	opt.Costs = opt.Costs.For(eps...)
	tokens := slices.ContainsFunc(eps, func(ep *episode.Episode) bool { return ep.Signals.Has(episode.Tokens) })
	unpriced := unpricedTokens(eps, &opt.Costs)
	r := &Result{Options: opt, N: len(eps), Defs: metrics.NewDefs(opt.Costs, tokens, opt.System.Shows.Applies), Tokens: tokens,
		Results: len(eps) > 0 && !slices.ContainsFunc(eps, func(ep *episode.Episode) bool { return ep.Judged == episode.ByScore })}
	if u, ok := quartileOf(eps); r.Results && ok {
		r.Quartile, r.QuartileUnit = u.quartile(eps), u
	}
	configs, r.LeftOut = replay.Sweepable(eps, configs)
	r.LeftOut = append(r.LeftOut, unpriced...)
	if _, cur := replay.Comparable(eps, []policy.Policy{current}, "the sweep compares with no stop rule instead"); cur != nil {
		r.LeftOut = append(r.LeftOut, cur...)
		current = policy.Policy{Name: policy.None}
	}
	for _, ep := range eps {
		r.TotalTurns += ep.N()
		r.EstimatedTokens += b2i(ep.Estimated.Has(episode.Tokens))
	}
	end := r.phase("replaying every config", 0)
	now := r.replayNow(eps, current)
	var kept *figures // the configs' columns, then now's
	if (len(configs)+1)*len(eps) <= maxKeptCells {
		kept = r.newFigures(eps, len(configs)+1)
	}
	cur := r.summed(eps, current, now, kept)
	r.Configs = r.evaluate(eps, configs, kept)
	end()
	r.setCurrent(&cur)
	r.Runnable = make([]bool, len(r.Configs))
	for i := range r.Configs {
		r.Runnable[i] = r.System.Runs(r.Configs[i].Policy)
	}
	r.classify()
	r.Front = front(r.Configs, r.outcomes(), opt.saved)
	for _, i := range r.Front {
		for _, k := range r.ClassOf(i) {
			r.Configs[k].Pareto = true
		}
	}
	r.answer(eps, kept)
	end = r.phase("pricing the front", 0)
	r.Dollars = r.price(eps)
	end()
	return r
}

// ordered are eps in an order of their own, as batch puts them: resamples
// draw episodes by position, and the input's order changes nothing.
func ordered(eps []*episode.Episode) []*episode.Episode {
	eps = slices.Clone(eps)
	slices.SortStableFunc(eps, func(a, b *episode.Episode) int {
		return cmp.Or(cmp.Compare(a.ID, b.ID), cmp.Compare(a.Source, b.Source), cmp.Compare(a.Segment, b.Segment))
	})
	return eps
}

// unpricedTokens says when a price per token cannot price these logs (docs/
// commands.md, "sweep: which setting to ship"): dollars are never made up. A
// price per token alone, with no log recording tokens, prices nothing: it is
// dropped, so no $0.00 is printed, and the note says to give a price per
// call. With some logs recording none, their episodes count no dollars:
// the note says how many.
func unpricedTokens(eps []*episode.Episode, c *metrics.Costs) []string {
	if c.CostPerMTok <= 0 || c.CostPerCall > 0 {
		return nil
	}
	without := 0
	for _, ep := range eps {
		without += b2i(!ep.Signals.Has(episode.Tokens) && !ep.Signals.Has(episode.Costs)) // recorded dollars need no price
	}
	switch {
	case without == len(eps):
		c.CostPerMTok = 0
		return []string{"--cost-per-mtok: no log read records tokens, so no dollars are said (not $0.00); --cost-per-call prices " +
			"the LLM calls saved instead"}
	case without > 0:
		return []string{fmt.Sprintf("--cost-per-mtok: %d of the %s record no tokens and count no dollars saved; --cost-per-call "+
			"prices their LLM calls", without, episodes(len(eps)))}
	}
	return nil
}

// evaluate sums every metric of every config over the episodes, and sets
// each config's cells in keep (its columns in the configs' order) unless
// keep is nil. Each config is summed by one worker, in episode order
// (replay.Sweep), so the result does not depend on the workers.
func (r *Result) evaluate(eps []*episode.Episode, configs []policy.Policy, keep *figures) []Config {
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
	type buffers struct{ cur, prev metrics.Contribution }
	bufs := make([]buffers, jobs)
	for w := range bufs {
		bufs[w] = buffers{r.Defs.NewContribution(), r.Defs.NewContribution()}
	}
	starts := make([]bool, len(configs)+1) // where a chunk begins: each written by its one worker
	replay.Sweep(eps, sorted, jobs, func(w, i, from int, os []replay.Outcome) {
		ep, b := eps[i], &bufs[w]
		starts[from] = true
		for k := range os {
			os[k].GainHorizon = r.GainHorizon
			if keep != nil {
				keep.set(order[from+k], i, &os[k], r.nowUnjudged[i])
			}
		}
		for k := range os {
			if k > 0 && replay.SameResult(&os[k], &os[k-1]) {
				continue
			}
			r.Defs.Contribute(b.cur, ep, &os[k])
			cfg := &acc[from+k]
			cfg.Tally.add(&os[k], i, 1, r.nowUnjudged[i])
			if k == 0 {
				b.cur.AddTo(&cfg.Sums)
			} else {
				b.cur.AddChange(&cfg.Sums, b.prev)
				cfg.Tally.add(&os[k-1], i, -1, r.nowUnjudged[i])
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

// replayNow is the outcomes of current (episode e's at e), replayed on every
// core, and sets nowUnjudged from them.
func (r *Result) replayNow(eps []*episode.Episode, current policy.Policy) []replay.Outcome {
	r.nowUnjudged = make([]bool, len(eps))
	now := make([]replay.Outcome, len(eps))
	r.eachEpisode(len(eps), func(e int) {
		now[e] = replay.Run(eps[e], current)
		now[e].GainHorizon = r.GainHorizon
		r.nowUnjudged[e] = now[e].Unjudged()
	})
	return now
}

// summed is config p of outcomes os (episode e's at e) as evaluate sums a
// config, in episode order, and sets its cells in keep's last column unless
// keep is nil: now's, from the outcomes its replay on every core gave,
// rather than another replay of every episode (docs/PERFORMANCE.md, "Many
// episodes").
func (r *Result) summed(eps []*episode.Episode, p policy.Policy, os []replay.Outcome, keep *figures) Config {
	c := Config{Policy: p, Sums: r.Defs.NewSumsSlab(1)[0]}
	buf := r.Defs.NewContribution()
	for e := range os {
		if keep != nil {
			keep.set(keep.now(), e, &os[e], r.nowUnjudged[e])
		}
		r.Defs.Contribute(buf, eps[e], &os[e])
		c.Tally.add(&os[e], e, 1, r.nowUnjudged[e])
		buf.AddTo(&c.Sums)
	}
	return c
}

// evaluationOrder groups the configs that differ only in max_turns_stuck,
// groups in the order they first appear, each by max_turns_stuck.
func evaluationOrder(configs []policy.Policy) []int {
	group := map[policy.Policy]int{}
	var groups [][]int
	for i, p := range configs {
		p = p.With(policy.MaxTurnsStuck, 0)
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
		byW := func(a, b int) int { return cmp.Compare(configs[a].MaxTurnsStuck(), configs[b].MaxTurnsStuck()) }
		if !slices.IsSortedFunc(g, byW) {
			slices.SortStableFunc(g, byW)
		}
		order = append(order, g...)
	}
	return order
}

// phase tells Progress of a phase and returns its end.
func (r *Result) phase(name string, steps int) (end func()) {
	_, end = r.steps(name, steps)
	return end
}

// steps tells Progress of a phase of steps and returns its step and end.
func (r *Result) steps(name string, steps int) (step, end func()) {
	if r.Progress == nil {
		return func() {}, func() {}
	}
	return r.Progress(name, steps)
}

// eachEpisode calls do(e) for every episode e < n, on r.jobs() workers:
// do must write only what is episode e's.
func (r *Result) eachEpisode(n int, do func(e int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range r.jobs() {
		wg.Go(func() {
			for e := int(next.Add(1) - 1); e < n; e = int(next.Add(1) - 1) {
				do(e)
			}
		})
	}
	wg.Wait()
}

func (r *Result) jobs() int {
	if r.Jobs > 0 {
		return r.Jobs
	}
	return runtime.GOMAXPROCS(0)
}

// FalseRate is a config's false-termination rate, a share: its high bound,
// every outcome the logs cannot show fine, which the targets are judged on.
func (r *Result) FalseRate(c *Config) float64 { return share(c.Unjudged(), r.N) }

// FalseRateLow is the low bound of a config's false-termination rate: the
// premature stops alone.
func (r *Result) FalseRateLow(c *Config) float64 { return share(c.FalseTerminations, r.N) }

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
