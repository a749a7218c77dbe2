package source

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// run is a run as a test source builds it: its key, the numbers placed in
// it, and the problems given it, as "line: message".
type run struct {
	key      string
	nums     []int64
	problems []string
}

// sorted feeds lines of (key, number; -1 for a line without one, -2 for an
// end line) to a Runs and gives the runs it ends, in order.
func sorted(min int64, lines []line) (ended []run) {
	rs := Runs[*run]{Numbering: Numbering{Min: min, Noun: "TURN"},
		New: func(key string) *run { return &run{key: key} },
		End: func(r *run) { ended = append(ended, *r) },
		Problem: func(r *run, n int, skipped bool, msg string) {
			r.problems = append(r.problems, fmt.Sprintf("%d: %s", n, msg))
		}}
	for i, l := range lines {
		switch {
		case l.num == -2:
			rs.EndRun(l.key)
		case l.num == -1:
			rs.Current(l.key, i+1)
		default:
			if r, ok := rs.Line(l.key, l.num, i+1); ok {
				r.nums = append(r.nums, l.num)
			}
		}
	}
	rs.Close()
	return ended
}

type line struct {
	key string
	num int64
}

func nums(keyed string, ns ...int64) []line {
	var l []line
	for _, n := range ns {
		l = append(l, line{keyed, n})
	}
	return l
}

func span(from, to int64) []int64 {
	var s []int64
	for n := from; n <= to; n++ {
		s = append(s, n)
	}
	return s
}

// The rules of docs/bad-input.md, "Runs in one file", each worked by hand.
func TestRuns(t *testing.T) {
	cat := func(ls ...[]line) []line {
		var out []line
		for _, l := range ls {
			out = append(out, l...)
		}
		return out
	}
	for _, c := range []struct {
		name  string
		min   int64
		lines []line
		want  []run
	}{
		{"one run", 1, nums("", 1, 2, 3), []run{{nums: span(1, 3)}}},
		{"a repeat", 1, nums("", 1, 2, 2, 3), []run{{nums: span(1, 3), problems: []string{"3: TURN 2 again: a repeat, skipped"}}}},
		{"a swap", 1, nums("", 1, 3, 2, 4), []run{{nums: []int64{1, 3, 4}, problems: []string{"3: TURN 2 after TURN 3: out of order, skipped"}}}},
		// Back to 1 with the lines after it going on from 1: a new run.
		{"a restart", 1, nums("", 1, 2, 3, 1, 2), []run{{nums: span(1, 3)}, {nums: span(1, 2)}}},
		// Back to 1 with the lines after it going on from 3: a stray line.
		{"a stray first line", 1, nums("", 1, 2, 3, 1, 4), []run{{nums: []int64{1, 2, 3, 4},
			problems: []string{"4: TURN 1 after TURN 3, while the lines after it go on from 4: a stray line, skipped"}}}},
		// The first line twice: a repeat, not a run of one turn.
		{"the first line twice", 1, nums("", 1, 1, 2), []run{{nums: span(1, 2), problems: []string{"2: TURN 1 again: a repeat, skipped"}}}},
		// A restart as the last line: a run of its own.
		{"a restart at the end", 1, nums("", 1, 2, 1), []run{{nums: span(1, 2)}, {nums: span(1, 1)}}},
		// From 0 (steps): 0 again after 0..2 is a restart, 1 again a repeat.
		{"from 0", 0, nums("", 0, 1, 2, 0, 1, 1), []run{{nums: span(0, 2)}, {nums: span(0, 1), problems: []string{"6: TURN 1 again: a repeat, skipped"}}}},
		{"out of range", 1, nums("", 0, 1, 200001), []run{{nums: span(1, 1), problems: []string{"1: TURN 0 is out of range 1..200000: skipped",
			"3: TURN 200001 is out of range 1..200000: skipped"}}}},
		{"a gap too far", 1, nums("", 1, 1003, 1002), []run{{nums: []int64{1, 1002}, problems: []string{"2: TURN 1003 comes 1002 after TURN 1: ignored as corrupt"}}}},
		// An end line ends its run: the next line begins another, whatever
		// its number.
		{"an end line", 1, cat(nums("", 1, 2), []line{{"", -2}}, nums("", 3)), []run{{nums: span(1, 2)}, {nums: span(3, 3)}}},
		// Keys interleaved: A's lines in one run, B's in another, in the
		// order they began.
		{"interleaved", 1, cat(nums("A", 1), nums("B", 1), nums("A", 2), nums("B", 2), nums("A", 3)),
			[]run{{key: "A", nums: span(1, 3)}, {key: "B", nums: span(1, 2)}}},
		// A key restarted: two runs of A, B's run between them in time.
		{"a key restarted", 1, cat(nums("A", 1, 2), nums("B", 1), nums("A", 1, 2)),
			[]run{{key: "A", nums: span(1, 2)}, {key: "A", nums: span(1, 2)}, {key: "B", nums: span(1, 1)}}},
	} {
		got := sorted(c.min, c.lines)
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", c.name, got, c.want)
		}
	}
}

// At most MaxOpen runs are open: the least recently used is ended for a new
// key, and its key met again begins a run of its own, with a word.
func TestRunsOpenBounded(t *testing.T) {
	var lines []line
	for k := range MaxOpen + 1 {
		lines = append(lines, line{fmt.Sprint("k", k), 1})
	}
	lines = append(lines, line{"k0", 2})
	got := sorted(1, lines)
	if len(got) != MaxOpen+2 || got[0].key != "k0" || len(got[0].nums) != 1 {
		t.Fatalf("%d runs, the first %+v", len(got), got[0])
	}
	var again *run
	for i := range got {
		if got[i].key == "k0" && len(got[i].problems) > 0 {
			again = &got[i]
		}
	}
	want := fmt.Sprintf(`%d: lines of "k0" again, after its run was ended to keep at most %d runs open at once: read as a run of its own`, MaxOpen+2, MaxOpen)
	if again == nil || again.problems[0] != want || !reflect.DeepEqual(again.nums, []int64{2}) {
		t.Errorf("k0 again: %+v", again)
	}
}

// The numbers a file leaves out are bounded by the lines it places: lines
// that jump 1,000 ahead each are corrupt once 10,000 plus the lines are made
// up.
func TestRunsGapBudget(t *testing.T) {
	var lines []line
	for i := range 30 {
		lines = append(lines, line{"", int64(1 + i*1000)})
	}
	got := sorted(1, lines)
	// Each line leaves 999 out: the 11th leaves 10,989 out > 10,000 + 11.
	if len(got) != 1 || len(got[0].nums) != 11 || len(got[0].problems) != 19 ||
		!strings.Contains(got[0].problems[0], "12: TURN 11001 comes 1000 after TURN 10001: ignored as corrupt, as this file already leaves out 9990 numbers") {
		t.Errorf("%d numbers placed, problems %q", len(got[0].nums), got[0].problems[:min(2, len(got[0].problems))])
	}
}

// A Sequence is one run: a number back to 0 or 1 is out of order.
func TestSequence(t *testing.T) {
	s := NewSequence(1, "entry of turn")
	var got []string
	for _, n := range []int64{1, 2, 2, 1, 4, 3} {
		got = append(got, s.Place(n))
	}
	want := []string{"", "", "entry of turn 2 again: a repeat, skipped", "entry of turn 1 after entry of turn 2: out of order, skipped", "",
		"entry of turn 3 after entry of turn 4: out of order, skipped"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%q", got)
	}
}

// Text bounds what an episode keeps of a text: past MaxText its first
// bytes, cut at a character, and the length and hash of the whole, so that
// long texts equal in the log stay equal and distinct ones distinct.
func TestText(t *testing.T) {
	short := strings.Repeat("é", MaxText/2)
	a := strings.Repeat("é", 30000) + "a"
	b := strings.Repeat("é", 30000) + "b"
	ta, tb := Text(a), Text(b)
	if Text(short) != short || len(ta) > MaxText || ta == tb || Text(a) != ta || !strings.HasPrefix(ta, strings.Repeat("é", 10)) ||
		!strings.Contains(ta, "… (60001 bytes, xxh64 ") || !SameText(a, ta) || SameText(b, ta) || !SameText(short, short) {
		t.Errorf("%q\n%q", ta, tb)
	}
	var x Texts
	if got := x.Text(a); got != ta {
		t.Errorf("Texts keeps %d bytes", len(got))
	}
}
