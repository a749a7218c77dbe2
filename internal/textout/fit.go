package textout

import (
	"fmt"
	"io"
	"iter"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/olekukonko/tablewriter/pkg/twwidth"
)

// Fit is how the text tables of one output meet a terminal's columns. With
// Width 0 (a file, a pipe) they are drawn whole, as tablewriter draws them; with
// a Width, a table wider than it wraps its columns of words at spaces, and
// if that is not enough shortens its headers and leaves out columns, the
// least telling first, as its Plan says, until it fits. What was left out or
// shortened is said once for the whole output (Note). A Fit may be used by
// several goroutines at once.
type Fit struct {
	Width int

	mu    sync.Mutex
	left  map[string][]string // by table, the columns left out
	short map[string]string   // shortened header: its whole name
}

// Plan is how a table gives way to a narrow terminal.
type Plan struct {
	Name string // the table in the note: "results"
	// Wrap are the columns (by header) whose cells are words, wrapped at
	// spaces onto more lines of the row; never narrower than their header
	// or their longest word.
	Wrap []string
	// Short gives a shorter header, when the table does not fit whole; nil
	// for none.
	Short func(header string) string
	// Drop are the columns (by header; every column so headed) to leave
	// out, the least telling first, while the table does not fit.
	Drop []string
}

// shape is what a table's cells need: by column, the widest cell and the
// widest word (a space either side not counted), the header aside.
type shape struct{ cell, word []int }

func (s *shape) add(cells []string) {
	for i, c := range cells {
		if i == len(s.cell) {
			s.cell, s.word = append(s.cell, 0), append(s.word, 0)
		}
		s.cell[i] = max(s.cell[i], TextWidth(strings.TrimSpace(c)))
		for w := range strings.FieldsSeq(c) {
			for _, p := range pieces(w) {
				s.word[i] = max(s.word[i], TextWidth(p))
			}
		}
	}
}

// TextWidth is the columns s takes on a terminal, as the tables count them
// (Unicode's East Asian Width, ambiguous runes narrow).
func TextWidth(s string) int {
	twwidth.SetEastAsian(false)
	return twwidth.Width(s)
}

// layout is how a table is drawn: the columns kept, their headers and
// widths (a space either side included), and which wrap.
type layout struct {
	keep   []int
	header []string
	width  []int
	wrap   []bool
}

// roomyWidth is how narrow a column of words gets, a space either side
// included, before a column is left out to widen it.
const roomyWidth = 18

// total is the columns a table of these widths takes, borders included.
func total(width []int) int {
	t := len(width) + 1
	for _, w := range width {
		t += w
	}
	return t
}

// lay decides how a table of header and shape s fits f.Width (not 0), and
// notes what it leaves out or shortens.
func (f *Fit) lay(p *Plan, header []string, s shape) layout {
	for len(s.cell) < len(header) {
		s.add(make([]string, len(header)))
	}
	all := make([]int, len(header))
	for i := range all {
		all[i] = i
	}
	l := layout{keep: all, header: header, wrap: make([]bool, len(header))}
	natural := func(l layout) []int {
		w := make([]int, len(l.keep))
		for k, i := range l.keep {
			w[k] = max(s.cell[i], TextWidth(l.header[k])) + 2
		}
		return w
	}
	l.width = natural(l)
	if total(l.width) <= f.Width {
		return l
	}
	short := slices.Clone(header)
	if p.Short != nil {
		for i, h := range header {
			short[i] = p.Short(h)
		}
	}
	l.header = short
	// least are the widths a column of words can be wrapped to: its longest
	// word's, or its header's; roomy, those a column of words is not
	// squeezed below while there are columns to leave out.
	least := func(l layout, roomy bool) []int {
		w := natural(l)
		for k, i := range l.keep {
			if slices.Contains(p.Wrap, header[i]) {
				floor := max(s.word[i], TextWidth(l.header[k])) + 2
				if roomy {
					floor = max(floor, min(w[k], roomyWidth))
				}
				w[k] = floor
			}
		}
		return w
	}
	var left []string
	for _, drop := range p.Drop {
		if total(least(l, true)) <= f.Width {
			break
		}
		var keep []int
		var hdr []string
		for k, i := range l.keep {
			if header[i] != drop {
				keep, hdr = append(keep, i), append(hdr, l.header[k])
			}
		}
		if len(keep) < len(l.keep) {
			left = append(left, drop)
		}
		l.keep, l.header = keep, hdr
	}
	l.width, l.wrap = natural(l), make([]bool, len(l.keep))
	floor := least(l, false)
	for k, i := range l.keep {
		l.wrap[k] = slices.Contains(p.Wrap, header[i])
	}
	for total(l.width) > f.Width { // the widest column of words gives a column at a time
		widest := -1
		for k := range l.width {
			if l.wrap[k] && l.width[k] > floor[k] && (widest < 0 || l.width[k] > l.width[widest]) {
				widest = k
			}
		}
		if widest < 0 {
			break
		}
		l.width[widest]--
	}
	f.said(p, left, header, l)
	return l
}

// said notes what a table left out and which headers it shortened. The
// columns left out of the tables of one plan are kept in its Drop order:
// tables drawn side by side (the episodes of `episode`) may leave out
// different ones, and come in any order.
func (f *Fit) said(p *Plan, left, header []string, l layout) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.left == nil {
		f.left, f.short = map[string][]string{}, map[string]string{}
	}
	for _, c := range left {
		if !slices.Contains(f.left[p.Name], c) {
			f.left[p.Name] = append(f.left[p.Name], c)
		}
	}
	slices.SortFunc(f.left[p.Name], func(a, b string) int { return slices.Index(p.Drop, a) - slices.Index(p.Drop, b) })
	for k, i := range l.keep {
		if l.header[k] != header[i] {
			f.short[l.header[k]] = header[i]
		}
	}
}

// Note says, once for the whole output, what the tables left out or
// shortened to fit; "" when they are whole.
func (f *Fit) Note() string {
	if f == nil {
		return ""
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.left) == 0 && len(f.short) == 0 {
		return ""
	}
	var parts []string
	tables := make([]string, 0, len(f.left))
	for t := range f.left {
		tables = append(tables, t)
	}
	sort.Strings(tables)
	var left []string
	for _, t := range tables {
		left = append(left, strings.Join(f.left[t], ", ")+" ("+t+")")
	}
	if len(left) > 0 {
		parts = append(parts, "left out: "+strings.Join(left, "; "))
	}
	var short []string
	for s, whole := range f.short {
		short = append(short, s+" = "+whole)
	}
	sort.Strings(short)
	if len(short) > 0 {
		parts = append(parts, "shortened: "+strings.Join(short, "; "))
	}
	return fmt.Sprintf("(Tables narrowed to the terminal's %d columns, whole in a file or a pipe; %s.)", f.Width, strings.Join(parts, "; "))
}

// Table draws a table boxed in light lines (headers as given, cells
// Printable, each column aligned as align says), narrowed to f as p says;
// whole when f is nil or has no width.
func (f *Fit) Table(w io.Writer, p *Plan, header []string, rows [][]string, align ...Align) {
	f.Rows(w, p, header, slices.Values(rows), align)
}

// Rows is Table of rows read twice: to measure them, then to draw them.
func (f *Fit) Rows(w io.Writer, p *Plan, header []string, rows iter.Seq[[]string], align []Align) {
	m := f.Measure(header)
	for r := range rows {
		m.Add(r)
	}
	m.Draw(w, p, header, rows, align)
}

// Measured is a table whose rows its caller reads twice, the first time for
// ends of its own too: Add measures each row of that first pass, Draw reads
// them again and draws them as Table would.
type Measured struct {
	f    *Fit
	cols columns
	s    shape
}

// Measure starts a Measured table of f (nil, or no width: drawn whole).
func (f *Fit) Measure(header []string) *Measured {
	return &Measured{f: f, cols: boxTable.measure(nil, header)}
}

func (m *Measured) fitted() bool { return m.f != nil && m.f.Width > 0 }

// Add measures a row.
func (m *Measured) Add(row []string) {
	if m.fitted() {
		m.s.add(boxTable.cells(row))
	} else {
		m.cols = boxTable.measure(m.cols, row)
	}
}

// Draw draws the table of the rows measured, narrowed as p says.
func (m *Measured) Draw(w io.Writer, p *Plan, header []string, rows iter.Seq[[]string], align []Align) {
	if m.fitted() {
		m.f.drawLaid(w, m.f.lay(p, boxTable.cells(header), m.s), rows, align)
	} else {
		boxTable.drawMeasured(w, header, rows, align, m.cols)
	}
}

// drawLaid draws rows as l lays them out: the columns kept, a cell of words
// wider than its column on more lines of its row.
func (f *Fit) drawLaid(w io.Writer, l layout, rows iter.Seq[[]string], align []Align) {
	al := make([]Align, len(l.keep))
	for k, i := range l.keep {
		if i < len(align) {
			al[k] = align[i]
		}
	}
	lines := func(yield func([]string) bool) {
		for r := range rows {
			r = boxTable.cells(r)
			cells := make([][]string, len(l.keep))
			n := 1
			for k, i := range l.keep {
				c := ""
				if i < len(r) {
					c = r[i]
				}
				cells[k] = []string{c}
				if l.wrap[k] && TextWidth(strings.TrimSpace(c)) > l.width[k]-2 {
					cells[k] = WrapWords(c, l.width[k]-2)
				}
				n = max(n, len(cells[k]))
			}
			for j := range n {
				line := make([]string, len(cells))
				for k, c := range cells {
					if j < len(c) {
						line[k] = c[j]
					}
				}
				if !yield(line) {
					return
				}
			}
		}
	}
	boxTable.drawMeasured(w, l.header, lines, al, l.width)
}

// WrapWords cuts text into lines of at most width columns at spaces; a word
// wider than width is cut after its slashes (a path), and a piece still
// wider is a line of its own.
func WrapWords(text string, width int) []string {
	var out []string
	line := ""
	for word := range strings.FieldsSeq(text) {
		ps, sep := []string{word}, " "
		if TextWidth(word) > width {
			ps = pieces(word)
		}
		for _, p := range ps {
			switch {
			case line == "":
				line = p
			case TextWidth(line)+len(sep)+TextWidth(p) <= width:
				line += sep + p
			default:
				out = append(out, line)
				line = p
			}
			sep = ""
		}
	}
	return append(out, line)
}

// pieces are a word cut after each slash.
func pieces(word string) []string {
	ps := strings.SplitAfter(word, "/")
	if ps[len(ps)-1] == "" {
		ps = ps[:len(ps)-1]
	}
	return ps
}
