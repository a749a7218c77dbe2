package steps

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/jsonl"
	"github.com/lbanalyze/lbanalyze/source"
)

// TableFormat is the log_format of tables read through a field map.
const TableFormat = "csv"

// Table reads a per-step table, CSV or TSV, through its field map
// (docs/sources.md, "Per-step tables"): a header row names the columns, in
// any order, and each row after it is a step. A key of the map names a column
// (a nested key's parts joined by dots, "info.score").
type Table struct {
	Fields Fields
	// Preset, when set, makes this a harness's own source (BALROG's).
	Preset *Preset
}

// Format is the log_format of its episodes.
func (s Table) Format() string {
	if s.Preset != nil {
		return s.Preset.Format
	}
	return TableFormat
}

// Opens takes a file named like a table, plain or compressed: *.csv, *.tsv
// and their .gz and .zst.
func (Table) Opens(name string) bool { return TableName(name) }

// Names are the names Opens takes, as shell patterns (source.Named).
func (Table) Names() []string {
	return []string{"*.csv", "*.tsv", "*.csv.gz", "*.tsv.gz", "*.csv.zst", "*.tsv.zst"}
}

// TableName says whether a file is named like a table, plain or compressed.
func TableName(name string) bool {
	name = strings.TrimSuffix(strings.TrimSuffix(name, ".gz"), ".zst")
	return strings.HasSuffix(name, ".csv") || strings.HasSuffix(name, ".tsv")
}

// Claims takes a file only by its header, its first line: it names every
// column of the field map, with commas or tabs between the names.
func (s Table) Claims(head []byte) bool {
	if s.Preset != nil {
		return s.Preset.Claims(head)
	}
	_, ok := tableHeader(head, s.Fields.columns())
	return ok
}

// Unclaimed says why a table that begins with head is not claimed through
// the field map: the columns its header lacks, each with the header's
// nearest names (a column mis-cased, misspelt); "" for a file whose first
// line is no header of several names (JSON Lines, a log of another kind).
func (s Table) Unclaimed(head []byte) string {
	names, _ := TableHead(head)
	if s.Preset != nil || names == nil {
		return ""
	}
	why := lacking(newMatcher(&s.Fields), "column", names, func(_ int, p Path) bool { return slices.Contains(names, p.column()) })
	if why == "" {
		return ""
	}
	return "its header has " + why
}

// TableHead is the header and first row of a table that begins with head,
// as far as head holds them, with commas or tabs between the cells,
// whichever gives the header more names; nil when it has fewer than two, or
// the first line is a JSON object.
func TableHead(head []byte) (names, row []string) {
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	line, rest, found := bytes.Cut(head, []byte("\n"))
	if !found || len(line) == 0 || line[0] == '{' {
		return nil, nil
	}
	var h header
	for _, delim := range []byte{',', '\t'} {
		if hd := headerOf(line, delim); len(hd.names) > len(h.names) {
			h = hd
		}
	}
	if len(h.names) < 2 {
		return nil, nil
	}
	first, _, _ := bytes.Cut(rest, []byte("\n"))
	return h.names, headerOf(first, h.delim).names
}

// HeaderHas reports whether a table that begins with head has a header that
// names every one of want (a preset's columns).
func HeaderHas(head []byte, want []string) bool {
	_, ok := tableHeader(head, want)
	return ok
}

// column is the column of a table that p names: its keys joined by dots, as
// the header writes them, whether p spells a nested key (info.score) or
// one key with a dot in it (info\.score).
func (p Path) column() string { return strings.Join(p, ".") }

// columns are the columns a field map names, each once: the members it
// reads and adds; not the member asked for by --by (source.Options.Member),
// which a table need not have.
func (f *Fields) columns() []string {
	var cols []string
	for _, p := range newMatcher(f).paths {
		if p != nil && !slices.Contains(cols, p.column()) {
			cols = append(cols, p.column())
		}
	}
	return cols
}

// header is a table's first record: its names, and the delimiter between
// them; open, when its last name opens a quote its line does not close.
type header struct {
	names []string
	delim byte
	open  bool
}

// tableHeader is the header of a table that begins with head, when its first
// line, ended within head, is a header of comma- or tab-separated names that
// has every one of want.
func tableHeader(head []byte, want []string) (header, bool) {
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	line, _, found := bytes.Cut(head, []byte("\n"))
	if !found {
		return header{}, false
	}
	for _, delim := range []byte{',', '\t'} {
		h := headerOf(line, delim)
		if !slices.ContainsFunc(want, func(w string) bool { return !slices.Contains(h.names, w) }) {
			return h, true
		}
	}
	return header{}, false
}

// headerOf reads the names of a header line.
func headerOf(line []byte, delim byte) header {
	c := newCells(bufio.NewReader(bytes.NewReader(line)), delim, source.HeadSize*cellCost)
	var rec record
	err := c.next(nil, &rec)
	h := header{names: make([]string, len(rec.cells)), delim: delim, open: err == errUnterminated}
	for i, n := range rec.cells {
		h.names[i] = string(n)
	}
	return h
}

// openName says what is wrong with a header whose last name opens a quote
// its line does not close.
func (h header) openName() string {
	return fmt.Sprintf("its header's last name, %q, opens a quote that its line does not close: a header quoted across a newline is not read (the header is the first line, its names each on it)",
		"\""+h.names[len(h.names)-1])
}

// slots say which cells of a row hold the mapped members: slots[i] is the
// held cell of column i (-1: not read), of[k] the held cell of the line's
// slot k (a field, or a member added to a count: matcher.paths; -1 when the
// table has no such column), n how many cells are held. "" or why the
// header cannot be read through the map: a column it names twice.
func (h header) slots(m *matcher) (slots, of []int, n int, why string) {
	slots = make([]int, len(h.names))
	for i := range slots {
		slots[i] = -1
	}
	of = make([]int, len(m.paths))
	for k, p := range m.paths {
		of[k] = -1
		col := slices.Index(h.names, p.column())
		if p == nil || col < 0 {
			continue
		}
		if last := slices.Index(h.names[col+1:], p.column()); last >= 0 {
			return nil, nil, 0, fmt.Sprintf("its header names %q twice (columns %d and %d): which is the %s is not clear", p.column(), col+1, col+2+last, slotName(k))
		}
		if slots[col] < 0 {
			slots[col] = n
			n++
		}
		of[k] = slots[col]
	}
	return slots, of, n, ""
}

// slotName is what a line's slot k holds, for messages.
func slotName(k int) string {
	if k < int(nFields) {
		return names[k]
	}
	return "count added to"
}

// headOf is the stream's first line, as far as source.HeadSize bytes hold
// it, without consuming it.
func headOf(br *bufio.Reader) []byte {
	for n := 1; ; n = min(br.Buffered()+1, source.HeadSize) {
		head, err := br.Peek(n)
		if i := bytes.IndexByte(head, '\n'); i >= 0 || err != nil || len(head) == source.HeadSize {
			head, _ = br.Peek(br.Buffered())
			return head[:min(len(head), source.HeadSize)]
		}
	}
}

// Read streams the table r into its episodes, as Source reads JSON Lines:
// the same rules of runs (source.Runs) and of steps.
func (s Table) Read(r io.Reader, name string, opt source.Options, emit func(*episode.Episode)) *source.Result {
	fields := s.Fields
	if s.Preset != nil && s.Preset.For != nil {
		f, err := s.Preset.For(name)
		if err != nil {
			return rejected(err.Error())
		}
		fields = f
	}
	b := newBuilder(Source{Fields: fields, Preset: s.Preset}, name, opt, emit)
	b.format = s.Format()
	br, ok := r.(*bufio.Reader)
	if !ok {
		var release func()
		br, release = jsonl.Buffered(r)
		defer release()
	}
	if bom, _ := br.Peek(3); bytes.Equal(bom, []byte("\xef\xbb\xbf")) {
		br.Discard(3)
	}
	h, ok := tableHeader(headOf(br), fields.columns())
	if !ok {
		return rejected(fmt.Sprintf("its first line is not a header naming the columns %q, with commas or tabs between the names", fields.columns()))
	}
	if h.open {
		return rejected(h.openName())
	}
	slots, of, held, why := h.slots(b.match)
	if why != "" {
		return rejected(why)
	}
	c := newCells(br, h.delim, b.opt.MaxLine)
	var rec record
	c.next([]int{}, &rec) // the header, read in tableHeader: no cell held
	rec.cells = make([][]byte, held)
	l := line{raw: make([][]byte, len(of)), cells: true}
	for rows := 0; ; rows++ {
		err := c.next(slots, &rec)
		if err == io.EOF && rows == 0 && b.res.Cut == nil {
			return rejected(noRows)
		}
		if err == io.EOF || err != nil && err != errUnterminated {
			if err != io.EOF {
				b.res.Cut = &episode.Problem{Line: c.lines(), Msg: fmt.Sprintf("read error: after line %d: %v", c.lines(), err)}
			}
			break
		}
		if why := b.rowProblem(&rec, len(h.names), err, of); why != "" {
			b.runs.Last(rec.line).problem(rec.line, true, "%s", why)
			continue
		}
		for k, cell := range of {
			l.raw[k] = nil
			if cell >= 0 {
				l.raw[k] = rec.cells[cell]
			}
		}
		b.step(&l, rec.line)
	}
	b.res.Lines = c.lines()
	return b.finish()
}

// noRows is why a table of a header alone is not read: a run killed before
// its first step, counted and named rather than passed over.
const noRows = "a header and no row: no step to read"

func rejected(why string) *source.Result {
	return &source.Result{Rejected: []source.Rejected{{Segment: 1, Reason: why}}}
}

// rowProblem says why a row cannot be a step: its width, a cell past the
// bound, a row cut by the end of the file; "" when it can.
func (b *builder) rowProblem(rec *record, width int, err error, of []int) string {
	switch {
	case err == errUnterminated:
		return "truncated last row: " + err.Error() + " (a run killed mid-write?): skipped"
	case rec.tooLong >= 0:
		k := slices.Index(of, rec.tooLong)
		what := fmt.Sprintf("%q", b.match.paths[k].column())
		if k < int(nFields) {
			what = b.member(field(k))
		}
		if !rec.alone {
			return fmt.Sprintf("the cells read of this row are longer than %s together (%s among them): this row is skipped", jsonl.Size(int64(b.opt.MaxLine)), what)
		}
		return fmt.Sprintf("%s is longer than %s: this row is skipped", what, jsonl.Size(int64(b.opt.MaxLine)))
	case rec.width != width:
		return fmt.Sprintf("a row of %d cells, where the header has %d: skipped", rec.width, width)
	}
	return ""
}
