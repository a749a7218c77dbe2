package sweep

import (
	"cmp"
	"math"
	"slices"

	"github.com/lbanalyze/lbanalyze/episode"
)

// front returns the configs of idx no other of idx dominates on (saved ↑:
// turns, or tokens when ranked by them; false terminations ↓, by the high
// bound of their rate, Tally.Unjudged; score forgone ↓), most saved first. A
// config dominates another when it is at least as good on all three and
// better on one; configs with the same three figures are all on the front.
//
// Sorted by what they save, a config can only be dominated by one before it: a
// prefix-minimum tree over the false-termination count answers "is there one
// with no more false terminations and no more score forgone" in O(log n), so
// the front of 100,000 configs takes milliseconds, not a quadratic scan.
func front(cs []Config, idx []int, saved func(*Tally) int64) []int {
	order := slices.Clone(idx)
	maxFT := 0
	for _, i := range order {
		maxFT = max(maxFT, cs[i].Unjudged())
	}
	slices.SortFunc(order, func(a, b int) int {
		x, y := &cs[a].Tally, &cs[b].Tally
		return cmp.Or(cmp.Compare(saved(y), saved(x)), cmp.Compare(x.Unjudged(), y.Unjudged()),
			cmp.Compare(x.ScoreForgone, y.ScoreForgone), cmp.Compare(a, b))
	})
	better := newPrefixMin(maxFT + 1) // configs with strictly more turns saved
	var out []int
	for g := 0; g < len(order); {
		end := g
		for end < len(order) && saved(&cs[order[end]].Tally) == saved(&cs[order[g]].Tally) {
			end++
		}
		// Within the group (same turns saved), sorted by false terminations then
		// score forgone: dominated when an earlier member with other figures
		// forgoes no more score.
		minBefore, runStart := episode.Score(math.Inf(1)), g
		for k := g; k < end; k++ {
			c := &cs[order[k]].Tally
			if k > runStart && !sameFigures(c, &cs[order[runStart]].Tally) {
				for j := runStart; j < k; j++ {
					minBefore = min(minBefore, cs[order[j]].ScoreForgone)
				}
				runStart = k
			}
			if minBefore <= c.ScoreForgone || better.min(c.Unjudged()) <= c.ScoreForgone {
				continue
			}
			out = append(out, order[k])
		}
		for k := g; k < end; k++ {
			c := &cs[order[k]].Tally
			better.set(c.Unjudged(), c.ScoreForgone)
		}
		g = end
	}
	return out
}

func sameFigures(a, b *Tally) bool {
	return a.Unjudged() == b.Unjudged() && a.ScoreForgone == b.ScoreForgone
}

// prefixMin is a Fenwick tree of minima: set(i, v) lowers position i to v,
// min(i) is the least value at positions 0..i.
type prefixMin []episode.Score

func newPrefixMin(n int) prefixMin {
	t := make(prefixMin, n+1)
	for i := range t {
		t[i] = episode.Score(math.Inf(1))
	}
	return t
}

func (t prefixMin) set(i int, v episode.Score) {
	for i++; i < len(t); i += i & -i {
		t[i] = min(t[i], v)
	}
}

func (t prefixMin) min(i int) episode.Score {
	m := episode.Score(math.Inf(1))
	for i++; i > 0; i -= i & -i {
		m = min(m, t[i])
	}
	return m
}
