package policy

import (
	"slices"
	"testing"
)

// scenario is a turn sequence: the score changes to changes[t] at turn t (and
// stays there), objectives lists the completed_turn of each objective_completed.
type scenario struct {
	changes    map[int]int
	objectives []int
	turns      int // how many turns the episode has; 200 when 0
}

type result struct {
	turn, stuck int      // termination turn and turns_stuck, 0 when none
	resets      []string // "score_change@2", "objective_progress_reset@35", up to termination
}

// replay is the walk of sc, in one room.
func replay(p Policy, sc scenario) result {
	return walk{changes: sc.changes, objectives: sc.objectives, turns: sc.turns}.run(p)
}

func pol(name Name, w, interval int) Policy {
	return Policy{Name: name}.WithTimer(Timer{MaxTurnsStuck: w, CheckInterval: interval, WarningThreshold: 20})
}

var (
	v1 = pol(Score, 40, 10)            // 09a7cc2
	v2 = pol(ScoreOrObjective, 40, 10) // 36546b7 / HEAD
)

// TestShippedResults replays every scenario of docs/semantics.md, "5.6 Worked results", the
// results of running ZorkGPT's own functions from 09a7cc2 and HEAD. The
// expected values are that table's, not this code's.
func TestShippedResults(t *testing.T) {
	for _, c := range []struct {
		name   string
		p      Policy
		sc     scenario
		turn   int
		stuck  int
		resets []string
	}{
		{"nothing happens/v1", v1, scenario{}, 40, 40, nil},
		{"nothing happens/v2", v2, scenario{}, 40, 40, nil},
		{"score changes only during turn 1/v1", v1, scenario{changes: map[int]int{1: 5}}, 40, 40, nil},
		{"score changes only during turn 1/v2", v2, scenario{changes: map[int]int{1: 5}}, 40, 40, nil},
		{"score change at turn 2/v1", v1, scenario{changes: map[int]int{2: 5}}, 50, 48, []string{"score_change@2"}},
		{"score change at turn 2/v2", v2, scenario{changes: map[int]int{2: 5}}, 50, 48, []string{"score_change@2"}},
		{"+5 at 15, -5 at 30/v1", v1, scenario{changes: map[int]int{15: 5, 30: 0}}, 70, 40, []string{"score_change@15", "score_change@30"}},
		{"+5 at 15, -5 at 30/v2", v2, scenario{changes: map[int]int{15: 5, 30: 0}}, 70, 40, []string{"score_change@15", "score_change@30"}},
		{"score change at 40/v1", v1, scenario{changes: map[int]int{40: 5}}, 80, 40, []string{"score_change@40"}},
		{"score change at 40/v2", v2, scenario{changes: map[int]int{40: 5}}, 80, 40, []string{"score_change@40"}},
		{"objective completed at 35/v1", v1, scenario{objectives: []int{35}}, 40, 40, nil},
		{"objective completed at 35/v2", v2, scenario{objectives: []int{35}}, 80, 44,
			[]string{"objective_progress_reset@35", "objective_progress_reset@36"}},
		{"objective completed at 39/v1", v1, scenario{objectives: []int{39}}, 40, 40, nil},
		{"objective completed at 39/v2", v2, scenario{objectives: []int{39}}, 80, 40,
			[]string{"objective_progress_reset@39", "objective_progress_reset@40"}},
		{"objective completed at 40/v1", v1, scenario{objectives: []int{40}}, 40, 40, nil},
		{"objective completed at 40/v2", v2, scenario{objectives: []int{40}}, 90, 49,
			[]string{"objective_progress_reset@40", "objective_progress_reset@41"}},
		{"objectives at 35 and 36/v2", v2, scenario{objectives: []int{35, 36}}, 80, 43,
			[]string{"objective_progress_reset@35", "objective_progress_reset@36", "objective_progress_reset@37"}},
		{"objective at 36, interval 1/v1", pol(Score, 40, 1), scenario{objectives: []int{36}}, 40, 40, nil},
		{"objective at 36, interval 1/v2", pol(ScoreOrObjective, 40, 1), scenario{objectives: []int{36}}, 77, 40,
			[]string{"objective_progress_reset@36", "objective_progress_reset@37"}},
		{"objective at 1/v1", v1, scenario{objectives: []int{1}}, 40, 40, nil},
		{"objective at 1/v2", v2, scenario{objectives: []int{1}}, 50, 48, []string{"objective_progress_reset@2"}},
		{"score change and objective both at 35/v1", v1, scenario{changes: map[int]int{35: 5}, objectives: []int{35}}, 80, 45,
			[]string{"score_change@35"}},
		{"score change and objective both at 35/v2", v2, scenario{changes: map[int]int{35: 5}, objectives: []int{35}}, 80, 44,
			[]string{"score_change@35", "objective_progress_reset@36"}},
		// enable_objective_based_progress = false is the score policy.
		{"objective at 35, feature off", v1, scenario{objectives: []int{35}}, 40, 40, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := replay(c.p, c.sc)
			want := result{c.turn, c.stuck, c.resets}
			if got.turn != want.turn || got.stuck != want.stuck || !slices.Equal(got.resets, want.resets) {
				t.Errorf("got stop %d (%d stuck) resets %v; want stop %d (%d stuck) resets %v",
					got.turn, got.stuck, got.resets, want.turn, want.stuck, want.resets)
			}
		})
	}
}

// The tests below are named after the quirks of docs/semantics.md, "5.5 Semantics and quirks" and
// docs/semantics.md, "5.9 Cases that a careful reimplementation still gets wrong"; each one was seen to break a plausible reimplementation.

func TestQuirkFirstCallOnlyInitialises(t *testing.T) { // docs/semantics.md, "5.5.1 The first call only initialises", docs/semantics.md, "5.9 Cases that a careful reimplementation still gets wrong", item 1
	// A flat run stops at 40 exactly; one change at turn 2 moves it to 50.
	if r := replay(v1, scenario{}); r.turn != 40 || r.stuck != 40 {
		t.Errorf("flat run: stop %d (%d), want 40 (40)", r.turn, r.stuck)
	}
	if r := replay(v1, scenario{changes: map[int]int{2: 5}}); r.turn != 50 {
		t.Errorf("change at 2: stop %d, want 50", r.turn)
	}
	// The baseline is the score after turn 1, so a non-zero start (a restored
	// game) is no change, and neither is a change during turn 1.
	for _, sc := range []scenario{{changes: map[int]int{1: 25}}, {changes: map[int]int{1: -10}}} {
		if r := replay(v2, sc); r.turn != 40 || len(r.resets) != 0 {
			t.Errorf("%v: stop %d resets %v, want 40 and none", sc.changes, r.turn, r.resets)
		}
	}
}

func TestQuirkTrackingRunsBeforeTheCheck(t *testing.T) { // docs/semantics.md, "5.5.9 When the stuck check runs", docs/semantics.md, "5.9 Cases that a careful reimplementation still gets wrong", item 2
	for _, p := range []Policy{v1, v2} {
		if r := replay(p, scenario{changes: map[int]int{40: 5}}); r.turn != 80 {
			t.Errorf("%s: a change on check turn 40 must prevent termination there: stop %d, want 80", p, r.turn)
		}
	}
}

func TestQuirkAnyScoreChangeCounts(t *testing.T) { // docs/semantics.md, "5.5.3 Any score change counts", docs/semantics.md, "5.9 Cases that a careful reimplementation still gets wrong", item 3
	// +5 at 15 then -5 at 31 re-anchors twice: anchor 31, first check >= 71 is 80.
	r := replay(v1, scenario{changes: map[int]int{15: 5, 31: 0}})
	if r.turn != 80 || r.stuck != 49 {
		t.Errorf("+5@15 -5@31: stop %d (%d), want 80 (49)", r.turn, r.stuck)
	}
	// Dropping back to an old value is a change too (a death penalty).
	r = replay(v1, scenario{changes: map[int]int{5: 10, 6: 0}, turns: 45})
	if want := []string{"score_change@5", "score_change@6"}; !slices.Equal(r.resets, want) {
		t.Errorf("resets %v, want %v", r.resets, want)
	}
	// A death penalty on the last logged turn is a change.
	r = replay(v1, scenario{changes: map[int]int{45: -10}, turns: 45})
	if r.turn != 40 {
		t.Errorf("flat to 40: stop %d, want 40", r.turn)
	}
	r = replay(v1, scenario{changes: map[int]int{39: -10}, turns: 39})
	if want := []string{"score_change@39"}; !slices.Equal(r.resets, want) {
		t.Errorf("penalty on last turn: resets %v, want %v", r.resets, want)
	}
}

func TestQuirkObjectiveResetsTwice(t *testing.T) { // docs/semantics.md, "5.5.6 v2: one completion resets the timer twice", docs/semantics.md, "5.9 Cases that a careful reimplementation still gets wrong", item 4
	r := replay(v2, scenario{objectives: []int{35}})
	if want := []string{"objective_progress_reset@35", "objective_progress_reset@36"}; !slices.Equal(r.resets, want) {
		t.Errorf("resets %v, want %v", r.resets, want)
	}
	// An objective exactly max_turns_stuck before a check does not let that
	// check fire: completed at 40, the check at 80 sees 80-41 = 39.
	if r := replay(v2, scenario{objectives: []int{40}}); r.turn != 90 || r.stuck != 49 {
		t.Errorf("objective at 40: stop %d (%d), want 90 (49)", r.turn, r.stuck)
	}
	// A completion on the last turn resets only once.
	r = replay(v2, scenario{objectives: []int{30}, turns: 30})
	if want := []string{"objective_progress_reset@30"}; !slices.Equal(r.resets, want) {
		t.Errorf("completion on the last turn: resets %v, want %v", r.resets, want)
	}
}

func TestQuirkSeveralObjectivesInOneTurnCountOnce(t *testing.T) { // docs/semantics.md, "5.5.6 v2: one completion resets the timer twice", docs/semantics.md, "5.9 Cases that a careful reimplementation still gets wrong", item 5
	// The tracker sees "an objective at t"; three at 35 are one.
	single := replay(v2, scenario{objectives: []int{35}})
	if single.turn != 80 || single.stuck != 44 {
		t.Errorf("one objective at 35: stop %d (%d), want 80 (44)", single.turn, single.stuck)
	}
	// Consecutive-turn objectives keep pushing the anchor: 35, 36, 37 -> anchor 38.
	r := replay(v2, scenario{objectives: []int{35, 36, 37}})
	if r.turn != 80 || r.stuck != 42 || len(r.resets) != 4 {
		t.Errorf("objectives at 35-37: stop %d (%d) resets %v, want 80 (42) and 4 resets", r.turn, r.stuck, r.resets)
	}
}

func TestQuirkObjectiveWithScoreChange(t *testing.T) { // docs/semantics.md, "5.9 Cases that a careful reimplementation still gets wrong", item 6
	// Same turn: the score branch wins at k, the objective branch re-anchors at k+1.
	r := replay(v2, scenario{changes: map[int]int{35: 5}, objectives: []int{35}})
	if r.turn != 80 || r.stuck != 44 {
		t.Errorf("both at 35: stop %d (%d), want 80 (44)", r.turn, r.stuck)
	}
	// An objective at k followed by a score change at k+1 is the same as score-only.
	sc := scenario{changes: map[int]int{36: 5}, objectives: []int{35}}
	a, b := replay(v2, sc), replay(v1, sc)
	if a.turn != b.turn || a.stuck != b.stuck || a.turn != 80 || a.stuck != 44 {
		t.Errorf("objective at 35, change at 36: v2 %d (%d), v1 %d (%d), want both 80 (44)", a.turn, a.stuck, b.turn, b.stuck)
	}
}

func TestQuirkObjectiveAtTurnOne(t *testing.T) { // docs/semantics.md, "5.5.6 v2: one completion resets the timer twice", docs/semantics.md, "5.9 Cases that a careful reimplementation still gets wrong", item 7
	r := replay(v2, scenario{objectives: []int{1}})
	if r.turn != 50 || r.stuck != 48 || !slices.Equal(r.resets, []string{"objective_progress_reset@2"}) {
		t.Errorf("objective at 1: stop %d (%d) resets %v, want 50 (48) [objective_progress_reset@2]", r.turn, r.stuck, r.resets)
	}
}

func TestQuirkOnlyCompletionsSoFarCount(t *testing.T) { // docs/semantics.md, "5.9 Cases that a careful reimplementation still gets wrong", item 8
	// An objective at 100 must not keep the episode alive at 40.
	if r := replay(v2, scenario{objectives: []int{100}}); r.turn != 40 {
		t.Errorf("objective at 100: stop %d, want 40", r.turn)
	}
}

func TestQuirkTurnsStuckIsTheRealCount(t *testing.T) { // docs/semantics.md, "5.9 Cases that a careful reimplementation still gets wrong", item 10
	// The interval does not divide the threshold: checks at 7, 14, …, 42.
	if r := replay(pol(Score, 40, 7), scenario{}); r.turn != 42 || r.stuck != 42 {
		t.Errorf("40/7: stop %d (%d), want 42 (42)", r.turn, r.stuck)
	}
	// With defaults turns_stuck is always in [40, 49]: anchor 17 stops at 60 with 43.
	if r := replay(v1, scenario{changes: map[int]int{17: 5}}); r.turn != 60 || r.stuck != 43 {
		t.Errorf("change at 17: stop %d (%d), want 60 (43)", r.turn, r.stuck)
	}
}

func TestQuirkWindowFlagsUnused(t *testing.T) { // docs/semantics.md, "5.5.7 v2: the progress window is computed but ignored"
	// The code stops at the first check T with T - max(score change, c+1) >= 40;
	// the documented rule (window) uses c. They differ when c % 10 == 0.
	w := pol(Window, 40, 10)
	if r := replay(w, scenario{objectives: []int{40}}); r.turn != 80 || r.stuck != 40 {
		t.Errorf("window, objective at 40: stop %d (%d), want 80 (40)", r.turn, r.stuck)
	}
	if r := replay(v2, scenario{objectives: []int{40}}); r.turn != 90 {
		t.Errorf("shipped, objective at 40: stop %d, want 90", r.turn)
	}
	// docs/semantics.md, "5.6 Worked results": objective at 36 with interval 1: the doc formula gives 76, the code 77.
	if r := replay(pol(Window, 40, 1), scenario{objectives: []int{36}}); r.turn != 76 {
		t.Errorf("window interval 1, objective at 36: stop %d, want 76", r.turn)
	}
}

func TestQuirkFeatureOffIsScoreOnly(t *testing.T) { // docs/semantics.md, "5.5.8 Objective progress switched off"
	sc := scenario{changes: map[int]int{12: 5, 45: 10}, objectives: []int{35, 50, 90}}
	a := replay(v1, sc)
	if a.turn != 90 || a.stuck != 45 {
		t.Errorf("score policy: stop %d (%d), want 90 (45)", a.turn, a.stuck)
	}
	// With no completions v2 terminates exactly like v1.
	sc.objectives = nil
	b := replay(v2, sc)
	if a.turn != b.turn || a.stuck != b.stuck {
		t.Errorf("no completions: v2 %d (%d) differs from v1 %d (%d)", b.turn, b.stuck, a.turn, a.stuck)
	}
}

func TestQuirkCheckCadence(t *testing.T) { // docs/semantics.md, "5.5.9 When the stuck check runs"
	// Termination is at the smallest multiple of the interval >= anchor + W.
	for anchor := 2; anchor < 40; anchor++ { // later anchors come after the stop at 40
		r := replay(v1, scenario{changes: map[int]int{anchor: 5}})
		want := (anchor + 40 + 9) / 10 * 10
		if r.turn != want || r.stuck < 40 || r.stuck > 49 {
			t.Errorf("anchor %d: stop %d (%d), want %d with 40..49 stuck", anchor, r.turn, r.stuck, want)
		}
	}
}

func TestQuirkCountdownUsesTheSameTimer(t *testing.T) { // docs/semantics.md, "5.5.13 The countdown warning reads the same timer"
	// Warnings show from the start of turn t when t - anchor(after t-1) >= 20.
	tr := v2.NewTracker()
	first := 0
	for turn := 1; turn <= 40; turn++ {
		if s := tr.Step(turn, Observation{}); s.Warned && first == 0 {
			first = turn
		}
	}
	if first != 20 {
		t.Errorf("flat run: first warning at turn %d, want 20", first)
	}
	// Before the first tracker call the timer is turn_count itself, so a
	// threshold of 1 already warns at turn 1.
	tr = Policy{Name: Score}.WithTimer(Timer{MaxTurnsStuck: 40, CheckInterval: 10, WarningThreshold: 1}).NewTracker()
	if s := tr.Step(1, Observation{}); !s.Warned {
		t.Error("threshold 1: no warning at turn 1")
	}
	// An objective at 35 (v2) re-anchors at 35 and 36: the warning shown at the
	// start of 35 is gone at 36 and returns at 56 (56 - 36 = 20).
	tr = v2.NewTracker()
	var warned []int
	for turn := 1; turn <= 60; turn++ {
		if s := tr.Step(turn, Observation{Objectives: count([]int{35}, turn)}); s.Warned {
			warned = append(warned, turn)
		}
	}
	if warned[0] != 20 || !slices.Contains(warned, 35) || slices.Contains(warned, 36) || slices.Contains(warned, 55) || !slices.Contains(warned, 56) {
		t.Errorf("objective at 35: warned at %v", warned)
	}
}

// count is how many of turns equal t: the objectives completed at turn t.
func count(turns []int, t int) int {
	n := 0
	for _, c := range turns {
		if c == t {
			n++
		}
	}
	return n
}
