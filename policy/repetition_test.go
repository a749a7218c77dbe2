package policy

import "testing"

// keys spells a step sequence one letter a step, '.' a step with nothing to
// compare (key 0).
func keys(s string) []uint64 {
	k := make([]uint64, len(s))
	for i, c := range s {
		if c != '.' {
			k[i] = uint64(c)
		}
	}
	return k
}

// Each detector on hand-worked sequences: the count after the last step.
func TestDetectors(t *testing.T) {
	for _, c := range []struct {
		seq                   string
		within                int
		row, among, alternate int
	}{
		// AAA: three in a row; three among the last 5; the last two do
		// not differ, so no alternation.
		{"AAA", 5, 3, 3, 0},
		// BAAA: the B breaks nothing of the run of three A at the end.
		{"BAAA", 5, 3, 3, 0},
		// AABA: one A in a row (B before it), three A among the last 5, and
		// A-B-A alternates over the last 3 (the A before them is not B).
		{"AABA", 5, 1, 3, 3},
		// AABA within 2: only "BA" is looked at: one A.
		{"AABA", 2, 1, 1, 3},
		// ABABAB: alternation over all 6 steps; B three times among 6.
		{"ABABAB", 6, 1, 3, 6},
		// CABAB: C ≠ A two after it, so the alternation is the last 4.
		{"CABAB", 5, 1, 2, 4},
		// A step with nothing to compare counts for nothing and matches none.
		{"AA.", 5, 0, 0, 0},
		{"..", 5, 0, 0, 0},
		{"A.A", 5, 1, 2, 0},
		{"", 5, 0, 0, 0},
	} {
		k := keys(c.seq)
		if got := inARow(k); got != c.row {
			t.Errorf("%q: inARow = %d, want %d", c.seq, got, c.row)
		}
		if got := among(k, c.within); got != c.among {
			t.Errorf("%q: among(%d) = %d, want %d", c.seq, c.within, got, c.among)
		}
		if got := alternating(k); got != c.alternate {
			t.Errorf("%q: alternating = %d, want %d", c.seq, got, c.alternate)
		}
	}
}

// Actions compare trimmed; a tool call's thought is not its action
// (OpenHands #15087: the same command with another thought is the same
// action, where OpenHands' own _event_eq compares thoughts too and never
// sees the repeat). Responses compare by hash, or with ignore by their text
// with what it matches removed.
func TestKeys(t *testing.T) {
	ls := Observation{Action: "  ls -l\n", Response: 7, ResponseText: "pid 41 done"}
	if actionKey(ls) != actionKey(Observation{Action: "ls -l"}) || actionKey(ls) == actionKey(Observation{Action: "ls"}) {
		t.Error("actions compare trimmed, and only trimmed")
	}
	if actionKey(Observation{Action: " \t"}) != 0 || pairKey(Observation{Action: "ls"}, nil) != 0 {
		t.Error("no action, or no response for a pair: nothing to compare")
	}
	other := Observation{Action: "ls -l", Response: 8, ResponseText: "pid 42 done"}
	if pairKey(ls, nil) == pairKey(other, nil) {
		t.Error("responses 7 and 8 are different responses")
	}
	i, err := Ignore.Parse(`pid [0-9]+`)
	if err != nil {
		t.Fatal(err)
	}
	re := ignored(Policy{Name: RepeatObserved}.With(Ignore, i))
	if pairKey(ls, re) != pairKey(other, re) || pairKey(ls, re) == pairKey(Observation{Action: "ls -l", Response: 9, ResponseText: "pid 43 failed"}, re) {
		t.Error("with ignore=pid [0-9]+, the responses differ only in what it removes")
	}
}
