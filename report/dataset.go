package report

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/csv"
	"fmt"
	"io"
	"iter"
	"slices"
	"strconv"
	"strings"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/metrics"
	"github.com/lbanalyze/lbanalyze/internal/patterns"
	"github.com/lbanalyze/lbanalyze/internal/textout"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/replay"
	"github.com/lbanalyze/lbanalyze/system"
)

// Dataset is a batch analysis: every episode under a baseline and an after
// policy (the specification's section 8, docs/semantics.md, "6.3 Dataset metrics").
type Dataset struct {
	Baseline, After policy.Policy
	Options         // calls per turn, cost per call, gain horizon
	// Episodes have their first outcome under Baseline and their second
	// under After (Outcome), sorted by episode id, then source, then
	// segment; each holds the row the dataset reads of it, and its episode
	// and outcomes unless Compacted.
	Episodes []Episode
	Skipped  []Skip   // inputs that could not be analysed, left out of n
	Passed   []string // test_*, test-*, unknown and *_error directories passed over
	// Unreplayed say which episodes were left out of n as their logs lack a
	// signal a policy needs, and which settings their logs turn off
	// (replay.Comparable).
	Unreplayed []string
	Metrics    []metrics.Metric
	names      map[string]int // how many episodes have each name that more than one has, for Label
	shows      system.Shows   // what applies to the system that ran the episodes
	// Patterns summarise how the episodes were stuck.
	Patterns patterns.Summary
}

// Skip is an input that could not be analysed, and why.
type Skip struct {
	Source string `json:"source"`
	Reason string `json:"reason"`
}

// NewDataset sorts the episodes and computes the metrics; the episodes'
// outcomes are to have been analysed with the same options (Analyse).
func NewDataset(baseline, after policy.Policy, opts Options, eps []Episode, skipped []Skip, passed []string) *Dataset {
	for i := range eps {
		if eps[i].row == nil {
			eps[i].row = newRow(&eps[i], eps[i].First(2))
		}
	}
	slices.SortStableFunc(eps, func(a, b Episode) int {
		return cmp.Or(cmp.Compare(a.row.id, b.row.id), cmp.Compare(a.row.source, b.row.source), cmp.Compare(a.row.segment, b.row.segment))
	})
	in := NewInputs(skipped, passed)
	names := sharedNames(eps)
	shows := systemOfRows(eps).Shows
	d := &Dataset{Baseline: baseline, After: after, Options: opts, Episodes: eps,
		Skipped: in.Skipped, Passed: in.Passed, names: names, Patterns: summarise(eps), shows: shows}
	d.Metrics = metrics.Compare(pairs{d}, opts.Costs, shows.Applies)
	d.markCensored()
	return d
}

// sharedNames counts the episodes of each name that more than one of eps
// has: of many episodes, a map of every name would take 100 bytes an episode.
func sharedNames(eps []Episode) map[string]int {
	names := make([]string, len(eps))
	for i := range eps {
		names[i] = eps[i].row.name()
	}
	slices.Sort(names)
	shared := map[string]int{}
	for i := 1; i < len(names); i++ {
		if names[i] == names[i-1] {
			shared[names[i]] = max(shared[names[i]], 1) + 1
		}
	}
	return shared
}

// pairs are the episodes of a dataset with their two outcomes, compared,
// each made whole as it is read.
type pairs struct{ d *Dataset }

func (ps pairs) Len() int { return len(ps.d.Episodes) }

func (ps pairs) Get(i int, p *metrics.Pair) {
	p.Episode = ps.d.Episodes[i].row.metric()
	p.Baseline, p.After = ps.d.Outcome(i, 0), ps.d.Outcome(i, 1)
}

// Outcome is the outcome of the i-th episode under the baseline (s 0) or
// the after policy (s 1).
func (d *Dataset) Outcome(i, s int) replay.Outcome { return d.OutcomeOf(&d.Episodes[i], s) }

// OutcomeOf is the outcome of e, an episode of d, under side s (Outcome).
func (d *Dataset) OutcomeOf(e *Episode, s int) replay.Outcome {
	return e.row.outcome(s, d.side(s))
}

// side is the policy of side s: 0 the baseline, 1 the after policy.
func (d *Dataset) side(s int) policy.Policy {
	if s == 0 {
		return d.Baseline
	}
	return d.After
}

// Review sorts out the episodes to review: the baseline's false-termination
// candidates that the after policy rescues (does not stop within the log) or
// still stops, and the after policy's new candidates (episodes it stops
// prematurely where the baseline did not stop, or stopped without evidence).
func (d *Dataset) Review() (rescued, still, fresh []*Episode) {
	for i := range d.Episodes {
		e := &d.Episodes[i]
		b, a := d.OutcomeOf(e, 0), d.OutcomeOf(e, 1)
		switch {
		case b.FalseTerminationCandidate() && a.Terminated():
			still = append(still, e)
		case b.FalseTerminationCandidate():
			rescued = append(rescued, e)
		case a.FalseTerminationCandidate():
			fresh = append(fresh, e)
		}
	}
	return rescued, still, fresh
}

// WriteDataset renders d in format; summary leaves out the per-episode table
// (in JSON the "episodes"; CSV has nothing else and refuses it). The table
// format's tables fit f (nil: whole).
func WriteDataset(w io.Writer, format string, d *Dataset, summary bool, f *textout.Fit) error {
	switch format {
	case "json":
		return writeDatasetJSON(w, d, summary)
	case "csv":
		if summary {
			return fmt.Errorf("csv is one row per episode: it has no summary")
		}
		return writeDatasetCSV(w, d)
	case "markdown":
		writeDatasetMarkdown(w, d, summary)
		return nil
	case "table":
		writeDatasetTable(w, d, summary, f)
		return nil
	}
	return textout.UnknownFormat(format)
}

// cells are a metric's table cells: baseline, after, change, expected,
// interval, verdict.
func cells(m *metrics.Metric, n int) []string {
	// A rate of episodes shows its Wilson interval beside it.
	val := func(v float64, ok bool, ci *[2]float64) string {
		if !ok {
			return "—"
		}
		if m.Method == metrics.PairedProportions && m.Unit == metrics.Percent && ci != nil {
			return m.Unit.Format(v) + " (" + strconv.FormatFloat(ci[0], 'f', 1, 64) + "–" + m.Unit.Format(ci[1]) + ")"
		}
		return m.Unit.Format(v)
	}
	change, interval := "—", ""
	if m.BaselineOK && m.AfterOK {
		change = m.Unit.Signed(m.Change)
		if m.ChangePct != nil {
			change += " (" + metrics.SignedPct(*m.ChangePct) + ")"
		}
	}
	switch {
	case m.CI != nil:
		interval = m.Unit.Interval(m.CI[0]) + " … " + m.Unit.Interval(m.CI[1])
	case n < metrics.MinN:
		interval = fmt.Sprintf("n=%d: too few for an interval", n)
	default:
		interval = "—"
	}
	return []string{m.Label, val(m.Baseline, m.BaselineOK, m.BaselineCI), val(m.After, m.AfterOK, m.AfterCI), change, m.Expected.Text, interval, m.Verdict}
}

// MetricTable is the metrics table, as every format shows it: its header and
// one row a metric.
func (d *Dataset) MetricTable() (header []string, rows [][]string) {
	rows = make([][]string, len(d.Metrics))
	for i := range d.Metrics {
		rows[i] = cells(&d.Metrics[i], len(d.Episodes))
	}
	return []string{"metric", "baseline", "after", "change", "expected", "95% interval of the change", "verdict"}, rows
}

// EpisodeTable is the per-episode table: the objectives completed (where the
// system's logs record them), the stop turn, turns saved (and tokens, where
// some log records them) and a compact verdict under each policy; rows[i] is
// d.Episodes[i]. align aligns its columns.
func (d *Dataset) EpisodeTable() (header []string, rows iter.Seq[[]string], align []textout.Align) {
	tokens := slices.ContainsFunc(d.Episodes, func(e Episode) bool { return e.row.signals.Has(episode.Tokens) })
	header = []string{"episode", "turns", "score", "end"}
	align = []textout.Align{txt, num, num, txt}
	if d.shows.Objectives {
		header, align = append(header, "obj"), append(align, num)
	}
	for _, side := range []string{"baseline", "after"} {
		header, align = append(header, side, "saved"), append(align, num, num)
		if tokens {
			header, align = append(header, "tokens"), append(align, num)
		}
		header, align = append(header, side+" verdict"), append(align, txt)
	}
	// Made as they are read, not held: a row of every episode of a dataset
	// is hundreds of bytes each (docs/PERFORMANCE.md, "Memory").
	rows = func(yield func([]string) bool) {
		for i := range d.Episodes {
			e := &d.Episodes[i]
			r := e.row
			row := append(make([]string, 0, len(header)), d.Label(e), strconv.Itoa(int(r.turns)), r.final.String(), string(r.end))
			if d.shows.Objectives {
				row = append(row, strconv.Itoa(int(r.objectives)))
			}
			for s := range 2 {
				o := d.OutcomeOf(e, s)
				row = append(row, dash(o.TerminationTurn, o.Terminated()), strconv.Itoa(o.TurnsSaved))
				if tokens {
					row = append(row, tokensCell(&o))
				}
				row = append(row, shortVerdict(&o))
			}
			if !yield(row) {
				return
			}
		}
	}
	return header, rows, align
}

// tokensCell is an outcome's tokens saved, "—" when its log records none.
func tokensCell(o *replay.Outcome) string {
	if !o.Logged.Has(episode.Tokens) {
		return "—"
	}
	return strconv.FormatInt(o.TokensSaved, 10)
}

// Column alignments of the tables, numbers right, for the text and markdown
// renderers.
var (
	metricAlign = []textout.Align{txt, num, num, num, txt, num, txt}
	reviewAlign = []textout.Align{txt, num, txt, num, txt}
)

const txt, num = textout.Left, textout.Right

// Label names an episode in tables: its name, and its source when another
// episode of the dataset has the same name.
func (d *Dataset) Label(e *Episode) string {
	name := e.row.name()
	if d.names[name] > 1 {
		name += " [" + e.row.source + "]"
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
	case o.Unknown():
		return fmt.Sprintf("unknown (cut@%d)", o.Length+o.TurnsSaved) + shortPastHorizon(o)
	case !o.FalseTerminationCandidate():
		return "truly stuck" + shortPastHorizon(o)
	}
	var why []string
	if o.LaterScoreGain() {
		why = append(why, gainShort(o))
	}
	if n := len(o.WindowObjectives); n > 0 {
		why = append(why, fmt.Sprintf("obj@%d", o.WindowObjectives[n-1].Turn))
		if n > 1 {
			why[len(why)-1] += fmt.Sprintf("(+%d)", n-1)
		}
	}
	return "premature? " + strings.Join(why, " ") + shortPastHorizon(o)
}

// gainShort is the later gain in few characters: "+4@134(T+24)".
func gainShort(o *replay.Outcome) string {
	return fmt.Sprintf("+%s@%d(T+%d)", o.LaterGain.Points, o.LaterGain.Turn, o.GainDistance())
}

// shortPastHorizon shows a later gain that comes too late to be evidence.
func shortPastHorizon(o *replay.Outcome) string {
	if o.LaterGain == nil || o.LaterScoreGain() {
		return ""
	}
	return " (" + gainShort(o) + " past the horizon)"
}

// Summary is the opening lines of a batch report.
func (d *Dataset) Summary() []string {
	first := fmt.Sprintf("%d episode%s analysed; baseline %s, after %s; %s a turn",
		len(d.Episodes), textout.Plural(len(d.Episodes)), d.Baseline, d.After, textout.Count(d.CallsPerTurn, "LLM call"))
	if d.CostPerCall > 0 {
		first += " at " + money(d.CostPerCall) + " a call"
	}
	if d.CostPerMTok > 0 {
		first += "; tokens at " + money(d.CostPerMTok) + " a million"
	}
	if h := d.GainHorizon; h > 0 {
		first += fmt.Sprintf("; a later gain is evidence within %d turn%s of the stop", h, textout.Plural(h))
	}
	out := append([]string{first + "."}, passedLines(d.Passed)...)
	lines, eps := 0, 0
	for i := range d.Episodes {
		if n := d.Episodes[i].row.skipped; n > 0 {
			lines += n
			eps++
		}
	}
	if lines > 0 {
		out = append(out, fmt.Sprintf("%d unreadable line%s skipped in %d episode%s (the rest of each was analysed; messages on stderr).",
			lines, textout.Plural(lines), eps, textout.Plural(eps)))
	}
	out = append(out, skippedLines(d.Skipped)...)
	for _, u := range d.Unreplayed {
		out = append(out, "left out: "+u+".")
	}
	return out
}

// passedLines name the directories passed over.
func passedLines(passed []string) []string {
	if len(passed) == 0 {
		return nil
	}
	dirs := "directories"
	if len(passed) == 1 {
		dirs = "directory"
	}
	return []string{fmt.Sprintf("%d test, unknown or *_error %s passed over (%s).", len(passed), dirs, strings.Join(passed, ", "))}
}

// skippedLines name the inputs left out, and why.
//
// A reason is given word for word for its first maxSameSkips inputs, the
// rest said in one line with their count, so that one mistake over many
// files is not a line a file.
func skippedLines(skipped []Skip) []string {
	var out []string
	count := map[string]int{}
	first := map[string]string{}
	var order []string
	for _, s := range skipped {
		if count[s.Reason]++; count[s.Reason] <= maxSameSkips {
			out = append(out, fmt.Sprintf("left out: %s: %s", s.Source, s.Reason))
			continue
		}
		if first[s.Reason] == "" {
			first[s.Reason] = s.Source
			order = append(order, s.Reason)
		}
	}
	for _, r := range order {
		out = append(out, fmt.Sprintf("left out: the same in %s, %s first: %s", textout.Count(count[r]-maxSameSkips, "more input"), first[r], r))
	}
	return out
}

// maxSameSkips is how many inputs left out for one reason are named one by
// one.
const maxSameSkips = 3

// MetricsTitle heads the metrics table.
func (d *Dataset) MetricsTitle() string {
	return fmt.Sprintf("Metrics, n = %d (95%% intervals: Tango's score interval for paired shares of episodes, %s; ~ = interval contains 0)",
		len(d.Episodes), metrics.SumsMethod(d.Metrics))
}

// Review is the review list, as every format shows it: a summary, a table
// per group, and a legend of the verdict shorthand.
type Review struct {
	Summary string
	Header  []string // the groups' table header
	Groups  []ReviewGroup
	Legend  string // "" when there is no group
}

// ReviewGroup is one group of the review list.
type ReviewGroup struct {
	Title    string // "Rescued by score-or-objective 40/10 (9)"
	Episodes []*Episode
}

// ReviewList is what a person should look at first: the baseline's
// false-termination candidates the after policy rescues and those it still
// stops, then the after policy's new candidates; a table per group, each row
// ReviewRow (no group when neither policy has a candidate).
func (d *Dataset) ReviewList() Review {
	rescued, still, fresh := d.Review()
	if len(rescued)+len(still)+len(fresh) == 0 {
		return Review{Summary: "Neither policy has a false-termination candidate: nothing to review."}
	}
	base := len(rescued) + len(still)
	return Review{
		Summary: fmt.Sprintf("The baseline has %d false-termination candidate%s: the after policy rescues %d and still stops %d. "+
			"The after policy has %d new candidate%s (stopped prematurely where the baseline did not stop, or stopped without evidence).",
			base, textout.Plural(base), len(rescued), len(still), len(fresh), textout.Plural(len(fresh))),
		Header: []string{"episode", "baseline", "baseline verdict", "after", "after verdict"},
		Groups: []ReviewGroup{
			{fmt.Sprintf("Rescued by %s (%d)", d.After, len(rescued)), rescued},
			{fmt.Sprintf("Still terminated by %s (%d)", d.After, len(still)), still},
			{fmt.Sprintf("New candidates of %s (%d)", d.After, len(fresh)), fresh}},
		Legend: d.legend(),
	}
}

// ReviewRow is an episode's row of the review list: its stop turn and compact
// verdict under each policy.
func (d *Dataset) ReviewRow(e *Episode) []string {
	row := []string{d.Label(e)}
	for s := range 2 {
		o := d.OutcomeOf(e, s)
		row = append(row, dash(o.TerminationTurn, o.Terminated()), shortVerdict(&o))
	}
	return row
}

// legend explains the compact verdicts of the review list and the episode table.
func (d *Dataset) legend() string {
	s := "Legend: a stop turn T (— no stop within the log); premature? +4@134(T+24): the log gains 4 points at turn 134, 24 turns after the stop; "
	if d.shows.Objectives {
		s += "obj@75(+2): an objective completed at turn 75, and 2 more before it, in the max_turns_stuck turns up to the stop; "
	}
	s += "unknown (cut@130): no evidence against the stop, but the log is cut at turn 130 (the recording's own stop, a kill) too soon after it to judge it; " +
		"censored: the log is cut before this policy would have stopped."
	if h := d.GainHorizon; h > 0 {
		s += fmt.Sprintf(" A later gain counts only within %d turn%s of the stop (--gain-horizon); one past it is shown in brackets.", h, textout.Plural(h))
	}
	return s
}

func (d *Dataset) reviewRows(g ReviewGroup) [][]string {
	rows := make([][]string, len(g.Episodes))
	for i, e := range g.Episodes {
		rows[i] = d.ReviewRow(e)
	}
	return rows
}

func writeDatasetTable(w io.Writer, d *Dataset, summary bool, f *textout.Fit) {
	for _, l := range d.Summary() {
		fmt.Fprintln(w, textout.Printable(l))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, d.MetricsTitle())
	header, rows := d.MetricTable()
	f.Table(w, metricsPlan, header, rows, metricAlign...)
	for _, n := range d.MetricNotes() {
		fmt.Fprintln(w, "note: "+n)
	}
	fmt.Fprintln(w)
	rv := d.ReviewList()
	fmt.Fprintln(w, "Review first. "+rv.Summary)
	for _, g := range rv.Groups {
		if len(g.Episodes) == 0 {
			fmt.Fprintln(w, g.Title+": none")
			continue
		}
		fmt.Fprintln(w, g.Title+":")
		f.Table(w, reviewPlan, rv.Header, d.reviewRows(g), reviewAlign...)
	}
	if rv.Legend != "" {
		fmt.Fprintln(w, rv.Legend)
	}
	if !summary {
		fmt.Fprintln(w)
		fmt.Fprintln(w, "Episodes")
		header, episodes, align := d.EpisodeTable()
		f.Rows(w, episodesPlan, header, episodes, align)
		writePatternSummaryText(w, &d.Patterns, f)
	}
	fmt.Fprintf(w, "\nBottom line. %s\n", d.Headline())
}

func writeDatasetMarkdown(w io.Writer, d *Dataset, summary bool) {
	fmt.Fprintln(w, "## Loop-break replay: baseline vs after")
	fmt.Fprintln(w)
	for _, l := range d.Summary() {
		fmt.Fprintln(w, textout.MarkdownLine(l)+"  ")
	}
	fmt.Fprintf(w, "\n### %s\n\n", d.MetricsTitle())
	header, rows := d.MetricTable()
	textout.MarkdownTable(w, header, rows, metricAlign...)
	for _, n := range d.MetricNotes() {
		fmt.Fprintf(w, "\nNote: %s\n", n)
	}
	fmt.Fprintln(w, "\n### Review first")
	fmt.Fprintln(w)
	rv := d.ReviewList()
	fmt.Fprintln(w, rv.Summary)
	for _, g := range rv.Groups {
		fmt.Fprintf(w, "\n#### %s\n\n", g.Title)
		if len(g.Episodes) == 0 {
			fmt.Fprintln(w, "None.")
			continue
		}
		textout.MarkdownTable(w, rv.Header, d.reviewRows(g), reviewAlign...)
	}
	if rv.Legend != "" {
		fmt.Fprintf(w, "\n%s\n", rv.Legend)
	}
	if !summary {
		fmt.Fprintf(w, "\n<details><summary>Episodes (%d)</summary>\n\n", len(d.Episodes))
		header, episodes, align := d.EpisodeTable()
		textout.MarkdownRows(w, header, episodes, align)
		fmt.Fprintln(w, "\n</details>")
		writePatternSummaryMarkdown(w, &d.Patterns)
	}
	fmt.Fprintf(w, "\n**Bottom line.** %s\n", textout.MarkdownText(d.Headline()))
}

// PolicyJSON names a policy and its settings (policy.Written).
type PolicyJSON struct {
	Policy   string         `json:"policy"`
	Settings policy.Written `json:"settings"`
}

func policyJSON(p policy.Policy) PolicyJSON { return PolicyJSON{string(p.Name), p.Written()} }

// DatasetJSON is the documented JSON form of a batch analysis.
type DatasetJSON struct {
	N                  int                `json:"n"`
	Skipped            []Skip             `json:"skipped"`
	SkippedDirectories []string           `json:"skipped_directories"`
	NotReplayed        []string           `json:"not_replayed,omitempty"` // episodes left out, settings off: their logs lack what a policy needs
	Baseline           PolicyJSON         `json:"baseline"`
	After              PolicyJSON         `json:"after"`
	CallsPerTurn       int                `json:"calls_per_turn"`
	Bootstrap          BootstrapJSON      `json:"bootstrap"`
	Episodes           []BatchEpisodeJSON `json:"episodes,omitempty"` // none with --summary
	Metrics            []metrics.JSON     `json:"metrics"`
	Review             ReviewJSON         `json:"review"`
	CostPerCall        *float64           `json:"cost_per_call"`
	CostPerMTok        *float64           `json:"cost_per_mtok"`
	GainHorizon        *int               `json:"gain_horizon"`
	Patterns           *patterns.Summary  `json:"patterns"`
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
	Baseline ResultJSON `json:"baseline"`
	After    ResultJSON `json:"after"`
}

// MarshalJSON writes the episode's head, facts and body (not its patterns
// nor its results), then its two outcomes.
func (j BatchEpisodeJSON) MarshalJSON() ([]byte, error) {
	return mergeObjects(j.EpisodeHead, facts(j.Facts), j.EpisodeBody, struct {
		Baseline ResultJSON `json:"baseline"`
		After    ResultJSON `json:"after"`
	}{j.Baseline, j.After})
}

// ReviewJSON lists the episode ids of the review list.
type ReviewJSON struct {
	Rescued         []string `json:"rescued"`
	StillTerminated []string `json:"still_terminated"`
	NewCandidates   []string `json:"new_candidates"`
}

// json is d's JSON form without its episodes, which writeJSON writes as
// they are made.
func (d *Dataset) json() DatasetJSON {
	j := DatasetJSON{N: len(d.Episodes), Skipped: append([]Skip{}, d.Skipped...), SkippedDirectories: append([]string{}, d.Passed...), NotReplayed: d.Unreplayed,
		Baseline: policyJSON(d.Baseline), After: policyJSON(d.After),
		CallsPerTurn: d.CallsPerTurn, Bootstrap: BootstrapJSON{metrics.Resamples, metrics.BootstrapSeed, metrics.MinN},
		Metrics: []metrics.JSON{}, GainHorizon: nonZero(d.GainHorizon),
		Review: ReviewJSON{Rescued: []string{}, StillTerminated: []string{}, NewCandidates: []string{}}}
	if d.CostPerCall > 0 {
		j.CostPerCall = &d.CostPerCall
	}
	if d.CostPerMTok > 0 {
		j.CostPerMTok = &d.CostPerMTok
	}
	for i := range d.Metrics {
		j.Metrics = append(j.Metrics, d.Metrics[i].JSON())
	}
	rescued, still, fresh := d.Review()
	j.Review.Rescued = d.labels(j.Review.Rescued, rescued)
	j.Review.StillTerminated = d.labels(j.Review.StillTerminated, still)
	j.Review.NewCandidates = d.labels(j.Review.NewCandidates, fresh)
	j.Patterns = &d.Patterns
	return j
}

func (d *Dataset) labels(to []string, eps []*Episode) []string {
	for _, e := range eps {
		to = append(to, d.Label(e))
	}
	return to
}

// episodeJSON is e's entry of the JSON's "episodes".
func (d *Dataset) episodeJSON(e *Episode) BatchEpisodeJSON {
	return BatchEpisodeJSON{EpisodeJSON: e.row.fields(), Baseline: e.row.result(0, d.Baseline, e.Options), After: e.row.result(1, d.After, e.Options)}
}

func writeDatasetJSON(w io.Writer, d *Dataset, summary bool) error {
	if err := d.writeJSON(w, d.json(), summary, ""); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// writeJSON writes v, d's JSON object made without its episodes (json), as
// an element indented at prefix, its "episodes" (unless summary) written
// one at a time as they are made, in the place the object's fields give them
// (before "metrics"): the bytes of the object made whole, without holding
// them (docs/PERFORMANCE.md, "Many episodes").
func (d *Dataset) writeJSON(w io.Writer, v any, summary bool, prefix string) error {
	b, err := textout.IndentedJSON(v, prefix)
	if err != nil {
		return err
	}
	if summary || len(d.Episodes) == 0 { // "episodes" is omitted when empty
		_, err = w.Write(b)
		return err
	}
	// A newline within the object is its layout's: one in a string is escaped.
	at := bytes.Index(b, []byte("\n"+prefix+`  "metrics": `))
	if at < 0 {
		return fmt.Errorf("the dataset's JSON has no metrics")
	}
	bw := bufio.NewWriter(w)
	bw.Write(b[:at-1]) // up to the comma after "bootstrap"
	bw.WriteString(",\n" + prefix + `  "episodes": [`)
	for i := range d.Episodes {
		e, err := textout.IndentedJSON(d.episodeJSON(&d.Episodes[i]), prefix+"    ")
		if err != nil {
			return err
		}
		if i > 0 {
			bw.WriteByte(',')
		}
		bw.WriteString("\n" + prefix + "    ")
		bw.Write(e)
	}
	bw.WriteString("\n" + prefix + "  ]")
	bw.Write(b[at-1:]) // the comma and what follows
	return bw.Flush()
}

// writeDatasetCSV writes one row per episode: its fields, then the baseline's
// and the after policy's outcome columns (prefixed baseline_ and after_).
func writeDatasetCSV(w io.Writer, d *Dataset) error {
	cw := csv.NewWriter(w)
	cw.Write(datasetCSVHeader())
	for i := range d.Episodes {
		cw.Write(d.csvRow(&d.Episodes[i]))
	}
	cw.Flush()
	return cw.Error()
}

func datasetCSVHeader() []string {
	header := slices.Clone(csvEpisodeHeader)
	for _, side := range []string{"baseline_", "after_"} {
		for _, h := range csvResultHeader {
			header = append(header, side+h)
		}
	}
	return header
}

// csvRow is e's row of the CSV.
func (d *Dataset) csvRow(e *Episode) []string {
	j := d.episodeJSON(e)
	row := csvEpisode(&j.EpisodeJSON)
	row = append(row, csvResult(&j.Baseline)...)
	return append(row, csvResult(&j.After)...)
}
