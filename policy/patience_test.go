package policy

import (
	"fmt"
	"github.com/lbanalyze/lbanalyze/episode"
	"slices"
	"testing"
)

// walk is a turn sequence with rooms: the score becomes changes[t] at turn t,
// objectives lists completed turns, the turn ends in rooms[t] (kept until the
// next entry; 0 unknown), and start is the starting room.
type walk struct {
	changes    map[int]int
	objectives []int
	rooms      map[int]int
	start      int
	turns      int // 200 when 0
}

func (w walk) run(p Policy) result {
	n := w.turns
	if n == 0 {
		n = 200
	}
	tr := p.NewTracker()
	score, room := 0, w.start
	var r result
	for t := 1; t <= n; t++ {
		if v, ok := w.changes[t]; ok {
			score = v
		}
		if v, ok := w.rooms[t]; ok {
			room = v
		}
		s := tr.Step(t, Observation{Score: episode.Score(score), Objectives: count(w.objectives, t), Room: room, Start: w.start})
		if s.Reset != NoReset {
			r.resets = append(r.resets, fmt.Sprintf("%s@%d", s.Reset, t))
		}
		if s.Terminate {
			r.turn, r.stuck = t, s.TurnsStuck
			break
		}
	}
	return r
}

// pat is patience 40/10 with the settings set changes.
func pat(set func(*Policy)) Policy {
	p := pol(Patience, 40, 10)
	if set != nil {
		set(&p)
	}
	return p
}

func TestPatience(t *testing.T) {
	objK := func(k int) func(*Policy) { return func(p *Policy) { *p = p.With(ObjectivePatience, k) } }
	room := func(r int) func(*Policy) { return func(p *Policy) { *p = p.With(RoomPatience, r) } }
	for _, c := range []struct {
		name   string
		p      Policy
		w      walk
		turn   int
		stuck  int
		resets []string
	}{
		// Defaults are window: an objective at 40 anchors at 40 (not 41), so
		// the check at 80 sees 80 − 40 = 40 ≥ 40.
		{"defaults, objective at 40", pat(nil), walk{objectives: []int{40}}, 80, 40, []string{"objective_progress_reset@40"}},
		// Objective at turn 1 (K = W = 40): last_obj = 1, so at 40 it has
		// 39 < 40; at 50, 49. Turn 1 initialises and reports no reset.
		{"objective at 1, K 40", pat(nil), walk{objectives: []int{1}}, 50, 49, nil},
		// K = 10: at 40 score has 40 ≥ 40 and the objective 39 ≥ 10.
		{"objective at 1, K 10", pat(objK(10)), walk{objectives: []int{1}}, 40, 39, nil},
		// K = 10, objective at 35: at 40 it has 5 < 10; at 50, 15 ≥ 10 and the
		// score 50 ≥ 40. TurnsStuck counts from the objective: 15.
		{"objective at 35, K 10", pat(objK(10)), walk{objectives: []int{35}}, 50, 15, []string{"objective_progress_reset@35"}},
		// K = 60 buys more than a score change: objective at 5, 65 ≥ 60 first at 70.
		{"objective at 5, K 60", pat(objK(60)), walk{objectives: []int{5}}, 70, 65, []string{"objective_progress_reset@5"}},
		// Objectives off: the score policy, 40 (40).
		{"objectives off", pat(objK(ObjectivesOff)), walk{objectives: []int{35}}, 40, 40, nil},
		// R = 30, start room 1: room 2 at 5 is new, back to 1 at 10 and to 2 at
		// 20 are not. At 40: score 40 ≥ 40, room 40 − 5 = 35 ≥ 30.
		{"rooms, revisits are no progress", pat(room(30)),
			walk{rooms: map[int]int{5: 2, 10: 1, 20: 2}, start: 1}, 40, 35, []string{"new_room@5"}},
		// A first visit on check turn 40 stops nothing there (0 < 30) and
		// counts from 40: 70 − 40 = 30 is the first check that passes.
		{"first visit on a check turn", pat(room(30)),
			walk{rooms: map[int]int{40: 2}, start: 1}, 70, 30, []string{"new_room@40"}},
		// The starting room counts as visited: returning to it is no progress.
		{"starting room visited", pat(room(30)), walk{rooms: map[int]int{35: 1}, start: 1}, 40, 40, nil},
		// Leaving the starting room on turn 1 is a first visit at 1: 39 ≥ 30 at 40.
		{"new room at turn 1", pat(room(30)), walk{rooms: map[int]int{1: 7}, start: 6}, 40, 39, []string{"new_room@1"}},
		// Start unknown: the first room seen (7 at turn 1) stands for it; 8 at
		// 12 is new: at 40, 28 < 30; at 50, 38.
		{"start unknown", pat(room(30)), walk{rooms: map[int]int{1: 7, 12: 8}}, 50, 38, []string{"new_room@12"}},
		// An unknown room (0) is no visit.
		{"unknown room", pat(room(30)), walk{rooms: map[int]int{20: 0}, start: 1}, 40, 40, nil},
		// Every source must have run out: score at 15 (55 ≥ 40 at 60), room at
		// 25 (R 30: 55 at 60), objective at 50 (K 10: 10 at 60): stop 60,
		// anchor 50.
		{"all three sources", pat(func(p *Policy) { *p = p.With(ObjectivePatience, 10).With(RoomPatience, 30) }),
			walk{changes: map[int]int{15: 5}, rooms: map[int]int{25: 2}, start: 1, objectives: []int{50}}, 60, 10,
			[]string{"score_change@15", "new_room@25", "objective_progress_reset@50"}},
		// A turn with a score change, an objective and a new room reports the
		// score change (as window), and anchors all three.
		{"one turn, three sources", pat(room(30)),
			walk{changes: map[int]int{30: 5}, rooms: map[int]int{30: 2}, start: 1, objectives: []int{30}}, 70, 40,
			[]string{"score_change@30"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := c.w.run(c.p)
			if got.turn != c.turn || got.stuck != c.stuck || !slices.Equal(got.resets, c.resets) {
				t.Errorf("%s: stop %d (%d stuck) resets %v; want stop %d (%d stuck) resets %v",
					c.p, got.turn, got.stuck, got.resets, c.turn, c.stuck, c.resets)
			}
		})
	}
}

func TestMinTurns(t *testing.T) {
	for _, c := range []struct {
		m, turn int
		p       Name
	}{
		// Flat, 40/10: without warm-up the stop is at 40. With M = 55 the
		// checks at 40 and 50 are before M (T < M), the first allowed is 60.
		{0, 40, Patience}, {55, 60, Patience}, {55, 60, Increase},
		// T = M is allowed.
		{50, 50, Patience},
		// A warm-up below the first possible stop changes nothing.
		{25, 40, Increase},
	} {
		p := pol(c.p, 40, 10).With(MinTurns, c.m)
		if r := (walk{}).run(p); r.turn != c.turn || r.stuck != c.turn {
			t.Errorf("%s: stop %d (%d), want %d (%d)", p, r.turn, r.stuck, c.turn, c.turn)
		}
	}
}

func TestMinDelta(t *testing.T) {
	withD := func(n Name, d int) Policy { return pol(n, 40, 10).With(MinDelta, d*1000) } // d points
	for _, c := range []struct {
		name   string
		p      Policy
		w      walk
		turn   int
		resets []string
	}{
		// A change of 3 with D = 5 is no progress: stop at 40 as if flat.
		{"3 < D", withD(Patience, 5), walk{changes: map[int]int{10: 3}}, 40, nil},
		// D = 1 is today's: the change at 10 anchors, stop at 50.
		{"D 1", withD(Patience, 1), walk{changes: map[int]int{10: 3}}, 50, []string{"score_change@10"}},
		// D = 0: any move counts, as 1 does on whole scores.
		{"D 0", withD(Patience, 0), walk{changes: map[int]int{10: 3}}, 50, []string{"score_change@10"}},
		// Drift: 3 at 10 leaves the tracked score at 0, so 6 at 20 is a move of
		// 6 ≥ 5 (had 3 been tracked, 3 < 5): anchor 20, stop 60.
		{"drift accumulates", withD(Patience, 5), walk{changes: map[int]int{10: 3, 20: 6}}, 60, []string{"score_change@20"}},
		// Downwards too (mode changes): −3, then −5 reaches D.
		{"drift down", withD(Patience, 5), walk{changes: map[int]int{10: -3, 20: -5}}, 60, []string{"score_change@20"}},
		// Exactly D counts.
		{"exactly D", withD(Patience, 5), walk{changes: map[int]int{10: 5}}, 50, []string{"score_change@10"}},
		// Increase: a new best by less than D is not progress: 10 at 5 is
		// (best 10), 7 at 10 is a fall, 12 at 20 is 2 above 10; anchor 5, the
		// first check ≥ 45 is 50.
		{"increase, new best below D", withD(Increase, 5), walk{changes: map[int]int{5: 10, 10: 7, 20: 12}}, 50, []string{"score_change@5"}},
		// Increase drift: 3 at 10 then 6 at 20 (6 − 0 ≥ 5): anchor 20.
		{"increase drift", withD(Increase, 5), walk{changes: map[int]int{10: 3, 20: 6}}, 60, []string{"score_change@20"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := c.w.run(c.p)
			if r.turn != c.turn || !slices.Equal(r.resets, c.resets) {
				t.Errorf("%s: stop %d resets %v, want %d %v", c.p, r.turn, r.resets, c.turn, c.resets)
			}
		})
	}
}

func TestPatienceStepFields(t *testing.T) {
	// K = 10, objective at 35, flat score. Anchor is the latest progress of
	// any source; the warning (threshold 20) shows from 20, is gone at 36
	// (36 − 35 = 1) and would return at 55; the stop at 50 has TurnsStuck 15.
	tr := pat(func(p *Policy) { *p = p.With(ObjectivePatience, 10) }).NewTracker()
	var warned []int
	var last Step
	for turn := 1; turn <= 50; turn++ {
		last = tr.Step(turn, Observation{Objectives: count([]int{35}, turn)})
		if last.Warned {
			warned = append(warned, turn)
		}
		if turn == 36 && (last.Anchor != 35 || last.TurnsStuck != 1) {
			t.Errorf("turn 36: anchor %d stuck %d, want 35 and 1", last.Anchor, last.TurnsStuck)
		}
	}
	if warned[0] != 20 || !slices.Contains(warned, 35) || slices.Contains(warned, 36) {
		t.Errorf("warned at %v", warned)
	}
	if !last.Terminate || last.Anchor != 35 || last.TurnsStuck != 15 {
		t.Errorf("turn 50: %+v, want a stop with anchor 35, 15 stuck", last)
	}
}

// On real-valued scores a move is compared with min_delta to the 9 decimals
// scores are kept to: 0.3 after 0.2 is a rise of 0.1, though 0.3 − 0.2 is
// 0.09999999999999998 in binary; 0.29 after 0.2 is not.
func TestMinDeltaDecimals(t *testing.T) {
	for _, c := range []struct {
		scores []episode.Score
		reset  bool
	}{
		{[]episode.Score{0.2, 0.3}, true},
		{[]episode.Score{0.2, 0.29}, false},
		{[]episode.Score{0.2, 0.2}, false},
	} {
		for _, n := range []Name{Increase, Patience} {
			tr := pol(n, 40, 10).With(MinDelta, 100).With(ObjectivePatience, ObjectivesOff).NewTracker()
			var s Step
			for i, v := range c.scores {
				s = tr.Step(i+1, Observation{Score: v})
			}
			if got := s.Reset == ScoreChange; got != c.reset {
				t.Errorf("%s delta 0.1, scores %v: reset %v, want %v", n, c.scores, got, c.reset)
			}
		}
	}
}
