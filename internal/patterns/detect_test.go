package patterns

import (
	"math/rand/v2"
	"testing"
)

// seq builds a room sequence: seq(r1, r2, …)[t] is the room at the start of turn t.
func seq(rooms ...int) []int { return append([]int{0}, rooms...) }

func TestOscillationAt(t *testing.T) {
	long := make([]int, 0, 25)
	for i := 0; i < 21; i++ {
		long = append(long, 9)
	}
	long = append(long, 5, 6, 5, 6)
	cases := []struct {
		name string
		seq  []int
		t    int
		a, b int
		ok   bool
	}{
		// Exactly four rooms: the history holds A, B, A, B with A ≠ B.
		{"exactly four rooms", seq(1, 2, 1, 2), 4, 1, 2, true},
		// Three entries: the design needs at least four.
		{"three entries", seq(1, 2, 1, 2), 3, 0, 0, false},
		// A = B is staying put, not oscillating.
		{"A equals B", seq(1, 1, 1, 1), 4, 0, 0, false},
		// A, B, A, C: the last entry breaks it.
		{"A-B-A-C", seq(1, 2, 1, 3), 4, 0, 0, false},
		// Only the last four count: 3 1 2 1 2 at turn 5 is 1-2-1-2; at turn 4
		// the last four are 3 1 2 1 (3 ≠ 2).
		{"last four at 5", seq(3, 1, 2, 1, 2), 5, 1, 2, true},
		{"last four at 4", seq(3, 1, 2, 1, 2), 4, 0, 0, false},
		// A-B-A-B-A: at turn 5 the last four are B, A, B, A.
		{"B-A-B-A", seq(1, 2, 1, 2, 1), 5, 2, 1, true},
		// 25 turns, the history keeps 20: still the last four.
		{"beyond the history", append([]int{0}, long...), 25, 5, 6, true},
	}
	for _, c := range cases {
		a, b, ok := oscillationAt(c.seq, c.t)
		if a != c.a || b != c.b || ok != c.ok {
			t.Errorf("%s: got (%d, %d, %v), want (%d, %d, %v)", c.name, a, b, ok, c.a, c.b, c.ok)
		}
	}
}

func TestCampingAt(t *testing.T) {
	cases := []struct {
		name                 string
		seq                  []int
		t, window, threshold int
		room, visits         int
		ok                   bool
	}{
		// Turn 4: the history has 4 entries, so the window is 4 < threshold 5:
		// the design never detects with a window smaller than the threshold.
		{"window below threshold", seq(7, 7, 7, 7), 4, 10, 5, 0, 0, false},
		// Turn 5: window 5, room 7 five times: exactly the threshold.
		{"threshold reached", seq(7, 7, 7, 7, 7), 5, 10, 5, 7, 5, true},
		// 7 and 8 four times each, 9 twice: max 4 = threshold − 1.
		{"threshold minus one", seq(7, 8, 7, 8, 7, 8, 7, 8, 9, 9), 10, 10, 5, 7, 4, false},
		// Window (10) longer than the history (7 entries): all 7 are counted,
		// and 7 appears 5 times.
		{"history shorter than the window", seq(7, 7, 8, 7, 9, 7, 7), 7, 10, 5, 7, 5, true},
		// Turn 12 with window 10: entries 3..12 = 7 7 7 1 2 3 4 5 6 8, room 7
		// three times (the first two 7s have left the window).
		{"window slides", seq(7, 7, 7, 7, 7, 1, 2, 3, 4, 5, 6, 8), 12, 10, 5, 7, 3, false},
		// The same sequence at turn 10: entries 1..10 hold 7 five times.
		{"before it slides", seq(7, 7, 7, 7, 7, 1, 2, 3, 4, 5, 6, 8), 10, 10, 5, 7, 5, true},
		// A tie goes to the room first seen in the window (Python's max over
		// a dict in insertion order): 1 and 2 twice each, 1 comes first.
		{"tie", seq(1, 2, 1, 2), 4, 4, 2, 1, 2, true},
	}
	for _, c := range cases {
		room, visits, ok := campingAt(c.seq, c.t, c.window, c.threshold)
		if ok != c.ok || ok && (room != c.room || visits != c.visits) {
			t.Errorf("%s: got (%d, %d, %v), want (%d, %d, %v)", c.name, room, visits, ok, c.room, c.visits, c.ok)
		}
	}
}

func TestRevisitsAt(t *testing.T) {
	cases := []struct {
		name   string
		seq    []int
		t      int
		visits int
	}{
		// One entry: min(5, 1 − 1) = 0 previous entries, no penalty.
		{"turn 1", seq(1), 1, 0},
		// Two entries: the previous one is the same room.
		{"stay once", seq(1, 1), 2, 1},
		// 1 2 1 at turn 3: the previous two are 1 and 2, one visit.
		{"return", seq(1, 2, 1), 3, 1},
		// Seven turns in one room: only the previous min(5, 6) = 5 count.
		{"window caps visits", seq(1, 1, 1, 1, 1, 1, 1), 7, 5},
		// The 1 of turn 1 is six entries back, outside the window of 5.
		{"outside the window", seq(1, 2, 2, 2, 2, 2, 1), 7, 0},
		// Window shorter than the history: 4 entries, previous 3 = 2 1 2, room 1 once.
		{"short history", seq(3, 1, 2, 1), 4, 1},
	}
	for _, c := range cases {
		if v := revisitsAt(c.seq, c.t, 5); v != c.visits {
			t.Errorf("%s: got %d visits, want %d", c.name, v, c.visits)
		}
	}
}

func TestLevel(t *testing.T) {
	// get_urgency_level of 09a7cc2: ≤ 5 critical, ≤ 10 urgent, else important.
	for left, want := range map[int]string{20: Important, 11: Important, 10: Urgent, 6: Urgent, 5: Critical, 0: Critical, -3: Critical} {
		if got := Level(left); got != want {
			t.Errorf("Level(%d) = %s, want %s", left, got, want)
		}
	}
}

// TestCampingAtRandom checks campingAt against the design's own way, a count
// per room in a dict and the first room of the window with the most visits,
// on random room sequences with few rooms (many ties).
func TestCampingAtRandom(t *testing.T) {
	want := func(seq []int, at, window, threshold int) (int, int, bool) {
		h := seq[max(1, at-HistoryLen+1) : at+1]
		size := min(window, len(h))
		if size < threshold || size < 1 {
			return 0, 0, false
		}
		counts, order := map[int]int{}, []int{}
		for _, id := range h[len(h)-size:] {
			if counts[id] == 0 {
				order = append(order, id)
			}
			counts[id]++
		}
		room, visits := 0, 0
		for _, id := range order {
			if counts[id] > visits {
				room, visits = id, counts[id]
			}
		}
		return room, visits, visits >= threshold
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		n := 1 + rng.IntN(40)
		s := make([]int, n+1)
		for i := 1; i <= n; i++ {
			s[i] = rng.IntN(4)
		}
		at, window, threshold := 1+rng.IntN(n), 1+rng.IntN(HistoryLen), 1+rng.IntN(8)
		r1, v1, ok1 := campingAt(s, at, window, threshold)
		r2, v2, ok2 := want(s, at, window, threshold)
		if r1 != r2 || v1 != v2 || ok1 != ok2 {
			t.Fatalf("campingAt(%v, %d, %d, %d) = (%d, %d, %v), want (%d, %d, %v)", s, at, window, threshold, r1, v1, ok1, r2, v2, ok2)
		}
	}
}
