package sweep

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/lbanalyze/lbanalyze/internal/texttable"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/report"
)

// Write renders r in format (table, markdown, csv, json). CSV and JSON
// stream one config at a time, so memory does not grow with the output.
func Write(w io.Writer, format string, r *Result) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	var err error
	switch format {
	case "table":
		r.writeText(bw, false)
	case "markdown":
		r.writeText(bw, true)
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

func pctRange(ci [2]float64) string { return pct(ci[0]) + " … " + pct(ci[1]) }

// frontHeader and frontRow are the columns of the front table.
var frontHeader = []string{"#", "config", "turns saved", "share", "false terminations", "rate", "score forgone", "censored", ""}

func (r *Result) frontRow(label string, c *Config) []string {
	note := ""
	switch {
	case r.CensoredShare(c) > r.MaxCensored:
		note = "lengths are lower bounds (censored)"
	case r.Recommended != nil && c == &r.Configs[r.Recommended.Config]:
		note = "recommended"
	}
	if _, err := c.Policy.TOML(); err != nil && note == "" {
		note = "needs a ZorkGPT change"
	}
	return []string{label, c.Policy.String(), strconv.Itoa(c.TurnsSaved), pct(r.SavedShare(c)), strconv.Itoa(c.FalseTerminations),
		pct(r.FalseRate(c)), strconv.Itoa(c.ScoreForgone), fmt.Sprintf("%d (%s)", c.Censored, pct(r.CensoredShare(c))), note}
}

func (r *Result) writeText(w io.Writer, md bool) {
	head := func(s string) {
		if md {
			fmt.Fprintf(w, "\n### %s\n\n", s)
		} else {
			fmt.Fprintf(w, "\n%s\n", s)
		}
	}
	if md {
		fmt.Fprintln(w, "## Loop-break sweep")
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "%d configs over %d episodes (%d logged turns); targets: false-termination rate <= %s, censored outcomes <= %s; %d LLM calls a turn.\n",
		len(r.Configs), r.N, r.TotalTurns, pct(r.MaxFalseRate), pct(r.MaxCensored), r.CallsPerTurn)
	head(fmt.Sprintf("Pareto front: %d of %d configs (turns saved up, false terminations and score forgone down), most turns saved first", len(r.Front), len(r.Configs)))
	rows := [][]string{}
	for k, i := range r.Front {
		rows = append(rows, r.frontRow(strconv.Itoa(k+1), &r.Configs[i]))
	}
	rows = append(rows, r.frontRow("now", r.Current))
	right, left := texttable.Right, texttable.Left
	align := []texttable.Align{right, left, right, right, right, right, right, right, left}
	if md {
		report.MarkdownTable(w, frontHeader, rows, align...)
	} else {
		report.TextTable(w, frontHeader, rows, align...)
	}
	head("Recommendation")
	for _, l := range r.recommendationLines() {
		fmt.Fprintln(w, l)
	}
	if block, what := r.pasteBlock(); block != "" {
		if md {
			fmt.Fprintf(w, "\n%s:\n\n```toml\n%s```\n", what, block)
		} else {
			fmt.Fprintf(w, "\n%s:\n\n%s", what, block)
		}
	}
}

// pasteBlock is the TOML block to paste: the recommendation's, or when
// ZorkGPT cannot run it, the best config's it can run.
func (r *Result) pasteBlock() (block, what string) {
	rec := r.Recommended
	switch {
	case rec == nil:
		return "", ""
	case rec.TOML != "":
		what = "Paste into pyproject.toml"
		if k := r.Configs[rec.Config].Policy.Kind(); k != nil && k.Runner != nil && k.Runner.Note != "" {
			what += " (" + k.Runner.Note + ")" // zorkburr: the runner must enforce it
		}
		return rec.TOML, what
	case r.BestRunnable >= 0:
		b, _ := r.Configs[r.BestRunnable].Policy.TOML()
		return b, fmt.Sprintf("For %s, which ZorkGPT runs as it is, paste into pyproject.toml", r.Configs[r.BestRunnable].Policy)
	}
	return "", ""
}

// recommendationLines say what was chosen and how far to trust it.
func (r *Result) recommendationLines() []string {
	rec := r.Recommended
	if rec == nil {
		return []string{fmt.Sprintf("Every config has censored outcomes in more than %s of the episodes: raise --max-censored to choose among them.", pct(r.MaxCensored))}
	}
	c := &r.Configs[rec.Config]
	l := []string{fmt.Sprintf("%s: the most turns saved with a false-termination rate within %s.", c.Policy, pct(r.MaxFalseRate))}
	if !rec.MeetsTarget {
		l = []string{fmt.Sprintf("No config keeps the false-termination rate within %s (with censored outcomes within %s). The nearest, the lowest rate:", pct(r.MaxFalseRate), pct(r.MaxCensored)),
			fmt.Sprintf("%s. Raise --max-false-rate to trade more false terminations for turns, or widen the grid.", c.Policy)}
	}
	if r.N < report.MinN {
		l = append(l, fmt.Sprintf("  n = %d: too few episodes for intervals or cross-validation; take this as a description, not a recommendation.", r.N))
	} else {
		l = append(l,
			fmt.Sprintf("  in sample, n = %d:  false-termination rate %s (95%% CI %s), turns saved %s (95%% CI %s)",
				r.N, pct(r.FalseRate(c)), pctRange(rec.FalseRateCI), pct(r.SavedShare(c)), pctRange(rec.SavedShareCI)))
		if cv := rec.CV; cv.Folds > 0 {
			l = append(l,
				fmt.Sprintf("  held out, %d-fold:   false-termination rate %s (95%% CI %s), turns saved %s",
					cv.Folds, pct(cv.HeldOutFalseRate), pctRange(cv.HeldOutFalseCI), pct(cv.HeldOutSavedShare)),
				fmt.Sprintf("    chosen on %d folds and measured on the one held out, %d times: expect these on new episodes; the in-sample figures are optimistic, as they were chosen on the same data.", cv.Folds-1, cv.Folds),
				fmt.Sprintf("    %d of %d folds chose %s%s.", cv.Agree, cv.Folds, c.Policy, undecided(cv.Undecided)))
		}
		rivals := ""
		for _, rv := range rec.Rivals {
			rivals += fmt.Sprintf("; %s %s", r.Configs[rv.Config].Policy, pct(rv.Share))
		}
		l = append(l, fmt.Sprintf("  stability: chosen in %s of %d bootstrap resamples (among %d configs)%s",
			pct(rec.Stability), StabilityResamples, rec.Candidates, strings.Replace(rivals, "; ", "; also ", 1)))
	}
	l = append(l, r.versusLine(c))
	if rec.TOML == "" {
		l = append(l, "  "+rec.Change+".")
		if r.BestRunnable >= 0 {
			b := &r.Configs[r.BestRunnable]
			l = append(l, fmt.Sprintf("  The best config ZorkGPT can run as it is: %s (false-termination rate %s, turns saved %s).",
				b.Policy, pct(r.FalseRate(b)), pct(r.SavedShare(b))))
		} else {
			l = append(l, "  No config of this grid runs on ZorkGPT as it is: add score-or-objective (or score) to --policy to find the best one that does.")
		}
	}
	return l
}

func undecided(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("; %d found no config within the targets and held out with no loop break", n)
}

// versusLine compares the recommendation with the current setting.
func (r *Result) versusLine(c *Config) string {
	parts := []string{}
	for _, m := range r.Recommended.Versus {
		if !slices.Contains([]string{"turns_saved", "false_termination_rate", "score_forgone", "censored"}, m.Name) {
			continue
		}
		ci := ""
		if m.CI != nil {
			ci = fmt.Sprintf(" (95%% CI %s … %s)", num(m.Name, m.CI[0]), num(m.Name, m.CI[1]))
		}
		parts = append(parts, fmt.Sprintf("%s %s%s", num(m.Name, m.Change), m.Label, ci))
	}
	return fmt.Sprintf("  versus %s (now): %s", r.Current.Policy, strings.Join(parts, ", "))
}

// num is a signed change of a metric: pp for a rate, a whole number else.
func num(name string, v float64) string {
	s := strconv.FormatFloat(v, 'f', 0, 64)
	if strings.HasSuffix(name, "_rate") {
		s = strconv.FormatFloat(v, 'f', 1, 64) + " pp"
	}
	if v >= 0 && !strings.HasPrefix(s, "-") {
		s = "+" + s
	}
	return s
}

// columns are a config's fields as csv and json give them, in order: the
// policy, every parameter (nil where the policy has none), every metric of
// batch, the censored share and whether it is on the front.
func (r *Result) columns() []string {
	cols := []string{"policy"}
	for _, d := range policy.Dimensions() {
		cols = append(cols, d.Key)
	}
	for k := range r.Defs.Len() {
		cols = append(cols, r.Defs.Name(k))
	}
	return append(cols, "censored_share", "pareto")
}

// values are c's fields in the order of columns: strings, ints, floats
// (rounded to 6 decimals), bools, or nil.
func (r *Result) values(c *Config) []any {
	v := []any{string(c.Policy.Name)}
	for _, d := range policy.Dimensions() {
		if !d.Has(c.Policy.Name) {
			v = append(v, nil)
			continue
		}
		v = append(v, d.Value(d.Get(&c.Policy.Params)))
	}
	for k := range r.Defs.Len() {
		if x, ok := r.Defs.Value(&c.Sums, k); ok {
			v = append(v, *report.Round6(x))
		} else {
			v = append(v, nil)
		}
	}
	return append(v, *report.Round6(r.CensoredShare(c)), c.Pareto)
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
