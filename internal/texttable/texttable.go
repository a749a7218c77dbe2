// Package texttable draws the tables of the text and markdown outputs: a box
// table drawn with Unicode lines, and a markdown table.
//
// It replaces github.com/olekukonko/tablewriter v1.1.5, which report used
// with headers as given, no wrapping and an alignment per column, and draws
// those tables byte for byte as it did (a differential test holds the two
// together): the same cell trimming, widths, padding, borders and markdown
// separator row. tablewriter cost every run of the binary an 8192-entry width
// cache built at init (0.4 ms, 660 KB: issue 13's start-up goal) and every
// table over 500 KB of allocations, caches mostly (the peak memory of
// `episode` on hundreds of episodes); this package builds nothing at init and
// one buffer a table.
//
// Cells must be printable, one line each: no control characters (report
// escapes them with Printable), which tablewriter would have split into lines,
// expanded (tabs) or stripped (ANSI sequences). The header has a cell at least:
// tablewriter drew a table without one differently, and report never draws one.
package texttable

import (
	"io"
	"strings"
)

// Align is how a column's cells sit in it: Left (the zero value, also for
// columns beyond those given) or Right (numbers). Headers are always left.
type Align uint8

const (
	Left Align = iota
	Right
)

// cell is a trimmed cell and its width.
type cell struct {
	text  string
	width int
}

// grid is a table laid out: its cells trimmed and measured, and the width of
// each column, a space either side of its widest cell included.
type grid struct {
	m      measure
	header []cell
	rows   [][]cell // a row given with no cells stays empty: it draws no line
	cols   []int
	align  []Align
}

func layout(m measure, header []string, rows [][]string, align []Align) *grid {
	n := len(header)
	for _, r := range rows {
		n = max(n, len(r))
	}
	g := &grid{m: m, cols: make([]int, n), align: align}
	g.header = g.cells(header, n)
	g.rows = make([][]cell, len(rows))
	for i, r := range rows {
		if len(r) > 0 {
			g.rows[i] = g.cells(r, n)
		}
	}
	return g
}

// cells trims and measures the cells of a line (tablewriter trims each cell
// with strings.TrimSpace, Unicode spaces too), padding it to n cells with
// empty ones, and widens the columns to fit them.
func (g *grid) cells(line []string, n int) []cell {
	out := make([]cell, n)
	for i, s := range line {
		s = strings.TrimSpace(s)
		out[i] = cell{s, g.m.width(s)}
	}
	for i, c := range out {
		g.cols[i] = max(g.cols[i], c.width+2)
	}
	return out
}

// alignOf is the alignment of column col: Left beyond those given.
func (g *grid) alignOf(col int) Align {
	if col < len(g.align) {
		return g.align[col]
	}
	return Left
}

// line appends a line of cells, each between two sep; body says whether the
// columns' alignments apply (headers are left aligned). A cell sits in its
// column's width as a space, the text and spaces (left), or spaces, the text
// and a space (right).
func (g *grid) line(b []byte, sep string, cells []cell, body bool) []byte {
	b = append(b, sep...)
	for i, c := range cells {
		fill := g.cols[i] - c.width - 1
		if body && g.alignOf(i) == Right {
			b = repeat(b, " ", fill)
			b = append(b, c.text...)
			b = append(b, ' ')
		} else {
			b = append(b, ' ')
			b = append(b, c.text...)
			b = repeat(b, " ", fill)
		}
		b = append(b, sep...)
	}
	return append(b, '\n')
}

// repeat appends s n times.
func repeat(b []byte, s string, n int) []byte {
	for range n {
		b = append(b, s...)
	}
	return b
}

// buffer is room for the table's lines, as long in bytes as its rules drawn
// with glyphs of size bytes (lines of cells are about as long unless full of
// multi-byte runes): one buffer, one write a table.
func (g *grid) buffer(size int) []byte {
	n := size
	for _, w := range g.cols {
		n += size * (w + 1)
	}
	return make([]byte, 0, (n+1)*(len(g.rows)+4))
}

// Box writes a table boxed in light lines: a border, the header (left
// aligned), a rule under it when there are rows, the rows (each column
// aligned as align says), a border. Rows may be ragged: missing cells are
// empty, and a row without cells draws no line.
func Box(w io.Writer, header []string, rows [][]string, align []Align) error {
	return box(w, environment(), header, rows, align)
}

func box(w io.Writer, m measure, header []string, rows [][]string, align []Align) error {
	g := layout(m, header, rows, align)
	b := g.rule(g.buffer(len("─")), "┌", "┬", "┐")
	b = g.line(b, "│", g.header, false)
	if len(rows) > 0 {
		b = g.rule(b, "├", "┼", "┤")
	}
	for _, r := range g.rows {
		if r != nil {
			b = g.line(b, "│", r, true)
		}
	}
	b = g.rule(b, "└", "┴", "┘")
	_, err := w.Write(b)
	return err
}

// rule appends a horizontal line. Where "─" is two cells wide (East Asian
// setting), a column of odd width ends its run of them with a space, as
// tablewriter did.
func (g *grid) rule(b []byte, left, mid, right string) []byte {
	seg := g.m.rune('─')
	b = append(b, left...)
	for i, w := range g.cols {
		if i > 0 {
			b = append(b, mid...)
		}
		b = repeat(b, "─", w/seg)
		b = repeat(b, " ", w%seg)
	}
	b = append(b, right...)
	return append(b, '\n')
}

// Markdown writes a markdown table: the header, the separator row (`---:`
// over a right-aligned column, `:--` otherwise), the rows. Columns are at
// least 3 wide, so that the separator has its dashes. Rows may be ragged, as
// in Box.
func Markdown(w io.Writer, header []string, rows [][]string, align []Align) error {
	return markdown(w, environment(), header, rows, align)
}

func markdown(w io.Writer, m measure, header []string, rows [][]string, align []Align) error {
	g := layout(m, header, rows, align)
	for i := range g.cols {
		g.cols[i] = max(g.cols[i], 3)
	}
	b := g.line(g.buffer(1), "|", g.header, false)
	// tablewriter took the separator's alignments from the first row it
	// drew; with none (no rows, or rows without cells), every column is
	// marked left, right-aligned ones too.
	body := false
	for _, r := range g.rows {
		body = body || r != nil
	}
	b = append(b, '|')
	for i, w := range g.cols {
		if body && g.alignOf(i) == Right {
			b = repeat(b, "-", w-1)
			b = append(b, ':')
		} else {
			b = append(b, ':')
			b = repeat(b, "-", w-1)
		}
		b = append(b, '|')
	}
	b = append(b, '\n')
	for _, r := range g.rows {
		if r != nil {
			b = g.line(b, "|", r, true)
		}
	}
	_, err := w.Write(b)
	return err
}
