package sweep

import (
	"math"

	"github.com/lbanalyze/lbanalyze/episode"
)

// chain holds each column but the first as its differences from the column
// before: neighbouring configs of the default grid differ on a fifth (the
// 1,000 synthetic episodes) to a quarter (the bundled set) of the cells, so a
// resample's tallies cost those differences rather than every cell
// (docs/PERFORMANCE.md, "Many episodes"). The differences are kept a field
// at a time: where two cells differ, most often only the turns saved do
// (53,010 of the 73,437 differing fields of the 1,000 synthetic episodes),
// and a field that did not change costs nothing.
//
// It is nil, and the tallies cell by cell, unless every score forgone is
// whole and n of the largest stays under 2^50: then every partial sum,
// differences included (at most 3n of the largest), is a whole number, summed
// exactly in integers and held exactly by a float64, whatever the order, and
// the tallies are tally's to the bit.
type chain struct {
	ft, unk, cens, wo, be, saved diffs[int32]
	forgo, tokens                diffs[int64]
}

// diffs are one field's differences, column c's at d[at[c-1]:at[c]].
type diffs[T int32 | int64] struct {
	at []int32
	d  []diff[T]
}

// diff is how much episode e's cell of a column adds to the column before's.
type diff[T int32 | int64] struct {
	e int32
	d T
}

// add appends episode e's difference d, if any.
func (ds *diffs[T]) add(e int, d T) {
	if d != 0 {
		ds.d = append(ds.d, diff[T]{int32(e), d})
	}
}

// end closes the current column.
func (ds *diffs[T]) end() { ds.at = append(ds.at, int32(len(ds.d))) }

// weigh is column c's difference from the column before under weights w.
func (ds *diffs[T]) weigh(c int, w []int32) int64 {
	var s int64
	for _, x := range ds.d[ds.at[c-1]:ds.at[c]] {
		s += int64(w[x.e]) * int64(x.d)
	}
	return s
}

// chain is f's columns along the chain, nil where it would not be exact.
func (f *figures) chain() *chain {
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
	ch := &chain{}
	all := []*diffs[int32]{&ch.ft, &ch.unk, &ch.cens, &ch.wo, &ch.be, &ch.saved}
	for _, ds := range all {
		ds.end() // column 0: none
	}
	ch.forgo.end()
	ch.tokens.end()
	for c := 1; c < len(f.cells); c++ {
		for e := range f.n {
			x, y := f.cells[c][e], f.cells[c-1][e]
			bit := func(b uint8) int32 { return int32(b2i(x.class&b != 0) - b2i(y.class&b != 0)) }
			ch.ft.add(e, bit(premature))
			ch.unk.add(e, bit(unknown))
			ch.cens.add(e, bit(censored))
			ch.wo.add(e, bit(worse))
			ch.be.add(e, bit(better))
			ch.saved.add(e, x.saved-y.saved)
			ch.forgo.add(e, int64(x.forgo)-int64(y.forgo))
			if f.tokens != nil {
				ch.tokens.add(e, f.tokens[c][e]-f.tokens[c-1][e])
			}
		}
		for _, ds := range all {
			ds.end()
		}
		ch.forgo.end()
		ch.tokens.end()
	}
	return ch
}

// talliesInto sets t[c] to every column's tally over the episodes weighted by
// w (ws lists them): from the first column's, along the chain when there
// is one.
func (f *figures) talliesInto(t []Tally, ch *chain, w []int32, ws *weights) {
	if ch == nil {
		for c := range t {
			t[c] = f.tally(c, ws)
		}
		return
	}
	t[0] = f.tally(0, ws)
	s := t[0]
	forgo := int64(s.ScoreForgone)
	for c := 1; c < len(t); c++ {
		s.FalseTerminations += int(ch.ft.weigh(c, w))
		s.Unknown += int(ch.unk.weigh(c, w))
		s.Censored += int(ch.cens.weigh(c, w))
		s.Worse += int(ch.wo.weigh(c, w))
		s.Better += int(ch.be.weigh(c, w))
		s.TurnsSaved += int(ch.saved.weigh(c, w))
		s.TokensSaved += ch.tokens.weigh(c, w)
		forgo += ch.forgo.weigh(c, w)
		s.ScoreForgone = episode.Score(0).Add(episode.Score(forgo))
		t[c] = s
	}
}
