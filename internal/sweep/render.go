package sweep

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/lbanalyze/lbanalyze/internal/metrics"
	"github.com/lbanalyze/lbanalyze/internal/textout"
)

// Layout says how much the text formats show.
type Layout struct {
	// Rows is how many rows of the front the table shows (0: all); the
	// answer's rows and the current setting are shown wherever they rank.
	Rows int
	// Fit is what the front table fits (textout.Fit): nil, whole.
	Fit *textout.Fit
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
		return textout.UnknownFormat(format)
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

// ppMargin is --ft-margin in percentage points to the decimals it was given
// with (2.0 pp, 0.25 pp), where pp would round 0.01 to 0.0.
func ppMargin(v float64) string {
	s := strconv.FormatFloat(100*v, 'g', 6, 64)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s + " pp"
}

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
	shown := len(rows) - 1 // the first rows, and the answer's and the best overall's wherever they rank
	if l.Rows > 0 {
		shown = min(l.Rows, front)
	}
	title := r.FrontTitle(shown, front)
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
	align := make([]textout.Align, len(header)) // numbers right; the config and the note left
	for k := range align {
		align[k] = textout.Right
	}
	align[1], align[len(align)-1] = textout.Left, textout.Left
	if md {
		textout.MarkdownTable(w, header, cells, align...)
		fmt.Fprintf(w, "\n%s\n", r.FrontLegend())
		return
	}
	l.Fit.Table(w, frontPlan, header, cells, align...)
	fmt.Fprintln(w, r.FrontLegend())
}

// writeSection writes a part of the answer: in markdown a bold headline and
// a list, each line its own item (a renderer joins plain lines into one).
func writeSection(w io.Writer, s Section, md bool) {
	if md {
		fmt.Fprintf(w, "**%s**\n\n", textout.MarkdownText(s.Headline))
		for _, l := range s.Lines {
			fmt.Fprintf(w, "- **%s**: %s\n", l.Label, textout.MarkdownText(l.Text))
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

// frontPlan is how the front table gives way to a narrow terminal.
var frontPlan = &textout.Plan{Name: "front", Wrap: []string{"config", "turns saved", "tokens saved", costHeader, "false terminations", "note"},
	Short: textout.Shorter(map[string]string{"turns saved": "turns", "tokens saved": "tokens", "false terminations": "false",
		"score forgone": "forgone", "solves lost": "lost", costHeader: "cost (CI)"}),
	Drop: []string{"score forgone", "solves lost", "censored", "tokens saved"}}

// columns are a config's fields as csv gives them, in order: the policy,
// its settings (policy.Written, one cell), then its figures
// (figureColumns).
func (r *Result) columns() []string {
	return append([]string{"policy", "settings"}, r.figureColumns()...)
}

// figureColumns are what csv and json give of a config after its policy
// and settings: every metric of batch, the share of censored outcomes in %,
// whether it is on the front, its class (the index of the config that
// stands for every config with its outcome on every episode; nil for now's)
// and whether it has now's; when priced, the 95% interval of the cost saved
// of the configs the front and the answer show (nil for the others).
func (r *Result) figureColumns() []string {
	var cols []string
	for k := range r.Defs.Len() {
		cols = append(cols, r.Defs.Name(k))
	}
	cols = append(cols, "censored_pct", "pareto", "class", "same_outcomes_as_now")
	if r.Dollars != nil {
		cols = append(cols, "cost_saved_ci95_lo", "cost_saved_ci95_hi")
	}
	return cols
}

// values are c's fields in the order of columns.
func (r *Result) values(c *Config) []any {
	return append([]any{string(c.Policy.Name), c.Policy.Written().String()}, r.figureValues(c)...)
}

// figureValues are c's fields in the order of figureColumns: ints, floats
// (rounded to 6 decimals), bools, or nil.
func (r *Result) figureValues(c *Config) []any {
	var v []any
	for k := range r.Defs.Len() {
		if x, ok := r.Defs.Value(&c.Sums, k); ok {
			v = append(v, *metrics.Round6(x))
		} else {
			v = append(v, nil)
		}
	}
	var class any // the representative of the config's class; null in now's
	if c.Class >= 0 {
		class = c.Class
	}
	v = append(v, *metrics.Round6(100 * r.CensoredShare(c)), c.Pareto, class, c.Class < 0)
	if r.Dollars != nil {
		if d, ok := r.Dollars[c.Policy]; ok && d.CI != nil {
			return append(v, *metrics.Round6(d.CI[0]), *metrics.Round6(d.CI[1]))
		}
		v = append(v, nil, nil)
	}
	return v
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
		return textout.CSVText(v)
	}
	return fmt.Sprint(v)
}
