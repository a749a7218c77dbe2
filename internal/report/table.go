package report

import (
	"bytes"
	"io"
	"reflect"
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

// TextTable renders a table boxed in light lines: headers as given (not
// upper-cased), cells printable (Printable) and never wrapped, each column
// aligned as align says.
func TextTable(w io.Writer, header []string, rows [][]string, align ...Align) {
	draw(w, boxTables, printableRow(header), mapRows(rows, printableRow), align)
}

// MarkdownTable renders a markdown table, cells escaped (MarkdownText), each
// column aligned as align says (`---:` for numbers).
func MarkdownTable(w io.Writer, header []string, rows [][]string, align ...Align) {
	draw(w, markdownTables, mdRow(header), mapRows(rows, mdRow), align)
}

// The tables are drawn by tablewriter, each kind by tables reused from a
// pool: a new tablewriter.Table makes 400 KB of caches, which made `episode`
// (three tables an episode) 2.4× slower; reused, a table costs about 0.15 ms
// (docs/PERFORMANCE.md, "Tables back on tablewriter").
var (
	boxTables      = tablePool(func() tw.Renderer { return renderer.NewBlueprint() })
	markdownTables = tablePool(func() tw.Renderer { return renderer.NewMarkdown() })
)

// table is a reusable tablewriter table and the buffer it draws into.
type table struct {
	t   *tablewriter.Table
	out bytes.Buffer
}

// tablePool makes the tables of one kind.
func tablePool(kind func() tw.Renderer) *sync.Pool {
	return &sync.Pool{New: func() any {
		t := &table{}
		t.t = tablewriter.NewTable(&t.out, tablewriter.WithRenderer(kind()),
			tablewriter.WithHeaderAutoFormat(tw.Off), tablewriter.WithHeaderAutoWrap(tw.WrapNone),
			tablewriter.WithRowAutoWrap(tw.WrapNone), tablewriter.WithHeaderAlignment(tw.AlignLeft),
			tablewriter.WithStringerCacheCustom(noCache{}))
		return t
	}}
}

// draw draws a table with one of pool's tables and writes it to w.
//
// Widths are Unicode's East Asian Width, rune by rune (an emoji sequence
// counts each of its runes), ambiguous runes (—, …, ≥, box drawing) narrow
// as Unicode advises outside East Asian legacy text:
// tablewriter guesses from LANG, LC_ALL, LC_CTYPE, TERM and more at start,
// and the same report would come out with other bytes, misaligned, in a CJK
// locale outside a terminal it knows. Cells hold no tab, newline or escape
// sequence (Printable escapes them), which it would expand to a guessed tab
// stop, split or strip.
func draw(w io.Writer, pool *sync.Pool, header []string, rows [][]string, align []Align) {
	aligns := make([]tw.Align, len(align))
	for i, a := range align {
		aligns[i] = tw.AlignLeft
		if a == Right {
			aligns[i] = tw.AlignRight
		}
	}
	t := pool.Get().(*table)
	defer pool.Put(t)
	twwidth.SetEastAsian(false)
	t.out.Reset()
	t.t.Reset()
	t.t.Configure(func(c *tablewriter.Config) { c.Row.Alignment = tw.CellAlignment{PerColumn: aligns} })
	t.t.Header(header)
	t.t.Bulk(rows)
	t.t.Render()
	w.Write(t.out.Bytes())
}

// noCache is the cache of a table's stringer, which report never sets: the
// default one is remade at 400 KB every time the table is reset.
type noCache struct{}

func (noCache) Add(reflect.Type, reflect.Value) bool { return false }

func (noCache) Get(reflect.Type) (reflect.Value, bool) { return reflect.Value{}, false }

func (noCache) Purge() {}

// mapRows is f of each row.
func mapRows(rows [][]string, f func([]string) []string) [][]string {
	out := make([][]string, len(rows))
	for i, r := range rows {
		out[i] = f(r)
	}
	return out
}
