package policy

import (
	"github.com/lbanalyze/lbanalyze/episode"
	"slices"
	"testing"
)

// zb is zorkburr at W/I.
func zb(w, interval int) Policy { return pol(Zorkburr, w, interval) }

// TestZorkburrAgainstScore replays hand-worked sequences under zorkburr and,
// beside them, under score (ZorkGPT's tracker), to show where they differ.
// Every expected value is worked out from the rule in docs/zorkgpt2.md, not
// read off the code: c(t) is turns_since_progress after turn t, and turn t
// stops when t % I == 0 and max(c(t−1), c(t)) ≥ W.
func TestZorkburrAgainstScore(t *testing.T) {
	for _, c := range []struct {
		name             string
		w, interval      int
		sc               scenario
		zorkburr, scored result
	}{
		// c(t) = t: at the check turn 40, max(39, 40) = 40. ZorkGPT's timer is
		// 40 at 40 too.
		{"nothing happens", 40, 10, scenario{}, result{40, 40, nil}, result{40, 40, nil}},
		// A change in turn 1 counts for zorkburr: c(1) = 0, c(t) = t−1, so
		// the first check turn with t−1 ≥ 40 is 50, where max(48, 49) = 49.
		// ZorkGPT's first call only initialises: 40 (40), no reset.
		{"score change in turn 1", 40, 10, scenario{changes: map[int]int{1: 5}},
			result{50, 49, []string{"score_change@1"}}, result{40, 40, nil}},
		// Turn 2 is the first change both see: anchor 2, c(t) = t−2; the
		// first check turn with t−2 ≥ 40 is 50: max(47, 48) = 48.
		{"score change in turn 2", 40, 10, scenario{changes: map[int]int{2: 5}},
			result{50, 48, []string{"score_change@2"}}, result{50, 48, []string{"score_change@2"}}},
		// Any non-zero delta resets, a death's −10 included: 10 at 5, 0 at
		// 30, then flat: anchor 30, stop at 70 with max(39, 40) = 40.
		{"death penalty resets", 40, 10, scenario{changes: map[int]int{5: 10, 30: 0}},
			result{70, 40, []string{"score_change@5", "score_change@30"}},
			result{70, 40, []string{"score_change@5", "score_change@30"}}},
		// A change at 49, the turn before a check: c(49) = 0, c(50) = 1,
		// no stop at 50; anchor 49, stop at 90 with max(40, 41) = 41 —
		// ZorkGPT's timer is 90 − 49 = 41 there too.
		{"change the turn before a check", 40, 10, scenario{changes: map[int]int{9: 5, 49: 10}},
			result{90, 41, []string{"score_change@9", "score_change@49"}},
			result{90, 41, []string{"score_change@9", "score_change@49"}}},
		// Interval 7: the checks are 7, 14, …, 42; c(41) = 41, c(42) = 42.
		{"interval 7", 40, 7, scenario{}, result{42, 42, nil}, result{42, 42, nil}},
		// W 1: turn 1 is a check turn (interval 1); c(0) = 0, c(1) = 1 ≥ 1.
		{"W 1", 1, 1, scenario{}, result{1, 1, nil}, result{1, 1, nil}},
		// W 1 with a change in turn 1: max(c(0), c(1)) = 0, then c(2) = 1 at
		// turn 2. ZorkGPT's timer is 1 − 0 = 1 at turn 1 (the change is not
		// seen).
		{"W 1, change in turn 1", 1, 1, scenario{changes: map[int]int{1: 5}},
			result{2, 1, []string{"score_change@1"}}, result{1, 1, nil}},
		// Objectives never reset the counter: c(40) = 40.
		{"objective", 40, 10, scenario{objectives: []int{35}}, result{40, 40, nil}, result{40, 40, nil}},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, x := range []struct {
				p    Policy
				want result
			}{{zb(c.w, c.interval), c.zorkburr}, {pol(Score, c.w, c.interval), c.scored}} {
				got := replay(x.p, c.sc)
				if got.turn != x.want.turn || got.stuck != x.want.stuck || !slices.Equal(got.resets, x.want.resets) {
					t.Errorf("%s: stop %d (%d) resets %v; want %d (%d) %v", x.p, got.turn, got.stuck, got.resets,
						x.want.turn, x.want.stuck, x.want.resets)
				}
			}
		})
	}
}

// TestQuirkZorkburrCheckTurn pins the check-turn quirk: the check after
// execute_action sees turn_count t with the counter of t−1, so a score gained
// on a check turn does not save an episode whose counter reached W the turn
// before. Score 5 at turn 9, then flat: c(49) = 49 − 9 = 40 on turn 49 (no
// check); turn 50 gains 5 (c(50) = 0), but the check at 50 has already seen
// 40 ≥ 40: stop at 50, turns stuck 40. ZorkGPT's tracker resets first: its
// anchor moves to 50 and it stops at 90 (40).
func TestQuirkZorkburrCheckTurn(t *testing.T) {
	sc := scenario{changes: map[int]int{9: 5, 50: 10}}
	if got := replay(zb(40, 10), sc); got.turn != 50 || got.stuck != 40 {
		t.Errorf("zorkburr: stop %d (%d), want 50 (40)", got.turn, got.stuck)
	}
	if got := replay(pol(Score, 40, 10), sc); got.turn != 90 || got.stuck != 40 {
		t.Errorf("score: stop %d (%d), want 90 (40)", got.turn, got.stuck)
	}
	// One turn later the counter is only 39 at 49: the gain at 50 saves it
	// (max(39, 0) < 40), and the anchor 50 gives a stop at 90 (max(39, 40)).
	sc = scenario{changes: map[int]int{10: 5, 50: 10}}
	if got := replay(zb(40, 10), sc); got.turn != 90 || got.stuck != 40 {
		t.Errorf("zorkburr, counter 39 before the gain: stop %d (%d), want 90 (40)", got.turn, got.stuck)
	}
}

// TestZorkburrCountdown: the prompt's countdown shows from 30 turns stuck,
// counted before the turn: with nothing happening c(30) = 30, so turn 31 is
// the first warned. A change at 20 puts it at 51.
func TestZorkburrCountdown(t *testing.T) {
	for _, c := range []struct {
		sc   scenario
		want int
	}{{scenario{}, 31}, {scenario{changes: map[int]int{20: 5}}, 51}} {
		tr := zb(1000, 10).NewTracker()
		first, score := 0, 0
		for turn := 1; turn <= 100 && first == 0; turn++ {
			if v, ok := c.sc.changes[turn]; ok {
				score = v
			}
			if tr.Step(turn, Observation{Score: episode.Score(score)}).Warned {
				first = turn
			}
		}
		if first != c.want {
			t.Errorf("%v: first warned turn %d, want %d", c.sc.changes, first, c.want)
		}
	}
}

func TestZorkburrSettings(t *testing.T) {
	p, err := Parse("zorkburr:60/5", nil)
	if err != nil || p.MaxTurnsStuck() != 60 || p.CheckInterval() != 5 || p.String() != "zorkburr 60/5" {
		t.Fatalf("Parse(zorkburr:60/5) = %v (%q), %v", p, p.String(), err)
	}
	if _, err := Parse("zorkburr:40/10/30", nil); err == nil {
		t.Error("zorkburr took a warning threshold: its countdown is fixed in ZorkGPT2's prompt")
	}
}
