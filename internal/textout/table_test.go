package textout

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/internal/benchdata"
	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/pkg/twwidth"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
)

// The width settings tablewriter may have guessed at start: none (ASCII
// locale, or a terminal it knows), East Asian (a CJK locale), East Asian
// with box drawing narrow (RUNEWIDTH_EASTASIAN=1 in a terminal it knows).
var widthSettings = []twwidth.Options{{}, {EastAsianWidth: true}, {EastAsianWidth: true, ForceNarrowBorders: true}}

// TestTablesAlignByDisplayWidth: wide runes (CJK, an emoji) take two
// columns, an ambiguous one (—) one, whatever tablewriter guessed from the
// environment. The expected tables are worked out by hand: column 1 is
// "👍 ok" wide (2+1+2) plus a space either side, column 2 "turns" (5) plus
// two; "漢字" (4) is padded with 1+2 spaces, "—" with 1+5.
func TestTablesAlignByDisplayWidth(t *testing.T) {
	t.Cleanup(func() { twwidth.SetOptions(twwidth.Options{}) })
	header := []string{"room", "turns"}
	rows := [][]string{{"漢字", "5"}, {"👍 ok", "12"}, {"—", "—"}}
	const box = "" +
		"┌───────┬───────┐\n" +
		"│ room  │ turns │\n" +
		"├───────┼───────┤\n" +
		"│ 漢字  │     5 │\n" +
		"│ 👍 ok │    12 │\n" +
		"│ —     │     — │\n" +
		"└───────┴───────┘\n"
	const md = "" +
		"| room  | turns |\n" +
		"|:------|------:|\n" +
		"| 漢字  |     5 |\n" +
		"| 👍 ok |    12 |\n" +
		"| —     |     — |\n"
	for _, set := range widthSettings {
		twwidth.SetOptions(set)
		var b, m bytes.Buffer
		boxTable.draw(&b, header, slices.Values(rows), []Align{Left, Right})
		MarkdownTable(&m, header, rows, Left, Right)
		if b.String() != box {
			t.Errorf("%+v: text table\n%s\nwant\n%s", set, b.String(), box)
		}
		if m.String() != md {
			t.Errorf("%+v: markdown table\n%s\nwant\n%s", set, m.String(), md)
		}
	}
}

// TestTableCellsEscaped: a cell cannot break its table: a newline, a tab
// and an escape sequence are shown escaped (text: 14 characters wide, plus a
// space either side), a | is escaped (markdown).
func TestTableCellsEscaped(t *testing.T) {
	var b, m bytes.Buffer
	boxTable.draw(&b, []string{"id"}, slices.Values([][]string{{"a\nb\tc\x1b[2J"}}), nil)
	MarkdownTable(&m, []string{"id"}, [][]string{{"a|b"}})
	const box = "" +
		"┌────────────────┐\n" +
		"│ id             │\n" +
		"├────────────────┤\n" +
		"│ a\\nb\\tc\\x1b[2J │\n" +
		"└────────────────┘\n"
	const md = "" +
		"| id   |\n" +
		"|:-----|\n" +
		"| a\\|b |\n"
	if b.String() != box {
		t.Errorf("text table\n%s\nwant\n%s", b.String(), box)
	}
	if m.String() != md {
		t.Errorf("markdown table\n%s\nwant\n%s", m.String(), md)
	}
}

// freshTable draws a table with a new tablewriter table, configured as the
// pooled ones are but for streaming: the rows held and drawn at once.
func freshTable(md bool, header []string, rows [][]string, align []Align) string {
	aligns := make([]tw.Align, len(align))
	for i, a := range align {
		aligns[i] = map[Align]tw.Align{Left: tw.AlignLeft, Right: tw.AlignRight}[a]
	}
	var r tw.Renderer = renderer.NewBlueprint()
	if md {
		r = renderer.NewMarkdown()
	}
	var b bytes.Buffer
	t := tablewriter.NewTable(&b, tablewriter.WithRenderer(r), tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithHeaderAutoWrap(tw.WrapNone), tablewriter.WithRowAutoWrap(tw.WrapNone),
		tablewriter.WithHeaderAlignment(tw.AlignLeft), tablewriter.WithRowAlignmentConfig(tw.CellAlignment{PerColumn: aligns}))
	t.Header(header)
	t.Bulk(rows)
	t.Render()
	return b.String()
}

// TestPooledTablesForgetTheLast: a table drawn by a reused tablewriter table
// is the one a new table draws, whatever was drawn before it (more or fewer
// columns, other alignments, no rows); and streamed, its columns measured
// first, it is the table tablewriter draws from the rows held.
func TestPooledTablesForgetTheLast(t *testing.T) {
	twwidth.SetOptions(twwidth.Options{})
	r := rand.New(rand.NewPCG(5, 6))
	words := []string{"West of House", "40", "—", "漢字", "👍", "", " padded ", "score-or-objective 40/10"}
	for range 500 {
		cols := 1 + r.IntN(5)
		line := func() []string {
			l := make([]string, cols)
			for i := range l {
				l[i] = words[r.IntN(len(words))]
			}
			return l
		}
		header := line()
		var rows [][]string
		for range r.IntN(4) {
			rows = append(rows, line())
		}
		var align []Align
		for range r.IntN(cols + 1) {
			align = append(align, Align(r.IntN(2)))
		}
		for _, md := range []bool{false, true} {
			var got bytes.Buffer
			if md {
				MarkdownTable(&got, header, rows, align...)
			} else {
				boxTable.draw(&got, header, slices.Values(rows), align)
			}
			if want := freshTable(md, header, rows, align); got.String() != want {
				t.Fatalf("markdown %v, header %q, rows %q, align %v:\ngot\n%s\nwant\n%s", md, header, rows, align, got.String(), want)
			}
		}
	}
}

// TestRowsWrittenAsTablewriterDraws: a boxed table whose rows writeRow
// draws is, byte for byte, the table tablewriter draws of every row, over
// random tables: columns at, over and under the width of their cells (a row
// with a cell wider than its column is tablewriter's), rows shorter and
// longer than the header, empty and padded cells, wide, ambiguous,
// zero-width and combining runes, box drawing, spaces trimmed, escapes.
func TestRowsWrittenAsTablewriterDraws(t *testing.T) {
	t.Cleanup(func() { twwidth.SetOptions(twwidth.Options{}) })
	byTablewriter := tableKind{tablePool(func() tw.Renderer { return renderer.NewBlueprint() }), Printable, false}
	words := []string{"", " ", "x", "40", "West of House", " padded ", "—", "…", "≥ 3", "漢字", "👍", "👩\u200d💻",
		"e\u0301", "\u0301x", "a\u200b", "\u00a0nbsp\u3000", "│─┼", "a\tb", "a\nb", "\x1b[31mred", "\xff", "\u202eevil"}
	r := rand.New(rand.NewPCG(39, 1))
	for n := range 2000 {
		twwidth.SetOptions(widthSettings[n%len(widthSettings)])
		ncols := 1 + r.IntN(6)
		line := func(cells int) []string {
			l := make([]string, cells)
			for i := range l {
				l[i] = words[r.IntN(len(words))] + words[r.IntN(len(words))]
			}
			return l
		}
		header := line(ncols)
		var rows [][]string
		for range r.IntN(12) {
			cells := ncols
			if r.IntN(8) == 0 {
				cells = r.IntN(ncols + 2)
			}
			rows = append(rows, line(cells))
		}
		cols := boxTable.measure(nil, header)
		for _, row := range rows {
			cols = boxTable.measure(cols, row)
		}
		for i := range cols {
			if r.IntN(3) == 0 { // narrower or wider than the cells
				cols[i] = max(2, cols[i]+r.IntN(7)-4)
			}
		}
		var align []Align
		for range r.IntN(ncols + 2) {
			align = append(align, Align(r.IntN(2)))
		}
		var got, want bytes.Buffer
		boxTable.drawMeasured(&got, header, slices.Values(rows), align, slices.Clone(cols))
		byTablewriter.drawMeasured(&want, header, slices.Values(rows), align, slices.Clone(cols))
		if got.String() != want.String() {
			t.Fatalf("header %q, rows %q, widths %v, align %v:\ngot\n%s\nwant\n%s", header, rows, cols, align, got.String(), want.String())
		}
	}
}

// TestWriteRow: rows writeRow draws, and those it leaves to tablewriter.
// Worked by hand: a column of 6 is a space, the cell and the rest in spaces,
// on the left or, aligned right, on the right; 漢字 takes 4 columns; a tab
// is shown as \t (Printable), 2 columns.
func TestWriteRow(t *testing.T) {
	for _, c := range []struct {
		row   []string
		cols  columns
		align []Align
		want  string // "" when tablewriter draws the row
	}{
		{[]string{"ab", "ab"}, columns{6, 6}, []Align{Left, Right}, "│ ab   │   ab │\n"},
		{[]string{" ab ", ""}, columns{4, 3}, nil, "│ ab │   │\n"},
		{[]string{"漢字", "—"}, columns{6, 5}, []Align{Right, Right}, "│ 漢字 │   — │\n"},
		{[]string{"a\tb"}, columns{6}, nil, "│ a\\tb │\n"},
		{[]string{"ab"}, columns{70}, []Align{Right}, "│" + strings.Repeat(" ", 67) + "ab │\n"}, // 70 - 2 - 1
		{[]string{"漢字"}, columns{5}, nil, ""},                                                   // 4 columns in 3
		{[]string{"abc"}, columns{4}, nil, ""},
		{[]string{"ab"}, columns{4, 4}, nil, ""},   // fewer cells than columns
		{[]string{"ab", "c"}, columns{4}, nil, ""}, // more
	} {
		tb := boxTable.pool.Get().(*table)
		tb.out.Reset()
		tb.out.WriteString("above\n")
		drawn := tb.writeRow(c.row, c.cols, c.align)
		got := strings.TrimPrefix(tb.out.String(), "above\n")
		boxTable.pool.Put(tb)
		if drawn != (c.want != "") || got != c.want {
			t.Errorf("writeRow(%q, %v, %v) = %v, %q; want %q", c.row, c.cols, c.align, drawn, got, c.want)
		}
	}
}

// BenchmarkTextTable draws an episode's result table, the table `episode`
// draws for each episode, with a pooled table and with a new one.
func BenchmarkTextTable(b *testing.B) {
	header := []string{"#", "policy", "stop", "stuck", "warned", "turns saved", "calls saved", "score", "forgone", "verdict"}
	align := []Align{Right, Left, Right, Right, Right, Right, Right, Right, Right, Left}
	rows := [][]string{
		{"1", "score 40/10", "40", "40", "0", "60", "240", "10", "20", "premature? +10 at 75 (35 turns later); objective at 30"},
		{"2", "score-or-objective 40/10", "—", "—", "—", "0", "0", "0", "20", "no stop"},
	}
	b.Run("pooled", func(b *testing.B) {
		b.ReportAllocs()
		defer benchdata.CPU(b)()
		for b.Loop() {
			boxTable.draw(io.Discard, header, slices.Values(rows), align)
		}
	})
	// episodes: the table `batch` draws of every episode, here 1,000 rows
	// of a run's ten columns (BenchmarkTiny's 50,000 episodes draw 50 such).
	episodes := make([][]string, 1000)
	for i := range episodes {
		episodes[i] = []string{fmt.Sprintf("e%05d (segment %d)", i, i%7), "2", strconv.Itoa(i % 3), "none", "—", "0", "", "—", "0", ""}
	}
	epHeader := []string{"episode", "turns", "score", "end", "baseline", "saved", "baseline verdict", "after", "saved", "after verdict"}
	epAlign := []Align{Left, Right, Right, Left, Right, Right, Left, Right, Right, Left}
	b.Run("episodes", func(b *testing.B) {
		b.ReportAllocs()
		defer benchdata.CPU(b)()
		for b.Loop() {
			boxTable.draw(io.Discard, epHeader, slices.Values(episodes), epAlign)
		}
	})
	b.Run("new", func(b *testing.B) {
		b.ReportAllocs()
		defer benchdata.CPU(b)()
		for b.Loop() {
			io.WriteString(io.Discard, freshTable(false, header, rows, align))
		}
	})
}
