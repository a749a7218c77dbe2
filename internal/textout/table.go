package textout

import (
	"bytes"
	"io"
	"iter"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/pkg/twwidth"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
)

// Align is how a column's cells sit in a table: Left (the zero value, and
// columns beyond those given) or Right (numbers). Headers are always left.
type Align uint8

const (
	Left Align = iota
	Right
)

// MarkdownTable renders a markdown table, cells escaped (MarkdownText), each
// column aligned as align says (`---:` for numbers).
func MarkdownTable(w io.Writer, header []string, rows [][]string, align ...Align) {
	markdownTable.draw(w, header, slices.Values(rows), align)
}

// MarkdownRows is MarkdownTable of rows read twice: to measure, then to draw.
func MarkdownRows(w io.Writer, header []string, rows iter.Seq[[]string], align []Align) {
	markdownTable.draw(w, header, rows, align)
}

// tableKind is a kind of table: how it is drawn, and what its cells become.
type tableKind struct {
	pool *sync.Pool
	cell func(string) string // Printable, or MarkdownText
	// boxed: the rows are light lines between column symbols, which writeRow
	// draws as tablewriter's Blueprint does.
	boxed bool
}

// cells are what a row's cells become in a table of kind k.
func (k tableKind) cells(row []string) []string {
	out := make([]string, len(row))
	for i, c := range row {
		out[i] = k.cell(c)
	}
	return out
}

// The tables are drawn by tablewriter (but for the rows of a boxed table,
// writeRow), each kind by tables reused from a pool: a new tablewriter.Table
// makes 400 KB of caches, which would make `episode` (three tables an
// episode) 2.4× slower; reused, a table costs about 0.15 ms
// (docs/PERFORMANCE.md, "Tables").
var (
	boxTable      = tableKind{tablePool(func() tw.Renderer { return renderer.NewBlueprint() }), Printable, true}
	markdownTable = tableKind{tablePool(func() tw.Renderer { return renderer.NewMarkdown() }), MarkdownText, false}
)

// table is a reusable tablewriter table and the buffer it draws into.
type table struct {
	t      *tablewriter.Table
	out    bytes.Buffer
	column string // the symbol between columns, and at either end of a row
}

// tablePool makes the tables of one kind. They stream: the rows are drawn
// as they come, with the widths of the columns measured before (columns),
// so that a table of a million rows is never held (docs/PERFORMANCE.md,
// "Memory"); the bytes are those tablewriter draws from the rows held.
func tablePool(kind func() tw.Renderer) *sync.Pool {
	return &sync.Pool{New: func() any {
		r := kind()
		t := &table{column: r.Config().Symbols.Column()}
		t.t = tablewriter.NewTable(&t.out, tablewriter.WithRenderer(r),
			tablewriter.WithHeaderAutoFormat(tw.Off), tablewriter.WithHeaderAutoWrap(tw.WrapNone),
			tablewriter.WithRowAutoWrap(tw.WrapNone), tablewriter.WithHeaderAlignment(tw.AlignLeft),
			tablewriter.WithStringerCacheCustom(noCache{}), tablewriter.WithStreaming(tw.StreamConfig{Enable: true}))
		return t
	}}
}

// draw draws a table whose rows are read twice: once to measure the
// columns, once to draw them.
func (k tableKind) draw(w io.Writer, header []string, rows iter.Seq[[]string], align []Align) {
	cols := k.measure(nil, header)
	for r := range rows {
		cols = k.measure(cols, r)
	}
	k.drawMeasured(w, header, rows, align, cols)
}

// columns are the widths of a table's columns as tablewriter draws them: the
// widest cell, spaces around it trimmed, and a space either side.
type columns []int

// measure widens cols to hold row; a table's first row (cols nil) fixes the
// width rule, which tablewriter sets only at start (drawMeasured).
func (k tableKind) measure(cols columns, row []string) columns {
	if cols == nil {
		twwidth.SetEastAsian(false)
	}
	for i, c := range row {
		if i == len(cols) {
			cols = append(cols, 0)
		}
		cols[i] = max(cols[i], twwidth.Width(strings.TrimSpace(k.cell(c)))+2)
	}
	return cols
}

// drawMeasured draws a table whose columns are measured (measure, over the
// header and every row), writing to w as it goes.
//
// Widths are Unicode's East Asian Width, rune by rune (an emoji sequence
// counts each of its runes), ambiguous runes (—, …, ≥, box drawing) narrow
// as Unicode advises outside East Asian legacy text:
// tablewriter guesses from LANG, LC_ALL, LC_CTYPE, TERM and more at start,
// and the same report would come out with other bytes, misaligned, in a CJK
// locale outside a terminal it knows. Cells hold no tab, newline or escape
// sequence (Printable escapes them), which it would expand to a guessed tab
// stop, split or strip.
func (k tableKind) drawMeasured(w io.Writer, header []string, rows iter.Seq[[]string], align []Align, cols columns) {
	aligns := make([]tw.Align, len(align))
	for i, a := range align {
		aligns[i] = tw.AlignLeft
		if a == Right {
			aligns[i] = tw.AlignRight
		}
	}
	widths := tw.NewMapper[int, int]()
	for i, c := range cols {
		widths.Set(i, c)
	}
	t := k.pool.Get().(*table)
	defer k.pool.Put(t)
	twwidth.SetEastAsian(false)
	t.out.Reset()
	t.t.Reset()
	t.t.Configure(func(c *tablewriter.Config) {
		c.Row.Alignment = tw.CellAlignment{PerColumn: aligns}
		c.Widths = tw.CellWidth{PerColumn: widths}
	})
	t.t.Start() // never fails: the renderers stream
	t.t.Header(k.cells(header))
	first := true
	for r := range rows {
		// The first row is tablewriter's, which draws the line under the
		// header before it.
		if first || !k.boxed || !t.writeRow(r, cols, align) {
			t.t.Append(k.cells(r))
		}
		first = false
		if t.out.Len() >= tableFlushAt {
			w.Write(t.out.Bytes())
			t.out.Reset()
		}
	}
	t.t.Close()
	w.Write(t.out.Bytes())
}

// writeRow writes a row of a boxed table, its cells Printable, as
// tablewriter draws it, and says whether it did: not when a cell is wider
// than its column (tablewriter cuts it), nor when the row has more or fewer
// cells than the table has columns. A Printable cell holds no tab, newline
// or escape sequence, which tablewriter would expand, split or strip.
//
// Rows are written here, not by tablewriter, the tables' library, for speed:
// tablewriter draws a row in about 30 µs of CPU, most of it garbage (maps of
// each cell's context, each cell padded in new strings), writeRow in about
// 1 µs: `batch` over 50,000 tiny episodes takes 1.1 s of CPU, 2.6 with
// tablewriter drawing every row (docs/PERFORMANCE.md, "Tables").
// TestRowsWrittenAsTablewriterDraws proves the bytes equal.
func (t *table) writeRow(row []string, cols columns, align []Align) bool {
	if len(row) != len(cols) {
		return false
	}
	start := t.out.Len()
	t.out.WriteString(t.column)
	for i, c := range row {
		c = strings.TrimSpace(Printable(c))
		w := twwidth.Width(c)
		if w > cols[i]-2 {
			t.out.Truncate(start)
			return false
		}
		// A space on one side, the rest of the column on the other.
		if i < len(align) && align[i] == Right {
			t.pad(cols[i] - 1 - w)
			t.out.WriteString(c)
			t.out.WriteByte(' ')
		} else {
			t.out.WriteByte(' ')
			t.out.WriteString(c)
			t.pad(cols[i] - 1 - w)
		}
		t.out.WriteString(t.column)
	}
	t.out.WriteByte('\n')
	return true
}

// pad writes n spaces.
func (t *table) pad(n int) {
	const spaces = "                                                                "
	for ; n > len(spaces); n -= len(spaces) {
		t.out.WriteString(spaces)
	}
	t.out.WriteString(spaces[:n])
}

// tableFlushAt is how many bytes of a table are written out at a time.
const tableFlushAt = 64 << 10

// noCache is the cache of a table's stringer, which report never sets: the
// default one is remade at 400 KB every time the table is reset.
type noCache struct{}

func (noCache) Add(reflect.Type, reflect.Value) bool { return false }

func (noCache) Get(reflect.Type) (reflect.Value, bool) { return reflect.Value{}, false }

func (noCache) Purge() {}
