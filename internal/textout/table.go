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
	cell func(row []string) []string // Printable, or MarkdownText, of each cell
}

// The tables are drawn by tablewriter, each kind by tables reused from a
// pool: a new tablewriter.Table makes 400 KB of caches, which would make
// `episode` (three tables an episode) 2.4× slower; reused, a table costs about 0.15 ms
// (docs/PERFORMANCE.md, "Tables").
var (
	boxTable      = tableKind{tablePool(func() tw.Renderer { return renderer.NewBlueprint() }), printableRow}
	markdownTable = tableKind{tablePool(func() tw.Renderer { return renderer.NewMarkdown() }), markdownRow}
)

// table is a reusable tablewriter table and the buffer it draws into.
type table struct {
	t   *tablewriter.Table
	out bytes.Buffer
}

// tablePool makes the tables of one kind. They stream: the rows are drawn
// as they come, with the widths of the columns measured before (columns),
// so that a table of a million rows is never held (docs/PERFORMANCE.md,
// "Memory"); the bytes are those tablewriter draws from the rows held.
func tablePool(kind func() tw.Renderer) *sync.Pool {
	return &sync.Pool{New: func() any {
		t := &table{}
		t.t = tablewriter.NewTable(&t.out, tablewriter.WithRenderer(kind()),
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
	for i, c := range k.cell(row) {
		if i == len(cols) {
			cols = append(cols, 0)
		}
		cols[i] = max(cols[i], twwidth.Width(strings.TrimSpace(c))+2)
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
	t.t.Header(k.cell(header))
	for r := range rows {
		t.t.Append(k.cell(r))
		if t.out.Len() >= tableFlushAt {
			w.Write(t.out.Bytes())
			t.out.Reset()
		}
	}
	t.t.Close()
	w.Write(t.out.Bytes())
}

// tableFlushAt is how many bytes of a table are written out at a time.
const tableFlushAt = 64 << 10

// noCache is the cache of a table's stringer, which report never sets: the
// default one is remade at 400 KB every time the table is reset.
type noCache struct{}

func (noCache) Add(reflect.Type, reflect.Value) bool { return false }

func (noCache) Get(reflect.Type) (reflect.Value, bool) { return reflect.Value{}, false }

func (noCache) Purge() {}
