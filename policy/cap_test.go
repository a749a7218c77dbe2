package policy

import (
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
)

// TestCaps steps each cap through a hand-worked run and says where it stops
// (0: never). The run has 5 steps; step t spends tokens 100·t (100, 200,
// 300, 400, 500: 100, 300, 600, 1000, 1500 in all), dollars 0.01·t (0.01,
// 0.03, 0.06, 0.10, 0.15 in all), and ends at 10, 25, 30, 50 and 80 s.
//
//   - steps:max=3 stops at step 3; max=5 is the last step: a run that ended
//     there by itself is not stopped, one its cap cut is (at 5); max=6 never.
//   - tokens:max=600 reaches it at step 3 (600 ≥ 600); max=601 at step 4.
//   - cost:max=0.1 at step 4 (0.10 ≥ 0.1); max=0.0999 at step 4 too (0.06
//     < 0.0999 ≤ 0.10); max=0.01 at step 1.
//   - time:max=30 at step 3 (ends at 30 s); max=31 at step 4 (50 s); max=80
//     at step 5, only when the log is cut.
//   - max=0 is off for each: never.
func TestCaps(t *testing.T) {
	ends := []float64{10, 25, 30, 50, 80}
	run := func(p Policy, cut bool) int {
		tr := p.NewTracker()
		for i := 1; i <= 5; i++ {
			o := Observation{Tokens: int64(100 * i), Cost: 0.01 * float64(i), Elapsed: ends[i-1], Last: i == 5 && !cut}
			if tr.Step(i, o).Terminate {
				return i
			}
		}
		return 0
	}
	cases := []struct {
		spec  string
		whole int // where it stops on the run that ended by itself
		cut   int // where it stops when the log was cut after step 5
	}{
		{"steps:max=3", 3, 3}, {"steps:max=5", 0, 5}, {"steps:max=6", 0, 0}, {"steps", 0, 0},
		{"tokens:max=600", 3, 3}, {"tokens:max=601", 4, 4}, {"tokens:max=1500", 0, 5},
		{"cost:max=0.1", 4, 4}, {"cost:max=0.0999", 4, 4}, {"cost:max=0.01", 1, 1}, {"cost:max=0", 0, 0},
		{"time:max=30", 3, 3}, {"time:max=31", 4, 4}, {"time:max=80", 0, 5}, {"time:max=81", 0, 0},
	}
	for _, c := range cases {
		p, err := Parse(c.spec, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := run(p, false); got != c.whole {
			t.Errorf("%s: stops at %d, want %d", c.spec, got, c.whole)
		}
		if got := run(p, true); got != c.cut {
			t.Errorf("%s on a cut log: stops at %d, want %d", c.spec, got, c.cut)
		}
	}
}

// TestCapSettings: each cap's max is its own, written as the policy's
// (steps max 3, cost max 0.25), refused below 1 step of it, and its signal
// needed only while on.
func TestCapSettings(t *testing.T) {
	cases := []struct {
		spec, written string
		needs         episode.Signals
	}{
		{"steps:max=3", "steps max 3", 0},
		{"tokens:max=5000", "tokens max 5000", episode.Signals(episode.Tokens)},
		{"cost:max=0.25", "cost max 0.25", episode.Signals(episode.Costs)},
		{"time:max=600", "time max 600", episode.Signals(episode.Times)},
		{"cost", "cost", 0},
	}
	for _, c := range cases {
		p, err := Parse(c.spec, nil)
		if err != nil {
			t.Fatal(err)
		}
		if p.String() != c.written || p.Needs() != c.needs {
			t.Errorf("%s: written %q, needs %v", c.spec, p.String(), p.Needs().List())
		}
	}
	for _, bad := range []string{"steps:max=-1", "cost:max=0.00001", "steps:max_turns_stuck=3", "score:max=3"} {
		if _, err := Parse(bad, nil); err == nil {
			t.Errorf("%s: accepted", bad)
		}
	}
}
