package report

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"iter"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/metrics"
	"github.com/lbanalyze/lbanalyze/internal/textout"
	"github.com/lbanalyze/lbanalyze/replay"
	"github.com/lbanalyze/lbanalyze/system"
)

// sparkWidth is how many marks the score timeline has at most.
const sparkWidth = 60

var sparkGlyphs = []rune("▁▂▃▄▅▆▇█")

// spark is the score timeline of an episode: one mark per group of turns
// (the score at the group's last turn), scaled from the lowest to the
// highest score, and under it each result's number at the mark of its stop.
type spark struct {
	ep      *episode.Episode
	perMark int
	stops   []rune
}

func newSpark(ep *episode.Episode, width int) *spark {
	n := ep.N()
	per := (n + width - 1) / width
	return &spark{ep: ep, perMark: per, stops: []rune(strings.Repeat(" ", (n+per-1)/per))}
}

// sparkEnd is what follows the marks: the first and the last score, and
// how many turns a mark stands for.
func sparkEnd(ep *episode.Episode, sp *spark) string {
	return fmt.Sprintf(" %s→%s, %d turn%s a mark", ep.Score(1), ep.FinalScore(), sp.perMark, textout.Plural(sp.perMark))
}

// fitSpark is the timeline of ep, of at most sparkWidth marks, fewer where
// its line would not fit f's terminal.
func fitSpark(ep *episode.Episode, f *textout.Fit) *spark {
	sp := newSpark(ep, sparkWidth)
	if f == nil || f.Width == 0 {
		return sp
	}
	const lead = len("  score ")
	for range 2 { // the end's width depends on the marks' count, a little
		over := lead + len(sp.stops) + textout.TextWidth(sparkEnd(ep, sp)) - f.Width
		if over <= 0 {
			break
		}
		sp = newSpark(ep, max(len(sp.stops)-over, 10))
	}
	return sp
}

// line is the marks.
func (s *spark) line() string {
	ep, n := s.ep, s.ep.N()
	lo, hi := ep.Score(1), ep.Score(1)
	for t := 1; t <= n; t++ {
		lo, hi = min(lo, ep.Score(t)), max(hi, ep.Score(t))
	}
	var b strings.Builder
	for i := range s.stops {
		v := ep.Score(min((i+1)*s.perMark, n))
		g := 0
		if hi > lo {
			g = int(math.Floor(float64((v - lo) * episode.Score(len(sparkGlyphs)-1) / (hi - lo))))
		}
		b.WriteRune(sparkGlyphs[g])
	}
	return b.String()
}

// stop puts result i's number (1-based; * past 9, or where another stops)
// under the mark of o's stop.
func (s *spark) stop(i int, o *replay.Outcome) {
	if !o.Terminated() {
		return
	}
	at := (o.TerminationTurn - 1) / s.perMark
	mark := rune('1' + i)
	if i >= 9 || s.stops[at] != ' ' {
		mark = '*'
	}
	s.stops[at] = mark
}

// stopLine is the numbers under the marks.
func (s *spark) stopLine() string { return strings.TrimRight(string(s.stops), " ") }

// summary is the one-line description of an episode: its objective
// completions where its system's logs record them.
func summary(ep *episode.Episode) string {
	shows := system.Of(ep).Shows
	end := "ended " + string(ep.End.Reason)
	switch {
	case ep.End.Reason == episode.EndNone && ep.End.Truncated:
		end = "no end event (truncated)"
	case ep.End.Reason == episode.EndNone:
		end = "its end not recorded"
	case ep.End.Turn > 0:
		end += fmt.Sprintf(" at turn %d", ep.End.Turn)
	}
	objectives := ""
	if shows.Objectives {
		objectives = textout.Count(len(ep.Objectives), "objective completion") + ", "
	}
	return fmt.Sprintf("%d turn%s, final score %s, %s, %s%d skipped line%s (%s)",
		ep.N(), textout.Plural(ep.N()), ep.FinalScore(), end, objectives,
		ep.SkippedLines, textout.Plural(ep.SkippedLines), factsText(ep))
}

// factsText is what the header says of the source's facts: "era E3c; no loop
// break recorded", or the log's format when its source has none.
func factsText(ep *episode.Episode) string {
	var t []string
	for _, f := range ep.Facts {
		t = append(t, f.Text)
	}
	if len(t) == 0 {
		return ep.Format
	}
	return strings.Join(t, "; ")
}

// verdict says in words what a result means for the episode.
func verdict(o *replay.Outcome) string {
	if o.StopReason != "" && o.Terminated() {
		return outcomeVerdict(o) + " — " + o.StopReason
	}
	return outcomeVerdict(o)
}

func outcomeVerdict(o *replay.Outcome) string {
	switch {
	case o.Censored:
		return fmt.Sprintf("censored (the log is cut at %d)", o.Length)
	case !o.Terminated():
		return "no stop"
	case o.Unknown():
		return fmt.Sprintf("unknown (the log is cut at %d, %s after the stop)", o.Length+o.TurnsSaved, textout.Count(o.TurnsSaved, "turn")) + pastHorizon(o)
	case o.FalseTerminationCandidate():
		var why []string
		if o.LaterScoreGain() {
			why = append(why, gainWords(o))
		}
		if n := len(o.WindowObjectives); n > 0 {
			turns := make([]string, n)
			for i, c := range o.WindowObjectives {
				turns[i] = strconv.Itoa(c.Turn)
			}
			if n > 3 {
				turns = append(turns[:3], "…")
			}
			why = append(why, fmt.Sprintf("objective%s at %s", textout.Plural(n), strings.Join(turns, ", ")))
		}
		return "premature? " + strings.Join(why, "; ") + pastHorizon(o)
	}
	return "truly stuck" + pastHorizon(o)
}

// gainWords is the later gain in words: "+5 at 152 (72 turns later)".
func gainWords(o *replay.Outcome) string {
	g := o.LaterGain
	return fmt.Sprintf("+%s at %d (%d turn%s later)", g.Points, g.Turn, o.GainDistance(), textout.Plural(o.GainDistance()))
}

// pastHorizon mentions a later gain that comes too late to count as evidence.
func pastHorizon(o *replay.Outcome) string {
	if o.LaterGain == nil || o.LaterScoreGain() {
		return ""
	}
	return fmt.Sprintf("; %s, past the %d-turn gain horizon", gainWords(o), o.GainHorizon)
}

func dash(v int, ok bool) string {
	if !ok {
		return "—"
	}
	return strconv.Itoa(v)
}

func dashScore(v episode.Score, ok bool) string {
	if !ok {
		return "—"
	}
	return v.String()
}

// resultHeader names the columns of a result row: the stop turn, turns stuck
// and score there, turns and LLM calls (and tokens, when logged, and dollars,
// when priced) saved, score forgone, the first turn with a countdown warning
// (where the system shows one), and what the result means; align aligns them.
func resultHeader(e *Episode) (header []string, align []textout.Align) {
	const l, r = textout.Left, textout.Right
	header = []string{"#", "policy", "stop", "stuck", "score", "saved", "calls saved"}
	align = []textout.Align{r, l, r, r, r, r, r}
	if e.Ep.Signals.Has(episode.Tokens) {
		header, align = append(header, "tokens saved"), append(align, r)
	}
	if e.Priced() {
		header, align = append(header, "cost saved"), append(align, r)
	}
	header, align = append(header, "forgone"), append(align, r)
	if system.Of(e.Ep).Shows.Warnings {
		header, align = append(header, "warned"), append(align, r)
	}
	return append(header, "verdict"), append(align, l)
}

func resultRow(i int, o *replay.Outcome, e *Episode) []string {
	t := o.Terminated()
	row := []string{
		strconv.Itoa(i + 1), o.Policy.String(), dash(o.TerminationTurn, t), dash(o.TurnsStuck, t),
		dashScore(o.ScoreAtTermination, t), strconv.Itoa(o.TurnsSaved), strconv.Itoa(o.LLMCallsSaved(e.CallsPerTurn)),
	}
	if e.Ep.Signals.Has(episode.Tokens) {
		row = append(row, strconv.FormatInt(o.TokensSaved, 10))
	}
	if e.Priced() {
		row = append(row, "—")
		if cost, ok := e.CostSaved(o); ok {
			row[len(row)-1] = metrics.Dollars.Format(cost)
		}
	}
	row = append(row, o.ScoreForgone.String())
	if system.Of(e.Ep).Shows.Warnings {
		row = append(row, dash(o.WarningStartTurn, o.WarningStartTurn > 0))
	}
	return append(row, verdict(o))
}

// selfCheckLines says whether a replay reproduces the recording's own loop break.
func selfCheckLines(e *Episode) []string {
	sc, rec := e.SelfCheck, e.Ep.Recorded
	if sc == nil {
		return nil
	}
	what := fmt.Sprintf("%d score_change, %d objective_progress_reset", len(rec.Turns(episode.ScoreChangeReset)), len(rec.Turns(episode.ObjectiveReset)))
	if st := rec.Stop; st != nil {
		what += fmt.Sprintf(", stuck_termination at %d (turns_stuck %d)", st.Turn, st.TurnsStuck)
	}
	lines := []string{fmt.Sprintf("self-check: the log records %s.", what)}
	if sc.Policy == "" {
		lines = append(lines, "  no shipped policy reproduces the recorded resets: "+strings.Join(sc.Mismatches, "; "))
	} else {
		lines = append(lines, fmt.Sprintf("  %s reproduces every recorded reset.", sc.Policy))
	}
	stop := "no stop"
	if sc.ReplayedTurn > 0 {
		stop = fmt.Sprintf("a stop at %d (turns_stuck %d)", sc.ReplayedTurn, sc.ReplayedStuck)
	}
	ok := "matches the recording"
	if !sc.TerminationMatch {
		ok = "does NOT match the recording"
	}
	name := sc.Policy
	if name == "" {
		name = "the nearest policy"
	}
	if sc.CounterOnly {
		lines = append(lines, fmt.Sprintf("  the runner did not stop on the rule: at %d/%d it would have given %s.", sc.Timer.MaxTurnsStuck, sc.Timer.CheckInterval, stop))
		return lines
	}
	lines = append(lines, fmt.Sprintf("  at %d/%d it gives %s, which %s.", sc.Timer.MaxTurnsStuck, sc.Timer.CheckInterval, stop, ok))
	var cons []string
	for _, c := range sc.Consistent {
		r := strconv.Itoa(c.MaxTurnsStuckMin)
		if c.MaxTurnsStuckMax != c.MaxTurnsStuckMin {
			r += "–" + strconv.Itoa(c.MaxTurnsStuckMax)
		}
		cons = append(cons, fmt.Sprintf("%s with interval %d", r, c.CheckInterval))
	}
	if len(cons) > 6 {
		cons = append(cons[:6], fmt.Sprintf("… (%d intervals in all)", len(sc.Consistent)))
	}
	if len(cons) == 0 {
		cons = []string{"none"}
	}
	dflt := "not consistent"
	if sc.DefaultsConsistent {
		dflt = "consistent"
	}
	lines = append(lines, fmt.Sprintf("  settings consistent with the recording (%s): max_turns_stuck %s; %s's 40/10 is %s.", name, strings.Join(cons, ", "), system.Of(e.Ep).Name, dflt))
	return lines
}

// tableHead is the line that names an episode in a table.
func tableHead(w io.Writer, n episodeName) {
	fmt.Fprintf(w, "%s   %s\n", textout.Printable(n.name), textout.Printable(n.source))
}

// tableBody is the rest of an episode's table: what follows its head; its
// tables fit f.
func tableBody(w io.Writer, e *Episode, f *textout.Fit) {
	ep := e.Ep
	fmt.Fprintf(w, "  %s\n", textout.Printable(summary(ep)))
	sp := fitSpark(ep, f)
	header, align := resultHeader(e)
	t := f.Measure(header)
	e.eachRow(func(i int, o *replay.Outcome, row []string) { // the first of two passes
		sp.stop(i, o)
		t.Add(row)
	})
	fmt.Fprintf(w, "  score %s%s\n", sp.line(), sparkEnd(ep, sp))
	if stops := sp.stopLine(); stops != "" {
		fmt.Fprintf(w, "  stops %s\n", stops)
	}
	t.Draw(w, resultsPlan, header, e.rows(), align)
	for _, l := range selfCheckLines(e) {
		fmt.Fprintln(w, l)
	}
	if e.Patterns != nil {
		writePatternsText(w, e.Patterns, f)
	}
	for _, s := range e.Notes() {
		fmt.Fprintf(w, "note: %s\n", textout.Printable(s))
	}
}

// eachRow hands visit each result's outcome and row, in order: the outcomes
// are replayed again each time (each).
func (e *Episode) eachRow(visit func(i int, o *replay.Outcome, row []string)) {
	e.each(func(from int, out []replay.Outcome) error {
		for k := range out {
			visit(from+k, &out[k], resultRow(from+k, &out[k], e))
		}
		return nil
	})
}

// rows are the result rows, in order.
func (e *Episode) rows() iter.Seq[[]string] {
	return func(yield func([]string) bool) {
		e.each(func(from int, out []replay.Outcome) error {
			for k := range out {
				if !yield(resultRow(from+k, &out[k], e)) {
					return errStop
				}
			}
			return nil
		})
	}
}

// errStop ends an each whose reader stopped.
var errStop = errors.New("stopped")

// markdownHead is the heading that names an episode in markdown.
func markdownHead(w io.Writer, n episodeName) {
	fmt.Fprintf(w, "### %s\n\n", textout.MarkdownLine(n.name))
}

// markdownBody is the rest of an episode's markdown: what follows its head.
func markdownBody(w io.Writer, e *Episode) {
	ep := e.Ep
	fmt.Fprintf(w, "%s: %s.\n\n", textout.CodeSpan(ep.Source), textout.MarkdownText(summary(ep)))
	sp := newSpark(ep, sparkWidth)
	fmt.Fprintf(w, "Score `%s` %s→%s (%d turn%s a mark)\n\n", sp.line(), ep.Score(1), ep.FinalScore(), sp.perMark, textout.Plural(sp.perMark))
	header, align := resultHeader(e)
	textout.MarkdownRows(w, header, e.rows(), align)
	if e.Patterns != nil {
		writePatternsMarkdown(w, e.Patterns)
	}
	if lines := selfCheckLines(e); len(lines) > 0 {
		fmt.Fprintln(w)
		// Two spaces end a line of the quote but its last: a renderer
		// would join them into one paragraph otherwise.
		for i, l := range lines {
			end := "  "
			if i == len(lines)-1 {
				end = ""
			}
			fmt.Fprintf(w, "> %s%s\n", strings.TrimSpace(l), end)
		}
	}
	if ws := e.Warnings(); len(ws) > 0 {
		fmt.Fprintln(w, "\nWarnings:")
		for _, s := range ws {
			fmt.Fprintf(w, "- %s\n", textout.MarkdownLine(s))
		}
	}
}

// The CSV columns: an episode's fields, then an outcome's (empty cells for null).
var (
	csvEpisodeHeader = []string{"episode_id", "source", "log_format", "segment", "turns", "final_score", "end_reason",
		"objective_completions", "skipped_lines"}
	csvResultHeader = []string{"policy", "settings",
		"termination_turn", "stop_reason", "turns_stuck", "score_at_termination", "location_at_termination", "turns_saved", "length", "score_forgone",
		"later_score_gain", "later_gain_turn", "later_gain_points", "later_gain_distance", "gain_horizon", "objective_progress", "window_objectives",
		"false_termination_candidate", "unknown", "truly_stuck", "censored", "warning_start_turn", "llm_calls_saved", "tokens_saved", "cost_saved"}
)

func opt(p *int) string {
	if p == nil {
		return ""
	}
	return strconv.Itoa(*p)
}

func optScore(p *episode.Score) string {
	if p == nil {
		return ""
	}
	return p.String()
}

func opt64(p *int64) string {
	if p == nil {
		return ""
	}
	return strconv.FormatInt(*p, 10)
}

func optS(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// scoreCell is a score's CSV cell, empty for none.
func scoreCell(s *episode.Score) string {
	if s == nil {
		return ""
	}
	return s.String()
}

func csvEpisode(j *EpisodeJSON) []string {
	return []string{textout.CSVText(j.EpisodeID), textout.CSVText(j.Source), textout.CSVText(j.LogFormat), strconv.Itoa(j.Segment), strconv.Itoa(j.Turns), scoreCell(j.FinalScore),
		textout.CSVText(j.EndReason), opt(j.ObjectiveCompletions), strconv.Itoa(j.SkippedLines)}
}

func csvResult(r *ResultJSON) []string {
	gt, gp, gd := "", "", ""
	if g := r.LaterGain; g != nil {
		gt, gp, gd = strconv.Itoa(g.Turn), g.Points.String(), strconv.Itoa(g.Distance)
	}
	cost := ""
	if r.CostSaved != nil {
		cost = strconv.FormatFloat(*r.CostSaved, 'f', -1, 64)
	}
	var win []string
	for _, c := range r.WindowObjectives {
		win = append(win, strconv.Itoa(c.Turn))
	}
	b := strconv.FormatBool
	return []string{textout.CSVText(r.Policy), textout.CSVText(r.Settings.String()), opt(r.TerminationTurn), textout.CSVText(optS(r.StopReason)), opt(r.TurnsStuck), optScore(r.ScoreAtTermination), textout.CSVText(optS(r.LocationAtTermination)), strconv.Itoa(r.TurnsSaved),
		strconv.Itoa(r.Length), r.ScoreForgone.String(), b(r.LaterScoreGain), gt, gp, gd, opt(r.GainHorizon), b(r.ObjectiveProgress),
		strings.Join(win, " "), b(r.FalseTerminationCandidate), b(r.Unknown), b(r.TrulyStuck), b(r.Censored),
		opt(r.WarningStartTurn), strconv.Itoa(r.LLMCallsSaved), opt64(r.TokensSaved), cost}
}

// csvHeader writes the header row of an episode's CSV.
func csvHeader(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write(append(slices.Clone(csvEpisodeHeader), csvResultHeader...))
	cw.Flush()
	return cw.Error()
}

// csvRows writes an episode's CSV rows, one a result.
func csvRows(w io.Writer, e *Episode) error {
	cw := csv.NewWriter(w)
	j := e.fields()
	head := csvEpisode(&j)
	e.each(func(_ int, out []replay.Outcome) error { // a row at a time: a grid's results are never held
		for k := range out {
			r := Result(e.Ep, &out[k], e.Options)
			cw.Write(append(head[:len(head):len(head)], csvResult(&r)...))
		}
		return nil
	})
	cw.Flush()
	return cw.Error()
}
