package metrics

import (
	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/replay"
)

// Defs are the metrics of the registry for some costs, for commands that sum
// them over many policies at once (sweep): the same entries Compare uses.
type Defs struct{ defs []entry }

// NewDefs returns the metrics that apply with costs c: tokens says whether
// some log records tokens, and a which metrics apply to the logs.
func NewDefs(c Costs, tokens bool, a Applies) Defs {
	return Defs{registry(c, tokens, a)}
}

// Len is the number of metrics.
func (d Defs) Len() int { return len(d.defs) }

// Name is metric k's JSON name.
func (d Defs) Name(k int) string { return d.defs[k].name }

// Sums are one policy's running sums over episodes: a numerator and a
// denominator a metric, and n.
type Sums struct {
	num, den []float64
	n        int
}

// NewSumsSlab returns n empty sums in one allocation, side by side, so that
// summing many policies at once stays in cache.
func (d Defs) NewSumsSlab(n int) []Sums {
	k := len(d.defs)
	slab := make([]float64, 2*k*n)
	s := make([]Sums, n)
	for i := range s {
		s[i] = Sums{num: slab[2*k*i : 2*k*i+k : 2*k*i+k], den: slab[2*k*i+k : 2*k*(i+1) : 2*k*(i+1)]}
	}
	return s
}

// Contribution is what one episode under one outcome adds to Sums: every
// metric's numerator, then every denominator. Computed once, it can be added
// to the sums of every policy with the same result on that episode.
type Contribution []float64

// NewContribution returns room for one.
func (d Defs) NewContribution() Contribution { return make(Contribution, 2*len(d.defs)) }

// Contribute fills c for episode ep under outcome o.
func (d Defs) Contribute(c Contribution, ep *episode.Episode, o *replay.Outcome) {
	k, e := len(d.defs), EpisodeOf(ep)
	for i := range d.defs {
		df := &d.defs[i]
		c[i] = df.num(e, o)
		if df.den != nil {
			c[k+i] = df.den(e, o)
		}
	}
}

// AddChange adds c − prev to s, counting no episode: with Carry, a sweep adds
// to the sums of a run of policies only where the contribution changes.
func (c Contribution) AddChange(s *Sums, prev Contribution) {
	k := len(s.num)
	for i := range k {
		s.num[i] += c[i] - prev[i]
		s.den[i] += c[k+i] - prev[k+i]
	}
}

// Carry adds prev to s, episodes counted included: after AddChange, the sums
// of a run of policies are each the running total of the changes before it.
func (s *Sums) Carry(prev *Sums) {
	s.n += prev.n
	for i := range s.num {
		s.num[i] += prev.num[i]
		s.den[i] += prev.den[i]
	}
}

// AddTo adds c to s.
func (c Contribution) AddTo(s *Sums) {
	s.n++
	k := len(s.num)
	for i, v := range c[:k] {
		s.num[i] += v
	}
	for i, v := range c[k : 2*k] {
		s.den[i] += v
	}
}

// Value is metric k over the episodes added; false when it is undefined (a
// mean over no episodes).
func (d Defs) Value(s *Sums, k int) (float64, bool) {
	den := s.den[k]
	if d.defs[k].den == nil {
		den = float64(s.n) // a metric without a denominator counts episodes
	}
	return d.defs[k].value(s.num[k], den)
}
