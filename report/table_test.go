package report

import (
	"bytes"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/olekukonko/tablewriter"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"

	"github.com/lbanalyze/lbanalyze/internal/texttable"
)

// tablewriterTable is TextTable (md false) or MarkdownTable as they were
// with tablewriter v1.1.5, before internal/texttable replaced it.
func tablewriterTable(w io.Writer, md bool, header []string, rows [][]string, align ...texttable.Align) {
	aligns := make([]tw.Align, len(align))
	for i, a := range align {
		aligns[i] = tw.AlignLeft
		if a == texttable.Right {
			aligns[i] = tw.AlignRight
		}
	}
	opts := []tablewriter.Option{tablewriter.WithHeaderAutoFormat(tw.Off), tablewriter.WithRowAutoWrap(tw.WrapNone),
		tablewriter.WithHeaderAutoWrap(tw.WrapNone), tablewriter.WithHeaderAlignment(tw.AlignLeft),
		tablewriter.WithRowAlignmentConfig(tw.CellAlignment{PerColumn: aligns})}
	if !md {
		t := tablewriter.NewTable(w, opts...)
		t.Header(printableRow(header))
		t.Bulk(printableRows(rows))
		t.Render()
		return
	}
	t := tablewriter.NewTable(w, append([]tablewriter.Option{tablewriter.WithRenderer(renderer.NewMarkdown())}, opts...)...)
	t.Header(mdRow(header))
	for _, r := range rows {
		t.Append(mdRow(r))
	}
	t.Render()
}

// rawFragments are pieces of text as a log may hold them: what Printable and
// MarkdownText escape (control characters, ANSI sequences, tabs, line
// breaks, C1, invalid UTF-8, markdown and HTML specials) beside wide, zero
// width and ambiguous runes, and spaces to trim.
var rawFragments = []string{
	"West of House", "40", "—", "…", " ", "\u00a0", "\u3000", "\t", "\n", "\r\n", "\x1b[31m", "\x1b]0;t\x07", "\x00",
	"\x7f", "\u0085", "\u009b2J", "\xff", "|", "`", "<b>", "&amp;", "漢字", "👍🏽", "❤️", "e\u0301", "\u200b", "─┼", "▁█",
}

func rawTable(r *rand.Rand) (header []string, rows [][]string, align []texttable.Align) {
	cell := func() string {
		var b strings.Builder
		for range r.IntN(4) {
			b.WriteString(rawFragments[r.IntN(len(rawFragments))])
		}
		return b.String()
	}
	cols := 1 + r.IntN(5)
	line := func() []string {
		l := make([]string, cols)
		for i := range l {
			l[i] = cell()
		}
		return l
	}
	header = line()
	for range r.IntN(5) {
		rows = append(rows, line())
	}
	for range r.IntN(cols + 1) {
		align = append(align, texttable.Align(r.IntN(2)))
	}
	return header, rows, align
}

// TestTablesAsTablewriter draws tables of raw log text through TextTable and
// MarkdownTable, escaping included, and through tablewriter as they did
// before: the bytes must be the same (internal/texttable's tests compare the
// renderers themselves, in every width setting).
func TestTablesAsTablewriter(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 1000 {
		header, rows, align := rawTable(r)
		for _, md := range []bool{false, true} {
			var got, want bytes.Buffer
			if md {
				MarkdownTable(&got, header, rows, align...)
			} else {
				TextTable(&got, header, rows, align...)
			}
			tablewriterTable(&want, md, header, rows, align...)
			if got.String() != want.String() {
				t.Fatalf("markdown %v, header %q, rows %q, align %v:\ngot\n%s\nwant\n%s", md, header, rows, align, got.String(), want.String())
			}
		}
	}
}

// BenchmarkTextTable draws an episode's result table, the table `episode`
// draws for each episode, beside tablewriter drawing it as TextTable did.
func BenchmarkTextTable(b *testing.B) {
	header, align := resultHeader(&Episode{Ep: &episode.Episode{}, Options: Options{CallsPerTurn: 4}})
	rows := [][]string{
		{"1", "score 40/10", "40", "40", "0", "60", "240", "10", "20", "premature? +10 at 75 (35 turns later); objective at 30"},
		{"2", "score-or-objective 40/10", "—", "—", "—", "0", "0", "0", "20", "no stop"},
	}
	b.Run("texttable", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			TextTable(io.Discard, header, rows, align...)
		}
	})
	b.Run("tablewriter", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			tablewriterTable(io.Discard, false, header, rows, align...)
		}
	})
}
