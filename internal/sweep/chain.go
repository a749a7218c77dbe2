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

// weigh is column c's difference from the column before under each of the
// two weightings w, from one pass over the differences.
func (ds *diffs[T]) weigh(c int, w *[2][]int32) [2]int64 {
	var s0, s1 int64
	w0, w1 := w[0], w[1]
	for _, x := range ds.d[ds.at[c-1]:ds.at[c]] {
		d := int64(x.d)
		s0 += int64(w0[x.e]) * d
		s1 += int64(w1[x.e]) * d
	}
	return [2]int64{s0, s1}
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

// talliesInto sets t[k][c] to every column's tally over the episodes
// weighted by w[k] (ws[k] lists them), for two weightings k at once (one
// given twice for one): from the first column's, along the chain when there
// is one, where a pass over a column's differences serves both resamples,
// their weights read from memory once a difference rather than its
// difference once a resample (docs/PERFORMANCE.md, "Many episodes").
func (f *figures) talliesInto(t *[2][]Tally, ch *chain, w *[2][]int32, ws *[2]*weights) {
	if ch == nil {
		for k := range t {
			for c := range t[k] {
				t[k][c] = f.tally(c, ws[k])
			}
		}
		return
	}
	var s [2]Tally
	var forgo [2]int64
	for k := range t {
		t[k][0] = f.tally(0, ws[k])
		s[k], forgo[k] = t[k][0], int64(t[k][0].ScoreForgone)
	}
	for c := 1; c < len(t[0]); c++ {
		ft, unk, cens := ch.ft.weigh(c, w), ch.unk.weigh(c, w), ch.cens.weigh(c, w)
		wo, be, saved := ch.wo.weigh(c, w), ch.be.weigh(c, w), ch.saved.weigh(c, w)
		tokens, fg := ch.tokens.weigh(c, w), ch.forgo.weigh(c, w)
		for k := range s {
			x := &s[k]
			x.FalseTerminations += int(ft[k])
			x.Unknown += int(unk[k])
			x.Censored += int(cens[k])
			x.Worse += int(wo[k])
			x.Better += int(be[k])
			x.TurnsSaved += int(saved[k])
			x.TokensSaved += tokens[k]
			forgo[k] += fg[k]
			x.ScoreForgone = episode.Score(0).Add(episode.Score(forgo[k]))
			t[k][c] = *x
		}
	}
}
