package sweep

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/policy"
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
	eps := ordered(bundled(t))
	r := Run(eps, defaultGrid(), current, opts())
	cases := map[string]*figures{"hand-made": hand, "bundled": r.figures(eps, all(len(r.Configs)), nil)}
	for name, f := range cases {
		ch := f.chain()
		if ch == nil {
			t.Fatalf("%s: no chain, though every score forgone is whole", name)
		}
		rng := rand.New(rand.NewPCG(1, 2))
		w := [2][]int32{make([]int32, f.n), make([]int32, f.n)}
		ws := [2]*weights{{}, {}}
		got := [2][]Tally{make([]Tally, len(f.cells)), make([]Tally, len(f.cells))}
		for b := 0; b < 20; b += 2 {
			for k := range w {
				if b+k == 0 {
					for e := range w[k] {
						w[k][e] = int32(e % 2) // a subset: every other episode
					}
				} else {
					resample(rng, w[k])
				}
				ws[k].of(w[k])
			}
			f.talliesInto(&got, ch, &w, &ws)
			for k := range got {
				for c := range got[k] {
					if want := f.tally(c, ws[k]); got[k][c] != want {
						t.Fatalf("%s, weights %d, column %d: chain %+v, tally %+v", name, b+k, c, got[k][c], want)
					}
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

// TestKeptCellsAsReplayed: the cells the replay of every config keeps for
// the answer are those the answer's figures replay again, every column and
// the tokens' too, on the bundled episodes with and without tokens recorded
// (3 per turn, and 7 more every fifth). Each column is kept as Run keeps it:
// the configs' by evaluate, now's by summed from now's first replay.
func TestKeptCellsAsReplayed(t *testing.T) {
	bare := bundled(t)
	tokened := make([]*episode.Episode, len(bare))
	for i, ep := range bare {
		c := *ep
		c.Turns = slices.Clone(ep.Turns)
		for u := range c.Turns {
			c.Turns[u].Tokens = int64(3 + 7*b2i(u%5 == 0))
		}
		c.Signals = c.Signals.With(episode.Tokens)
		tokened[i] = &c
	}
	for name, eps := range map[string][]*episode.Episode{"bundled": bare, "with tokens": tokened} {
		o := opts()
		o.ByTokens = name == "with tokens"
		r := Run(eps, defaultGrid(), current, o)
		eps = ordered(eps)
		ps := make([]policy.Policy, len(r.Configs))
		for i := range ps {
			ps[i] = r.Configs[i].Policy
		}
		kept := r.newFigures(eps, len(ps)+1)
		r.evaluate(eps, ps, kept)
		r.summed(eps, r.Current.Policy, r.replayNow(eps, r.Current.Policy), kept)
		replayed := r.figures(eps, all(len(ps)), nil)
		if o.ByTokens && !slices.ContainsFunc(replayed.tokens, func(col []int64) bool { return slices.ContainsFunc(col, func(x int64) bool { return x > 0 }) }) {
			t.Fatalf("%s: no tokens saved in any cell", name)
		}
		for c := range replayed.cells {
			if !slices.Equal(kept.cells[c], replayed.cells[c]) || o.ByTokens && !slices.Equal(kept.tokens[c], replayed.tokens[c]) {
				t.Errorf("%s: column %d kept differs from replayed", name, c)
			}
		}
	}
}
