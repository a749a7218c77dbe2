package policy

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// Counts over the whole run (within=-1, τ²-bench's max_errors), worked by
// hand; the working is in each case's comment.
func TestWholeRun(t *testing.T) {
	for _, c := range []struct {
		name, rule, run string
		want            traced
	}{
		// errors of a: 1, 3, 6; of b: 2, 5, 7 (c at 4 did not error).
		// a's third at 6 nudges; b's third at 7 holds the detection one
		// step on: stop at 7, counted on b.
		{"one action's errors", "errors:times=3:within=-1:action=same:then=1", "a! b! a! c b! a! b! b!",
			traced{stop: 7, reason: `"b" errored 3 times in the whole run; nudged at step 6`, nudged: []int{6}}},
		// Errors at 1 and 3 nudge at 3; d at 4 did not error: the nudge is
		// heeded and the count begins again at 4. Errors at 5, 6 make 2
		// again: a nudge at 6; 7 makes 3 one step on: stop at 7.
		{"heeded, counted afresh", "errors:times=2:within=-1:then=1", "a! b c! d e! f! g!",
			traced{stop: 7, reason: `3 errored steps in the whole run; nudged at step 6`, nudged: []int{3, 6}, broke: []int{4}}},
		// a at 1, 3, 5, with b and c between: the third a stops at 5.
		{"repeat", "repeat:times=3:within=-1", "a b a c a", traced{stop: 5, reason: `"a" 3 times in the whole run`}},
		// three actions, each once: nothing repeats.
		{"each once", "repeat:times=2:within=-1", "a b c", traced{}},
	} {
		if got := trace(t, c.rule, c.run); !same(got, c.want) {
			t.Errorf("%s: %s on %q: %+v, want %+v", c.name, c.rule, c.run, got, c.want)
		}
	}
}

// A count over the whole run keeps one step, however long the run: a step
// costs the same at the 10,000th as at the first, where a count over the
// keys kept would look at all 10,000.
func TestWholeRunKeepsOneStep(t *testing.T) {
	r := newTracker(t, "errors:times=10:within=-1:action=same").(*repeating)
	for i := range 10_000 {
		r.Step(i+1, Observation{Action: fmt.Sprint(i % 2000), Errored: true})
	}
	if len(r.keys) > 1 || len(r.actions) > 1 {
		t.Errorf("%d keys and %d actions kept after 10,000 steps, want 1", len(r.keys), len(r.actions))
	}
}

// The count by key gives, step by step, what counting the equal keys among
// every step kept gives (among over all of them), on random runs of every
// repetition rule with a whole-run count, nudges and heeded nudges among
// them.
func TestWholeRunCountsAsAmong(t *testing.T) {
	rng := rand.New(rand.NewPCG(36, 1))
	rules := []string{"errors", "errors:action=same", "repeat", "repeat-observed"}
	for i := range 2000 {
		rule := fmt.Sprintf("%s:within=-1:times=%d:then=%d", rules[i%len(rules)], 2+rng.IntN(4), rng.IntN(4))
		run := randomRun(rng, 1+rng.IntN(60))
		got, want := newTracker(t, rule), newTracker(t, rule).(*repeating)
		want.seen, want.keep = nil, math.MaxInt
		want.count = func(k []uint64) int { return among(k, math.MaxInt) }
		for j, o := range steps(run) {
			if g, w := got.Step(j+1, o), want.Step(j+1, o); g != w {
				t.Fatalf("%s on %q, step %d: %+v, want %+v", rule, run, j+1, g, w)
			}
		}
	}
}

// randomRun is n steps of 3 actions and 2 responses (or none), a third of
// them errored, as steps spells them.
func randomRun(rng *rand.Rand, n int) string {
	f := make([]string, n)
	for i := range f {
		f[i] = string(rune('a' + rng.IntN(3)))
		if r := rng.IntN(3); r > 0 {
			f[i] += fmt.Sprintf("=%d", r)
		}
		if rng.IntN(3) == 0 {
			f[i] += "!"
		}
	}
	return strings.Join(f, " ")
}

func newTracker(tb testing.TB, rule string) Tracker {
	tb.Helper()
	p, err := Parse(rule, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return p.NewTracker()
}

// BenchmarkWholeRun steps τ²-bench's errors rule (10 errors in the whole
// run) and one of one action's errors through 200,000 steps, every other
// one errored among 25,000 actions, and on past a stop as TraceOn does:
// the cost of a count over the whole run on a long one.
func BenchmarkWholeRun(b *testing.B) {
	obs := make([]Observation, 200_000)
	for i := range obs {
		obs[i] = Observation{Action: fmt.Sprint(i % 25_000), Errored: i%2 == 0}
	}
	for _, rule := range []string{"errors:times=10:within=-1", "errors:times=10:within=-1:action=same"} {
		b.Run(rule, func(b *testing.B) {
			for b.Loop() {
				tr := newTracker(b, rule)
				for i, o := range obs {
					tr.Step(i+1, o)
				}
			}
		})
	}
}
