package report

import (
	"cmp"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/olekukonko/tablewriter/tw"

	"github.com/lbanalyze/lbanalyze/corpus"
	"github.com/lbanalyze/lbanalyze/jsonl"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/replay"
)

// Dataset is a batch analysis: every episode under a baseline and an after
// policy (the specification's section 8, docs/semantics.md §6.3).
type Dataset struct {
	Baseline, After policy.Policy
	CallsPerTurn    int
	// Episodes have Outcomes[0] under Baseline and Outcomes[1] under After,
	// sorted by episode id, then source, then segment.
	Episodes []Episode
	Skipped  []Skip   // inputs that could not be analysed, left out of n
	Passed   []string // test_*, test-*, unknown and *_error directories passed over
	Metrics  []Metric
	names    map[string]int // how many episodes have each name, for Label
}

// Skip is an input that could not be analysed, and why.
type Skip = corpus.Skip

// NewDataset sorts the episodes and computes the metrics.
func NewDataset(baseline, after policy.Policy, callsPerTurn int, eps []Episode, skipped []Skip, passed []string) *Dataset {
	slices.SortStableFunc(eps, func(a, b Episode) int {
		return cmp.Or(cmp.Compare(a.Ep.ID, b.Ep.ID), cmp.Compare(a.Ep.Source, b.Ep.Source), cmp.Compare(a.Ep.Segment, b.Ep.Segment))
	})
	slices.SortStableFunc(skipped, func(a, b Skip) int { return cmp.Compare(a.Source, b.Source) })
	slices.Sort(passed)
	names := map[string]int{}
	for i := range eps {
		names[eps[i].Ep.Name()]++
	}
	return &Dataset{Baseline: baseline, After: after, CallsPerTurn: callsPerTurn, Episodes: eps,
		Skipped: skipped, Passed: passed, Metrics: Metrics(eps, 0, 1, callsPerTurn), names: names}
}

// Review lists the baseline's false-termination candidates: those the after
// policy rescues (does not stop within the log) and those it still stops.
func (d *Dataset) Review() (rescued, still []*Episode) {
	for i := range d.Episodes {
		e := &d.Episodes[i]
		if !e.Outcomes[0].FalseTerminationCandidate() {
			continue
		}
		if e.Outcomes[1].Terminated() {
			still = append(still, e)
		} else {
			rescued = append(rescued, e)
		}
	}
	return rescued, still
}

// WriteDataset renders d in format.
func WriteDataset(w io.Writer, format string, d *Dataset) error {
	switch format {
	case "json":
		return writeDatasetJSON(w, d)
	case "csv":
		return writeDatasetCSV(w, d)
	case "markdown":
		writeDatasetMarkdown(w, d)
		return nil
	case "table":
		writeDatasetTable(w, d)
		return nil
	}
	return fmt.Errorf("unknown format %q (known: %s)", format, strings.Join(Formats, ", "))
}

// Number formatting: ASCII signs, so that tables paste and parse anywhere.

func (u unit) format(v float64) string {
	switch u {
	case mean:
		return strconv.FormatFloat(v, 'f', 1, 64)
	case percent:
		return strconv.FormatFloat(v, 'f', 1, 64) + "%"
	}
	return strconv.FormatFloat(math.Round(v), 'f', 0, 64)
}

func (u unit) signed(v float64) string {
	s := ""
	switch u {
	case mean:
		s = strconv.FormatFloat(v, 'f', 1, 64)
	case percent:
		s = strconv.FormatFloat(v, 'f', 1, 64) + " pp"
	default:
		s = strconv.FormatFloat(math.Round(v), 'f', 0, 64)
	}
	if v > 0 || v == 0 && !strings.HasPrefix(s, "-") {
		s = "+" + s
	}
	return strings.Replace(s, "+-", "-", 1)
}

// interval is signed with a second decimal for means and shares, so that a
// bound just short of 0 does not read as "-0.0".
func (u unit) interval(v float64) string {
	if u == count {
		return u.signed(v)
	}
	s := strconv.FormatFloat(v, 'f', 2, 64)
	if u == percent {
		s += " pp"
	}
	if v >= 0 {
		s = "+" + s
	}
	return s
}

func signedPct(p float64) string {
	s := strconv.FormatFloat(p, 'f', 0, 64) + "%"
	if p >= 0 {
		s = "+" + s
	}
	return s
}

// cells are a metric's table cells: baseline, after, change, expected,
// interval, verdict.
func (m *Metric) cells(n int) []string {
	val := func(v float64, ok bool) string {
		if !ok {
			return "—"
		}
		return m.Unit.format(v)
	}
	change, interval := "—", ""
	if m.BaselineOK && m.AfterOK {
		change = m.Unit.signed(m.Change)
		if m.ChangePct != nil {
			change += " (" + signedPct(*m.ChangePct) + ")"
		}
	}
	switch {
	case m.CI != nil:
		interval = m.Unit.interval(m.CI[0]) + " … " + m.Unit.interval(m.CI[1])
	case n < MinN:
		interval = fmt.Sprintf("n=%d: too few for an interval", n)
	default:
		interval = "—"
	}
	return []string{m.Label, val(m.Baseline, m.BaselineOK), val(m.After, m.AfterOK), change, m.Expected.Text, interval, m.Verdict}
}

// MetricTable is the metrics table, as every format shows it: its header and
// one row a metric.
func (d *Dataset) MetricTable() (header []string, rows [][]string) {
	rows = make([][]string, len(d.Metrics))
	for i := range d.Metrics {
		rows[i] = d.Metrics[i].cells(len(d.Episodes))
	}
	return []string{"metric", "baseline", "after", "change", "expected", "95% interval of the change", "verdict"}, rows
}

// EpisodeTable is the per-episode table: the stop turn, turns saved and a
// compact verdict under each policy; rows[i] is d.Episodes[i].
func (d *Dataset) EpisodeTable() (header []string, rows [][]string) {
	rows = make([][]string, len(d.Episodes))
	for i := range d.Episodes {
		e := &d.Episodes[i]
		ep := e.Ep
		row := []string{d.Label(e), strconv.Itoa(ep.N()), strconv.Itoa(ep.FinalScore()), string(ep.End.Reason), strconv.Itoa(len(ep.Objectives))}
		for s := range 2 {
			o := &e.Outcomes[s]
			row = append(row, dash(o.TerminationTurn, o.Terminated()), strconv.Itoa(o.TurnsSaved), shortVerdict(o))
		}
		rows[i] = row
	}
	return []string{"episode", "turns", "score", "end", "obj", "baseline", "saved", "baseline verdict", "after", "saved", "after verdict"}, rows
}

// Label names an episode in tables: its name, and its source when another
// episode of the dataset has the same name.
func (d *Dataset) Label(e *Episode) string {
	name := e.Ep.Name()
	if d.names[name] > 1 {
		name += " [" + jsonl.DisplayName(e.Ep.Source) + "]"
	}
	return name
}

// shortVerdict is verdict in few characters, for the per-episode table.
func shortVerdict(o *replay.Outcome) string {
	switch {
	case o.Censored:
		return "censored"
	case !o.Terminated():
		return ""
	case !o.FalseTerminationCandidate():
		return "truly stuck"
	}
	var why []string
	if g := o.LaterGain; g != nil {
		why = append(why, fmt.Sprintf("+%d@%d", g.Points, g.Turn))
	}
	if n := len(o.WindowObjectives); n > 0 {
		why = append(why, fmt.Sprintf("obj@%d", o.WindowObjectives[n-1].Turn))
		if n > 1 {
			why[len(why)-1] += fmt.Sprintf("(+%d)", n-1)
		}
	}
	return "premature? " + strings.Join(why, " ")
}

// Summary is the opening lines of a batch report.
func (d *Dataset) Summary() []string {
	out := []string{fmt.Sprintf("%d episode%s analysed; baseline %s, after %s; %d LLM calls a turn.",
		len(d.Episodes), plural(len(d.Episodes)), d.Baseline, d.After, d.CallsPerTurn)}
	if len(d.Passed) > 0 {
		dirs := "directories"
		if len(d.Passed) == 1 {
			dirs = "directory"
		}
		out = append(out, fmt.Sprintf("%d test or unknown %s passed over (%s).", len(d.Passed), dirs, strings.Join(d.Passed, ", ")))
	}
	lines, eps := 0, 0
	for i := range d.Episodes {
		if n := d.Episodes[i].Ep.SkippedLines; n > 0 {
			lines += n
			eps++
		}
	}
	if lines > 0 {
		out = append(out, fmt.Sprintf("%d unreadable line%s skipped in %d episode%s (the rest of each was analysed; messages on stderr).",
			lines, plural(lines), eps, plural(eps)))
	}
	for _, s := range d.Skipped {
		out = append(out, fmt.Sprintf("left out: %s: %s", s.Source, s.Reason))
	}
	return out
}

// MetricsTitle heads the metrics table.
func (d *Dataset) MetricsTitle() string {
	return fmt.Sprintf("Metrics, n = %d (95%% intervals: paired bootstrap over episodes, %d resamples, seed %d; ~ = interval contains 0)",
		len(d.Episodes), Resamples, BootstrapSeed)
}

// ReviewGroup is one group of the review list.
type ReviewGroup struct {
	Title    string // "Rescued by score-or-objective 40/10"
	Episodes []*Episode
}

// ReviewList is what a person should look at first: a summary, then the
// baseline's false-termination candidates the after policy rescues and those
// it still stops (no group when there is no candidate).
func (d *Dataset) ReviewList() (summary string, groups []ReviewGroup) {
	rescued, still := d.Review()
	if len(rescued)+len(still) == 0 {
		return "The baseline has no false-termination candidate: nothing to review.", nil
	}
	return fmt.Sprintf("The baseline's %d false-termination candidates.", len(rescued)+len(still)), []ReviewGroup{
		{"Rescued by " + d.After.String(), rescued}, {"Still terminated by " + d.After.String(), still}}
}

// Evidence says why the baseline's stop looks premature and what the after
// policy does instead.
func Evidence(e *Episode) string {
	b, a := &e.Outcomes[0], &e.Outcomes[1]
	where := ""
	if loc := e.Ep.Turns[b.TerminationTurn-1].Location; loc != "" {
		where = " in " + loc
	}
	parts := []string{fmt.Sprintf("baseline stops at %d%s (%d stuck, score %d)", b.TerminationTurn, where, b.TurnsStuck, b.ScoreAtTermination)}
	if g := b.LaterGain; g != nil {
		parts = append(parts, fmt.Sprintf("the log gains +%d at turn %d (+%d by its end)", g.Points, g.Turn, b.ScoreForgone))
	}
	for _, c := range b.WindowObjectives {
		parts = append(parts, fmt.Sprintf("objective %q completed at %d", c.Objective, c.Turn))
	}
	after := "after: no stop"
	switch {
	case a.Censored:
		after = "after: no stop before the recording's own stop (censored)"
	case a.Terminated():
		after = fmt.Sprintf("after: stops at %d (%d stuck), %s", a.TerminationTurn, a.TurnsStuck, verdict(a))
	}
	return strings.Join(parts, "; ") + " → " + after
}

func writeDatasetTable(w io.Writer, d *Dataset) {
	for _, l := range d.Summary() {
		fmt.Fprintln(w, Printable(l))
	}
	fmt.Fprintln(w)
	const l, r = tw.AlignLeft, tw.AlignRight
	header, rows := d.EpisodeTable()
	TextTable(w, header, rows, l, r, r, l, r, r, r, l, r, r, l)
	fmt.Fprintln(w)
	fmt.Fprintln(w, d.MetricsTitle())
	header, rows = d.MetricTable()
	TextTable(w, header, rows, l, r, r, r, l, r, l)
	fmt.Fprintln(w)
	summary, groups := d.ReviewList()
	fmt.Fprintln(w, "Review first. "+summary)
	for _, g := range groups {
		fmt.Fprintf(w, "%s (%d):\n", g.Title, len(g.Episodes))
		for _, e := range g.Episodes {
			fmt.Fprintf(w, "  %s: %s\n", Printable(d.Label(e)), Printable(Evidence(e)))
		}
	}
}

func writeDatasetMarkdown(w io.Writer, d *Dataset) {
	fmt.Fprintln(w, "## Loop-break replay: baseline vs after")
	fmt.Fprintln(w)
	for _, l := range d.Summary() {
		fmt.Fprintln(w, mdCell(l)+"  ")
	}
	fmt.Fprintf(w, "\n### %s\n\n", d.MetricsTitle())
	header, rows := d.MetricTable()
	MarkdownTable(w, header, rows)
	fmt.Fprintln(w, "\n### Review first")
	fmt.Fprintln(w)
	summary, groups := d.ReviewList()
	fmt.Fprintf(w, "%s\n\n", summary)
	for _, g := range groups {
		fmt.Fprintf(w, "- %s (%d):\n", g.Title, len(g.Episodes))
		for _, e := range g.Episodes {
			fmt.Fprintf(w, "  - %s: %s\n", mdCell(d.Label(e)), mdCell(Evidence(e)))
		}
	}
	fmt.Fprintln(w, "\n### Episodes")
	fmt.Fprintln(w)
	header, rows = d.EpisodeTable()
	MarkdownTable(w, header, rows)
}

// PolicyJSON names a policy and its settings.
type PolicyJSON struct {
	Policy string `json:"policy"`
	policy.Params
}

// DatasetJSON is the documented JSON form of a batch analysis.
type DatasetJSON struct {
	N                  int                `json:"n"`
	Skipped            []Skip             `json:"skipped"`
	SkippedDirectories []string           `json:"skipped_directories"`
	Baseline           PolicyJSON         `json:"baseline"`
	After              PolicyJSON         `json:"after"`
	CallsPerTurn       int                `json:"calls_per_turn"`
	Bootstrap          BootstrapJSON      `json:"bootstrap"`
	Episodes           []BatchEpisodeJSON `json:"episodes"`
	Metrics            []MetricJSON       `json:"metrics"`
	Review             ReviewJSON         `json:"review"`
}

// BootstrapJSON says how the intervals were made.
type BootstrapJSON struct {
	Resamples int `json:"resamples"`
	Seed      int `json:"seed"`
	MinN      int `json:"min_n"`
}

// BatchEpisodeJSON is an episode object as in `episode`, with its outcome
// under each policy instead of "results".
type BatchEpisodeJSON struct {
	EpisodeJSON
	Results  []ResultJSON `json:"results,omitempty"`
	Baseline ResultJSON   `json:"baseline"`
	After    ResultJSON   `json:"after"`
}

// MetricJSON is one metric; null for undefined values and missing intervals.
type MetricJSON struct {
	Name      string      `json:"name"`
	Baseline  *float64    `json:"baseline"`
	After     *float64    `json:"after"`
	Change    *float64    `json:"change"`
	ChangePct *float64    `json:"change_pct"`
	CI95      *[2]float64 `json:"ci95"`
	CI95Pct   *[2]float64 `json:"ci95_pct"`
	Expected  *string     `json:"expected"`
	Verdict   string      `json:"verdict"`
}

// ReviewJSON lists the episode ids of the review list.
type ReviewJSON struct {
	Rescued         []string `json:"rescued"`
	StillTerminated []string `json:"still_terminated"`
}

// JSON is the documented JSON form of d.
func (d *Dataset) JSON() DatasetJSON {
	j := DatasetJSON{N: len(d.Episodes), Skipped: append([]Skip{}, d.Skipped...), SkippedDirectories: append([]string{}, d.Passed...),
		Baseline: PolicyJSON{string(d.Baseline.Name), d.Baseline.Params}, After: PolicyJSON{string(d.After.Name), d.After.Params},
		CallsPerTurn: d.CallsPerTurn, Bootstrap: BootstrapJSON{Resamples, BootstrapSeed, MinN},
		Episodes: []BatchEpisodeJSON{}, Metrics: []MetricJSON{}, Review: ReviewJSON{Rescued: []string{}, StillTerminated: []string{}}}
	for i := range d.Episodes {
		e := d.Episodes[i].JSON()
		j.Episodes = append(j.Episodes, BatchEpisodeJSON{EpisodeJSON: e, Baseline: e.Results[0], After: e.Results[1]})
		j.Episodes[i].EpisodeJSON.Results = nil
	}
	for i := range d.Metrics {
		j.Metrics = append(j.Metrics, d.Metrics[i].JSON())
	}
	rescued, still := d.Review()
	for _, e := range rescued {
		j.Review.Rescued = append(j.Review.Rescued, d.Label(e))
	}
	for _, e := range still {
		j.Review.StillTerminated = append(j.Review.StillTerminated, d.Label(e))
	}
	return j
}

// JSON is the metric as the JSON formats give it, rounded to 6 decimals.
func (m *Metric) JSON() MetricJSON {
	mj := MetricJSON{Name: m.Name, Verdict: m.Verdict, CI95: roundPair(m.CI), CI95Pct: roundPair(m.CIPct)}
	if m.BaselineOK {
		mj.Baseline = Round6(m.Baseline)
	}
	if m.AfterOK {
		mj.After = Round6(m.After)
	}
	if m.BaselineOK && m.AfterOK {
		mj.Change = Round6(m.Change)
	}
	if m.ChangePct != nil {
		mj.ChangePct = Round6(*m.ChangePct)
	}
	if m.Expected.Text != "" {
		mj.Expected = &m.Expected.Text
	}
	return mj
}

// Round6 is v rounded to 6 decimals, as every JSON number of a float.
func Round6(v float64) *float64 { v = math.Round(v*1e6) / 1e6; return &v }

func roundPair(p *[2]float64) *[2]float64 {
	if p == nil {
		return nil
	}
	return &[2]float64{math.Round(p[0]*1e6) / 1e6, math.Round(p[1]*1e6) / 1e6}
}

func writeDatasetJSON(w io.Writer, d *Dataset) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(d.JSON())
}

// writeDatasetCSV writes one row per episode: its fields, then the baseline's
// and the after policy's outcome columns (prefixed baseline_ and after_).
func writeDatasetCSV(w io.Writer, d *Dataset) error {
	cw := csv.NewWriter(w)
	header := slices.Clone(csvEpisodeHeader)
	for _, side := range []string{"baseline_", "after_"} {
		for _, h := range csvResultHeader {
			header = append(header, side+h)
		}
	}
	cw.Write(header)
	for i := range d.Episodes {
		j := d.Episodes[i].JSON()
		row := csvEpisode(&j)
		row = append(row, csvResult(&j.Results[0])...)
		row = append(row, csvResult(&j.Results[1])...)
		cw.Write(row)
	}
	cw.Flush()
	return cw.Error()
}
