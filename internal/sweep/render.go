package sweep

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/lbanalyze/lbanalyze/internal/metrics"
	"github.com/lbanalyze/lbanalyze/internal/report"
	"github.com/lbanalyze/lbanalyze/policy"
)

// Layout says how much the text formats show.
type Layout struct {
	// Rows is how many rows of the front the table shows (0: all); the
	// answer's rows and the current setting are shown wherever they rank.
	Rows int
	// Width, when not 0, is the terminal's: columns of the front table are
	// left out, the least telling first, until it fits, and it says so.
	Width int
}

// DefaultRows is how many rows of the front the text formats show by default.
const DefaultRows = 12

// Write renders r in format (table, markdown, csv, json). CSV and JSON
// stream one config at a time, so memory does not grow with the output.
func Write(w io.Writer, format string, r *Result, l Layout) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	var err error
	switch format {
	case "table":
		r.writeText(bw, false, l)
	case "markdown":
		r.writeText(bw, true, l)
	case "csv":
		err = r.writeCSV(bw)
	case "json":
		err = r.writeJSON(bw)
	default:
		return fmt.Errorf("unknown format %q (known: %s)", format, strings.Join(report.Formats, ", "))
	}
	if err != nil {
		return err
	}
	return bw.Flush()
}

// pct shows a share as a percentage with one decimal.
func pct(v float64) string { return strconv.FormatFloat(100*v, 'f', 1, 64) + "%" }

// pp shows a difference of shares in percentage points.
func pp(v float64) string { return strconv.FormatFloat(100*v, 'f', 1, 64) + " pp" }

func pctRange(ci [2]float64) string { return pct(ci[0]) + " … " + pct(ci[1]) }

func (r *Result) writeText(w io.Writer, md bool, l Layout) {
	if md {
		fmt.Fprint(w, "## Loop-break sweep\n\n")
	}
	for _, s := range r.Sections() {
		writeSection(w, s, md)
	}
	fmt.Fprintln(w, r.Summary())
	rows, front := r.FrontTable(l.Rows)
	title := r.FrontTitle(len(rows)-1, front)
	if md {
		fmt.Fprintf(w, "\n### %s\n\n", title)
	} else {
		fmt.Fprintf(w, "\n%s\n", title)
	}
	cells := make([][]string, len(rows))
	for k := range rows {
		cells[k] = rows[k].Cells
	}
	header := r.FrontHeader()
	align := make([]report.Align, len(header)) // numbers right; the config and the note left
	for k := range align {
		align[k] = report.Right
	}
	align[1], align[len(align)-1] = report.Left, report.Left
	if md {
		report.MarkdownTable(w, header, cells, align...)
		fmt.Fprintf(w, "\n%s\n", r.FrontLegend())
		return
	}
	fitTable(w, header, cells, align, l.Width)
	fmt.Fprintln(w, r.FrontLegend())
}

// writeSection writes a part of the answer: in markdown a bold headline and
// a list, each line its own item (a renderer joins plain lines into one).
func writeSection(w io.Writer, s Section, md bool) {
	if md {
		fmt.Fprintf(w, "**%s**\n\n", report.MarkdownText(s.Headline))
		for _, l := range s.Lines {
			fmt.Fprintf(w, "- **%s**: %s\n", l.Label, report.MarkdownText(l.Text))
		}
		if len(s.Lines) > 0 {
			fmt.Fprintln(w)
		}
		if s.Paste != "" {
			fmt.Fprintf(w, "%s:\n\n```%s\n%s```\n\n", s.PasteWhat, s.Lang, s.Paste)
		}
		return
	}
	fmt.Fprintln(w, s.Headline)
	width := 0
	for _, l := range s.Lines {
		width = max(width, len(l.Label))
	}
	for _, l := range s.Lines {
		fmt.Fprintf(w, "  %-*s  %s\n", width, l.Label, l.Text)
	}
	if s.Paste != "" {
		fmt.Fprintf(w, "\n%s:\n\n%s", s.PasteWhat, s.Paste)
	}
	fmt.Fprintln(w)
}

// dropOrder is the front table's columns the least telling first: left out,
// in turn, to fit a terminal.
var dropOrder = []string{"score forgone", "censored"}

// fitTable writes a bordered table; with width, it leaves out columns
// (dropOrder) until its lines fit, and says which.
func fitTable(w io.Writer, header []string, rows [][]string, align []report.Align, width int) {
	var b strings.Builder
	report.TextTable(&b, header, rows, align...)
	var dropped []string
	for _, name := range dropOrder {
		if width == 0 || widest(b.String()) <= width {
			break
		}
		k := slices.Index(header, name)
		header, align = slices.Delete(slices.Clone(header), k, k+1), slices.Delete(slices.Clone(align), k, k+1)
		for i := range rows {
			rows[i] = slices.Delete(slices.Clone(rows[i]), k, k+1)
		}
		dropped = append(dropped, name)
		b.Reset()
		report.TextTable(&b, header, rows, align...)
	}
	io.WriteString(w, b.String())
	if len(dropped) > 0 {
		fmt.Fprintf(w, "(left out to fit the terminal's %d columns: %s; the full table in a file or pipe)\n", width, strings.Join(dropped, ", "))
	}
}

// widest is the width of the longest line of s, one column a rune (the
// table's cells and borders are of one column each).
func widest(s string) int {
	m := 0
	for line := range strings.Lines(s) {
		m = max(m, utf8.RuneCountInString(strings.TrimSuffix(line, "\n")))
	}
	return m
}

// columns are a config's fields as csv and json give them, in order: the
// policy, every parameter (nil where the policy has none), every metric of
// batch, the share of censored outcomes in % and whether it is on the front.
func (r *Result) columns() []string {
	cols := []string{"policy"}
	for _, s := range policy.Settings() {
		cols = append(cols, s.Key)
	}
	for k := range r.Defs.Len() {
		cols = append(cols, r.Defs.Name(k))
	}
	return append(cols, "censored_pct", "pareto")
}

// values are c's fields in the order of columns: strings, ints, floats
// (rounded to 6 decimals), bools, or nil.
func (r *Result) values(c *Config) []any {
	v := []any{string(c.Policy.Name)}
	for _, s := range policy.Settings() {
		if !c.Policy.Has(s) {
			v = append(v, nil)
			continue
		}
		v = append(v, s.Value(c.Policy.Get(s)))
	}
	for k := range r.Defs.Len() {
		if x, ok := r.Defs.Value(&c.Sums, k); ok {
			v = append(v, *metrics.Round6(x))
		} else {
			v = append(v, nil)
		}
	}
	return append(v, *metrics.Round6(100 * r.CensoredShare(c)), c.Pareto)
}

func (r *Result) writeCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write(r.columns())
	row := make([]string, 0, 32)
	for i := range r.Configs {
		row = row[:0]
		for _, v := range r.values(&r.Configs[i]) {
			row = append(row, csvCell(v))
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

func csvCell(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case string: // the policy and enumerations' names: text, never a formula
		return report.CSVText(v)
	}
	return fmt.Sprint(v)
}
