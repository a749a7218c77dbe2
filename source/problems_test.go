package source

import (
	"fmt"
	"strings"
	"testing"
	"unsafe"

	"github.com/cespare/xxhash/v2"

	"github.com/lbanalyze/lbanalyze/episode"
)

// Texts keeps one copy of equal texts, and past its budget keeps a new
// distinct text short: with a budget of 3 texts of 100 bytes (3 × (100 +
// textEntry) = 492 bytes), the fourth distinct one is its first 8 bytes,
// "…", its length and its hash; a text seen before the budget ran out stays
// whole, and one kept short is kept alike each time.
func TestTextsBudget(t *testing.T) {
	text := func(i int) string { return fmt.Sprintf("text %03d ", i) + strings.Repeat("x", 91) } // 100 bytes
	x := Texts{budget: 3 * (100 + textEntry)}
	var kept []string
	for i := range 5 {
		kept = append(kept, x.Text(text(i)))
	}
	for i, k := range kept[:3] {
		if k != text(i) {
			t.Errorf("text %d within the budget kept as %q", i, k)
		}
	}
	for i := 3; i < 5; i++ {
		want := fmt.Sprintf("text 00%d…100:%016x", i, xxhash.Sum64String(text(i)))
		if kept[i] != want || len(want) > shortLen {
			t.Errorf("text %d past the budget kept as %q, want %q (at most %d bytes)", i, kept[i], want, shortLen)
		}
	}
	// Equal texts stay equal, distinct ones distinct, on either side of the budget.
	again := []string{x.Text(text(0)), x.Text(text(3)), x.Text(text(4))}
	if again[0] != kept[0] || unsafe.StringData(again[0]) != unsafe.StringData(kept[0]) || again[1] != kept[3] || again[2] != kept[4] || kept[3] == kept[4] {
		t.Errorf("kept again as %q, first %q", again, kept)
	}
	if x.shortened != 4 || !strings.HasPrefix(x.Note(), "4 texts (actions, rooms, responses) past the first 0 MiB") {
		t.Errorf("%d shortened, note %q", x.shortened, x.Note())
	}
	// A text no longer than a short form is kept whole past the budget.
	if s := strings.Repeat("y", shortLen); x.Text(s) != s || x.shortened != 4 {
		t.Errorf("a text of %d bytes kept as %q", shortLen, x.Text(s))
	}
}

// What Texts keeps is a copy, and a text longer than MaxText is kept as Text
// keeps it within the budget, Short past it, long texts differing only at
// their end distinct either way.
func TestTextsCopyAndLong(t *testing.T) {
	line := []byte("go north")
	var x Texts
	k := x.Text(unsafe.String(&line[0], len(line)))
	line[0] = 'n'
	if k != "go north" || x.Note() != "" {
		t.Errorf("kept %q, note %q", k, x.Note())
	}
	a, b := strings.Repeat("a", 2*MaxText)+"a", strings.Repeat("a", 2*MaxText)+"b"
	if x.Text(a) != Text(a) || x.Text(b) != Text(b) || Text(a) == Text(b) {
		t.Error("long texts within the budget")
	}
	past := Texts{budget: 1}
	if sa, sb := past.Text(a), past.Text(b); sa != short(a) || sb != short(b) || sa == sb || !strings.HasPrefix(sa, "aaaaaaaa…1025:") {
		t.Errorf("long texts past the budget: %q, %q", sa, sb)
	}
}

// short cuts at a character: "a" and four "é" are 9 bytes, so the head is
// "a" and three "é" (7 bytes).
func TestShortCutsAtACharacter(t *testing.T) {
	s := "a" + strings.Repeat("é", 50)
	if got, want := short(s), fmt.Sprintf("aééé…101:%016x", xxhash.Sum64String(s)); got != want {
		t.Errorf("short = %q, want %q", got, want)
	}
}

// Turns holds up to turnBlock turns in one slice grown as append grows it,
// more in blocks copied once into a slice of their number, and past
// reserveAt in a slice made for MaxTurn, copied to its number when less
// than half used: 1,000 turns are given in the slice they were read into,
// 10,000 (two full blocks and 1,808 more) and 70,000 in a slice of their
// number, 150,000 in the one made for MaxTurn.
func TestTurnsInBlocks(t *testing.T) {
	for _, c := range []struct{ n, blocks, capAtMost int }{{1000, 1, 1400}, {turnBlock, 1, turnBlock * 7 / 5}, {10_000, 3, 10_000}, {70_000, 0, 70_000}, {150_000, 0, MaxTurn}} {
		var ts Turns
		for i := range c.n {
			ts.Add(episode.Turn{Score: episode.Score(i)})
		}
		blocks, last := len(ts.blocks), ts.Last()
		turns := ts.Slice()
		ok := len(turns) == c.n && ts.Len() == c.n && last.Score == episode.Score(c.n-1) && (c.n < 100_000 || cap(turns) == MaxTurn)
		for i := range turns {
			ok = ok && turns[i].Score == episode.Score(i)
		}
		if !ok || blocks != c.blocks || cap(turns) > c.capAtMost {
			t.Errorf("%d turns: %d blocks, %d kept of cap %d, last %v", c.n, blocks, len(turns), cap(turns), last.Score)
		}
	}
}
