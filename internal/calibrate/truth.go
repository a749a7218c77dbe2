package calibrate

import (
	"runtime"
	"sync"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/replay"
)

// Figure is one figure of a config over a set of episodes, as the answer
// states it: a share of episodes or turns, or a mean per episode.
type Figure int

const (
	// FalseRate is the high bound of the false-termination rate, as the
	// answer prints it: the outcomes the logs cannot show fine (premature,
	// unknown, censored) ÷ the episodes.
	FalseRate Figure = iota
	// CensoredShare is the censored outcomes ÷ the episodes.
	CensoredShare
	// SavedPerEpisode is the turns saved ÷ the episodes (a sum over n
	// episodes is n times it).
	SavedPerEpisode
	// FalseRateLow is the low bound of the false-termination rate: the
	// premature stops alone ÷ the episodes.
	FalseRateLow
	// WorseShare and BetterShare are the episodes whose outcome the logs
	// cannot show fine under the config and not under now, and the other
	// way, ÷ the episodes: its discordance with now.
	WorseShare
	BetterShare
	figures
)

func (f Figure) String() string {
	return [...]string{"false-termination rate", "censored share", "turns saved per episode", "false-termination rate, low bound",
		"share worse than now", "share better than now"}[f]
}

// Quantity is what an interval speaks of: a figure of config Of (or of a
// mixture of configs, Mix, when set), or, when Versus, the difference of
// that figure between it and Base.
type Quantity struct {
	Figure   Figure
	Of, Base policy.Policy
	Mix      []Part
	Versus   bool
	// Negated: minus the figure (a cost, of turns saved).
	Negated bool
}

// Part is a config in a mixture, with its weight (the weights sum to 1).
type Part struct {
	Of     policy.Policy
	Weight float64
}

// truthTable is every config's figures over the whole population: the values an
// answer's intervals, computed on a sample, are meant to cover. They are the
// generator's truth; real episodes may differ.
type truthTable struct {
	N      int
	index  map[policy.Policy]int
	values [][figures]float64
}

// tally are the whole numbers the figures are made of.
type tally struct{ ft, premature, censored, saved, worse, better int64 }

// newTruth replays every policy over every episode of the population (the
// sweep's fast path, which tests hold to the plain replay) and keeps their
// figures; the last policy is now, which the discordance is counted against.
func newTruth(pop []*episode.Episode, policies []policy.Policy, workers int) *truthTable {
	workers = max(1, min(workers, runtime.GOMAXPROCS(0)))
	sums := make([][]tally, workers)
	next := make(chan int)
	var wg sync.WaitGroup
	for w := range workers {
		sums[w] = make([]tally, len(policies))
		wg.Go(func() {
			out := make([]replay.Outcome, len(policies))
			for i := range next {
				ep := pop[i]
				replay.NewSweeper(ep).Outcomes(policies, out)
				nowU := b2i(out[len(out)-1].Unjudged())
				for c := range out {
					o, s := &out[c], &sums[w][c]
					u := b2i(o.Unjudged())
					s.worse += u * (1 - nowU)
					s.better += (1 - u) * nowU
					s.ft += b2i(o.Unjudged())
					s.premature += b2i(o.FalseTerminationCandidate())
					s.censored += b2i(o.Censored)
					s.saved += int64(o.TurnsSaved)
				}
			}
		})
	}
	for i := range pop {
		next <- i
	}
	close(next)
	wg.Wait()
	t := &truthTable{N: len(pop), index: map[policy.Policy]int{}, values: make([][figures]float64, len(policies))}
	n := float64(len(pop))
	for c, p := range policies {
		var s tally // integers: the same sums whatever the workers
		for w := range workers {
			s.ft += sums[w][c].ft
			s.premature += sums[w][c].premature
			s.censored += sums[w][c].censored
			s.saved += sums[w][c].saved
			s.worse += sums[w][c].worse
			s.better += sums[w][c].better
		}
		t.index[p] = c
		t.values[c] = [figures]float64{float64(s.ft) / n, float64(s.censored) / n, float64(s.saved) / n,
			float64(s.premature) / n, float64(s.worse) / n, float64(s.better) / n}
	}
	return t
}

// Of is the population's value of q; false when a config of q was not
// replayed.
func (t *truthTable) Of(q Quantity) (float64, bool) {
	mix := q.Mix
	if mix == nil {
		mix = []Part{{q.Of, 1}}
	}
	var v float64
	for _, p := range mix {
		a, ok := t.index[p.Of]
		if !ok {
			return 0, false
		}
		v += p.Weight * t.values[a][q.Figure]
	}
	sign := 1.0
	if q.Negated {
		sign = -1
	}
	if !q.Versus {
		return sign * v, true
	}
	b, ok := t.index[q.Base]
	if !ok {
		return 0, false
	}
	return sign * (v - t.values[b][q.Figure]), true
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
