package textout

import (
	"bytes"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/olekukonko/tablewriter/pkg/twwidth"
)

// A table wider than its terminal wraps its columns of words at spaces, then
// shortens its headers and leaves out columns in the order its plan gives,
// until it fits; the note says once what went and what the short headers
// stand for. Without a width it is drawn whole, byte for byte.
func TestFit(t *testing.T) {
	plan := &Plan{Name: "demo", Wrap: []string{"verdict"}, Short: Shorter(map[string]string{"calls saved": "calls"}),
		Drop: []string{"stuck", "score"}}
	header := []string{"policy", "stuck", "score", "calls saved", "verdict"}
	rows := [][]string{
		{"score 40/10", "41", "45", "348", "premature? objectives at 54, 63, 75"},
		{"score-or-objective 40/10", "44", "45", "188", "truly stuck"},
	}
	var whole, none bytes.Buffer
	boxTable.draw(&whole, header, slices.Values(rows), nil)
	(&Fit{}).Table(&none, plan, header, rows)
	if whole.String() != none.String() {
		t.Errorf("with no width:\n%s\nwant it whole:\n%s", none.String(), whole.String())
	}
	for _, c := range []struct {
		width      int
		left, kept []string // columns left out, and kept
		note       string
	}{
		// Whole: 26 + 7 + 7 + 13 + 37 + 6 borders = 96 columns.
		{96, nil, header, ""},
		// Shortened and wrapped, nothing left out: at least 26 + 7 + 7 + 7 + 18 + 6 = 71.
		{95, nil, []string{"policy", "stuck", "score", "calls", "verdict"}, "shortened: calls = calls saved"},
		{71, nil, []string{"policy", "stuck", "score", "calls", "verdict"}, "shortened: calls = calls saved"},
		// The verdict would go below 18 columns: stuck goes first, then score.
		{60, []string{"stuck", "score"}, []string{"policy", "calls", "verdict"}, "left out: stuck, score (demo); shortened: calls = calls saved"},
	} {
		f := &Fit{Width: c.width}
		var b bytes.Buffer
		f.Table(&b, plan, header, rows)
		f.Table(&b, plan, header, rows) // a second table: said once all the same
		lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
		for _, l := range lines {
			if w := TextWidth(l); w > c.width {
				t.Errorf("%d columns: a line of %d: %q", c.width, w, l)
			}
		}
		head := strings.Fields(strings.ReplaceAll(lines[1], "│", " "))
		if strings.Join(head, " ") != strings.Join(c.kept, " ") {
			t.Errorf("%d columns: headers %q, want %q", c.width, head, c.kept)
		}
		if c.note == "" && f.Note() != "" || c.note != "" && !strings.Contains(f.Note(), c.note) {
			t.Errorf("%d columns: note %q, want one saying %q", c.width, f.Note(), c.note)
		}
		if c.width < 96 && !strings.Contains(b.String(), "│ 54, 63, 75") && !strings.Contains(b.String(), " 63, 75 ") {
			t.Errorf("%d columns: the verdict is not wrapped onto a line of its own:\n%s", c.width, b.String())
		}
	}
}

// TestWrapWords: lines of at most width columns, cut at spaces; a word
// wider than width cut after its slashes, a piece still wider alone on its
// line. Worked by hand.
func TestWrapWords(t *testing.T) {
	for _, c := range []struct {
		text  string
		width int
		want  []string
	}{
		{"premature? +4 at 75", 10, []string{"premature?", "+4 at 75"}},
		{"a bb ccc", 4, []string{"a bb", "ccc"}},
		{"ep7 [testdata/zorkgpt2/ep7/burr]", 12, []string{"ep7", "[testdata/", "zorkgpt2/", "ep7/burr]"}},
		{"x run/a.txt", 12, []string{"x run/a.txt"}}, // a path that fits is kept whole
		{"a/bbbbbbbbbbbb/c", 5, []string{"a/", "bbbbbbbbbbbb/", "c"}},
		{"a/b/", 3, []string{"a/", "b/"}}, // 4 columns, cut
		{"ab/cd/", 3, []string{"ab/", "cd/"}},
		{"漢字 漢字", 4, []string{"漢字", "漢字"}},
	} {
		if got := WrapWords(c.text, c.width); !slices.Equal(got, c.want) {
			t.Errorf("WrapWords(%q, %d) = %q, want %q", c.text, c.width, got, c.want)
		}
	}
}

// Tables of one plan may leave out different columns (an episode's results
// have a warned column only on ZorkGPT's logs) and be drawn in any order
// (side by side, on several cores): the note lists them in the plan's Drop
// order all the same. 50 columns: [policy, stuck, verdict] takes at least
// 26 + 7 + 18 + 4 = 55, so stuck goes from both; warned (8) first from the
// table that has it.
func TestFitNoteOrder(t *testing.T) {
	plan := &Plan{Name: "demo", Wrap: []string{"verdict"}, Drop: []string{"warned", "stuck"}}
	verdict := "premature? objectives at 54, 63, 75"
	without := [][]string{{"policy", "stuck", "verdict"}, {"score-or-objective 40/10", "41", verdict}}
	with := [][]string{{"policy", "stuck", "warned", "verdict"}, {"score-or-objective 40/10", "41", "3", verdict}}
	const want = "left out: warned, stuck (demo)"
	for _, order := range [][][][]string{{without, with}, {with, without}} {
		f := &Fit{Width: 50}
		for _, tbl := range order {
			f.Table(io.Discard, plan, tbl[0], tbl[1:])
		}
		if !strings.Contains(f.Note(), want) {
			t.Errorf("tables of %q first: note %q, want one saying %q", order[0][0], f.Note(), want)
		}
	}
}

// TestTextWidth: the width of a text is twwidth's with East Asian widths
// off, whatever twwidth's global settings. Worked by hand: a printable ASCII
// byte takes 1, 漢 2, — 1 (ambiguous, narrow), a combining acute 0, and a
// tab twwidth's tab width.
func TestTextWidth(t *testing.T) {
	t.Cleanup(func() { twwidth.SetOptions(twwidth.Options{}) })
	for _, c := range []struct {
		s    string
		want int
	}{
		{"", 0}, {"e00002 (segment 2)", 18}, {"~", 1}, {"漢字", 4}, {"—", 1}, {"e\u0301", 1}, {"a\tb", 2 + twwidth.TabWidth()},
	} {
		for _, set := range widthSettings {
			twwidth.SetOptions(set)
			if got := TextWidth(c.s); got != c.want {
				t.Errorf("with %+v, TextWidth(%q) = %d, want %d", set, c.s, got, c.want)
			}
		}
	}
}
