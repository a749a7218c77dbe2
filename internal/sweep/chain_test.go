package sweep

import (
	"math/rand/v2"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
)

// TestChainTallies checks the tallies along the chain against tally's,
// column by column, on bootstrap resamples and a subset: on hand-made
// figures whose columns differ in every counted field (tokens too), on the
// bundled episodes over the default grid, and that a fractional score
// forgone, or one too large for the float sums to stay exact, leaves no
// chain.
func TestChainTallies(t *testing.T) {
	hand := &figures{n: 4, cells: [][]cell{
		{{saved: 3, class: premature | worse}, {forgo: 2, class: unknown}, {}, {saved: 1, class: censored}},
		{{saved: 5}, {forgo: 7, saved: 2, class: better}, {}, {class: unknown | worse}},
		{{saved: 5}, {forgo: -1, class: premature}, {saved: 9}, {class: censored}},
	}, tokens: [][]int64{{10, 0, 0, 4}, {0, 30, 0, 4}, {0, 30, 7, 0}}}
	eps := bundled(t)
	r := Run(eps, defaultGrid(), current, opts())
	cases := map[string]*figures{"hand-made": hand, "bundled": r.figures(eps, all(len(r.Configs)))}
	for name, f := range cases {
		ch := f.chain()
		if ch == nil {
			t.Fatalf("%s: no chain, though every score forgone is whole", name)
		}
		rng := rand.New(rand.NewPCG(1, 2))
		w, ws := make([]int32, f.n), &weights{}
		got, want := make([]Tally, len(f.cells)), make([]Tally, len(f.cells))
		for b := range 20 {
			if b == 0 {
				for e := range w {
					w[e] = int32(e % 2) // a subset: every other episode
				}
			} else {
				resample(rng, w)
			}
			ws.of(w)
			f.talliesInto(got, ch, w, ws)
			for c := range want {
				want[c] = f.tally(c, ws)
			}
			for c := range want {
				if got[c] != want[c] {
					t.Fatalf("%s, weights %d, column %d: chain %+v, tally %+v", name, b, c, got[c], want[c])
				}
			}
		}
	}
	hand.cells[2][1].forgo = 0.5
	if hand.chain() != nil {
		t.Error("a chain over a fractional score forgone")
	}
	// 2^48 on 4 episodes is 2^50, past which a partial sum might not be
	// held exactly; 2^47 is under it.
	for _, c := range []struct {
		forgo episode.Score
		chain bool
	}{{1 << 48, false}, {1 << 47, true}} {
		hand.cells[2][1].forgo = c.forgo
		if got := hand.chain() != nil; got != c.chain {
			t.Errorf("score forgone %v on %d episodes: chain %v, want %v", float64(c.forgo), hand.n, got, c.chain)
		}
	}
}
