package sweep

import (
	"math"

	"github.com/lbanalyze/lbanalyze/episode"
)

// link is where column c's cell on episode e differs from column c−1's,
// as the difference of what a tally counts.
type link struct {
	e                     int32
	saved                 int32
	ft, unk, cens, wo, be int8
	forgo                 float64
	tokens                int64
}

// chain holds each column but the first as its differences from the column
// before: neighbouring configs of the default grid differ on a fifth (the
// 1,000 synthetic episodes) to a quarter (the bundled set) of the cells, so a
// resample's tallies cost those differences rather than every cell
// (docs/PERFORMANCE.md, "Many episodes"). It is nil, and the tallies cell by
// cell, unless every score forgone is whole and n of the largest stays under
// 2^50: then every partial sum, differences included (at most 3n of the
// largest), is a whole number a float64 holds exactly, whatever the order,
// and the tallies are tally's to the bit.
func (f *figures) chain() [][]link {
	var most float64
	for _, col := range f.cells {
		for _, x := range col {
			v := math.Abs(float64(x.forgo))
			if v != math.Trunc(v) {
				return nil
			}
			most = max(most, v)
		}
	}
	if most*float64(f.n) >= 1<<50 {
		return nil
	}
	links := make([][]link, len(f.cells))
	for c := 1; c < len(f.cells); c++ {
		for e := range f.n {
			if d, ok := f.link(c, e); ok {
				links[c] = append(links[c], d)
			}
		}
	}
	return links
}

// link is column c's cell on episode e less column c−1's, and whether they
// differ.
func (f *figures) link(c, e int) (link, bool) {
	x, y := f.cells[c][e], f.cells[c-1][e]
	var tok int64
	if f.tokens != nil {
		tok = f.tokens[c][e] - f.tokens[c-1][e]
	}
	if x == y && tok == 0 {
		return link{}, false
	}
	bit := func(b uint8, shift uint) int8 { return int8(x.class&b>>shift) - int8(y.class&b>>shift) }
	return link{e: int32(e), saved: x.saved - y.saved, ft: bit(premature, 0), unk: bit(unknown, 1), cens: bit(censored, 2),
		wo: bit(worse, 3), be: bit(better, 4), forgo: float64(x.forgo) - float64(y.forgo), tokens: tok}, true
}

// talliesInto sets t[c] to every column's tally over the episodes weighted by
// w (ws lists them): from the first column's, along the chain when there
// is one.
func (f *figures) talliesInto(t []Tally, links [][]link, w []int32, ws *weights) {
	if links == nil {
		for c := range t {
			t[c] = f.tally(c, ws)
		}
		return
	}
	t[0] = f.tally(0, ws)
	s := t[0]
	forgo := float64(s.ScoreForgone)
	for c := 1; c < len(t); c++ {
		for _, d := range links[c] {
			k := int(w[d.e]) // 0 for a third: multiplied, not branched on
			s.FalseTerminations += k * int(d.ft)
			s.Unknown += k * int(d.unk)
			s.Censored += k * int(d.cens)
			s.Worse += k * int(d.wo)
			s.Better += k * int(d.be)
			s.TurnsSaved += k * int(d.saved)
			forgo += float64(k) * d.forgo
			s.TokensSaved += int64(k) * d.tokens
		}
		s.ScoreForgone = episode.Score(0).Add(episode.Score(forgo))
		t[c] = s
	}
}
