package report

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/patterns"
	"github.com/lbanalyze/lbanalyze/internal/textout"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/system"
)

// maxPatternPolicies bounds the policies whose stuck spells an episode report
// lists: a grid of thousands would drown the patterns that do not depend on
// the policy.
const maxPatternPolicies = 8

// analysePatterns is the patterns section of an episode under its policies:
// those that apply to the system that ran it.
func analysePatterns(ep *episode.Episode, policies []policy.Policy) *patterns.Analysis {
	opt, shows := patterns.DefaultOptions(), system.Of(ep).Shows
	opt.Revisit, opt.Warnings = shows.RevisitPenalty, shows.Warnings
	return patterns.Analyse(ep, opt, policies[:min(len(policies), maxPatternPolicies)]...)
}

var patternHeader = []string{"pattern", "first turn", "turns", "what the log shows"}

// patternRows are an episode's patterns, one row each.
func patternRows(a *patterns.Analysis) [][]string {
	rooms := func(rs []patterns.Room) string {
		names := make([]string, 0, len(rs))
		for _, r := range rs[:min(len(rs), 3)] {
			names = append(names, r.Name)
		}
		if len(rs) > 3 {
			names = append(names, fmt.Sprintf("%d more", len(rs)-3))
		}
		return strings.Join(names, ", ")
	}
	first := func(t int) string { return dash(t, t > 0) }
	spells := func(p *patterns.Pattern) string {
		if a.RoomKey == "none" {
			return "no rooms in this log: cannot tell"
		}
		return spellsIn(len(p.Spells), rooms(p.Rooms))
	}
	rows := [][]string{
		{"oscillation (A-B-A-B)", first(a.Oscillation.FirstTurn), strconv.Itoa(a.Oscillation.Turns), spells(&a.Oscillation)},
		{"camping", first(a.Camping.FirstTurn), strconv.Itoa(a.Camping.Turns), spells(&a.Camping)},
		{"repeats", first(a.Repeats.FirstTurn), strconv.Itoa(a.Repeats.Turns), repeatDetail(&a.Repeats)},
		{"action novelty", "", strconv.Itoa(a.Novelty.Turns),
			fmt.Sprintf("%s of actions not taken in the previous %d turns", share(a.Novelty.Share), a.Novelty.Window)},
	}
	if rv := a.Revisit; rv != nil {
		rows = append(rows, []string{"revisit penalty (1B)", "", strconv.Itoa(rv.Penalised), revisitDetail(rv)})
	}
	if w := a.Warnings; w != nil {
		rows = append(rows, []string{"countdown warnings (1C)", first(firstWarning(w)), strconv.Itoa(warningTurns(w)), warningDetail(w)})
	}
	if a.StateLoops.Events > 0 {
		rows = append(rows, []string{"state loops (logged)", first(a.StateLoops.FirstTurn), strconv.Itoa(a.StateLoops.Events),
			fmt.Sprintf("longest %d turns in loop; %d on oscillation, %d on camping turns", a.StateLoops.MaxTurnsInLoop, a.StateLoops.InOscillation, a.StateLoops.InCamping)})
	}
	return rows
}

func spellsIn(n int, rooms string) string {
	if n == 0 {
		return "none"
	}
	return fmt.Sprintf("%d spell%s in %s", n, textout.Plural(n), rooms)
}

func share(v float64) string { return strconv.FormatFloat(100*v, 'f', 0, 64) + "%" }

func repeatDetail(r *patterns.Repeats) string {
	if r.TurnsWithResponse == 0 {
		return "no zork_response in this log: cannot tell"
	}
	s := fmt.Sprintf("%s of %d turns repeat an (action, response) with no progress since; longest run %d", share(r.Share), r.TurnsWithResponse, r.LongestRun)
	if len(r.Top) > 0 {
		s += fmt.Sprintf("; most: %q ×%d", r.Top[0].Action, r.Top[0].Repeats)
	}
	return s
}

func revisitDetail(r *patterns.Revisit) string {
	if !r.Replayed {
		return "no room ids in this log: cannot replay"
	}
	s := fmt.Sprintf("%s of %d turns would lower the critic's confidence (not its verdict)", share(r.Share), r.Turns)
	if r.Recorded {
		s += fmt.Sprintf("; %d of %d logged penalties agree", r.Agree, r.LoggedEvents)
		if r.DisagreementCount > 0 {
			d := r.Disagreements[0]
			s += fmt.Sprintf(", %d disagree (first at turn %d: logged room %d ×%d, replayed %d ×%d)", r.DisagreementCount,
				d.Turn, d.LoggedRoom, d.LoggedVisits, d.ReplayedRoom, d.ReplayedVisits)
		}
	}
	return s
}

func firstWarning(w *patterns.Warnings) int {
	if len(w.Spells) == 0 {
		return 0
	}
	return w.Spells[0].Start
}

func warningTurns(w *patterns.Warnings) int {
	n := 0
	for _, s := range w.Spells {
		n += s.Turns
	}
	return n
}

func warningDetail(w *patterns.Warnings) string {
	seen := "replayed: this log predates them"
	if w.Shown {
		seen = "shown to the agent"
	}
	return fmt.Sprintf("%d spell%s under %s (%s): %d escaped, %d stopped, %d cut by the log's end", len(w.Spells), textout.Plural(len(w.Spells)), w.Policy, seen, w.Escaped, w.Stopped, w.EndOfLog)
}

// spellHeader heads the stuck spells of each policy: the lead of the
// warning only where the warnings were analysed.
func spellHeader(a *patterns.Analysis) []string {
	leads := "spell, warning, oscillation, camping, repeat"
	if a.Warnings == nil {
		leads = "spell, oscillation, camping, repeat"
	}
	return []string{"policy", fmt.Sprintf("stuck spells ≥ %d turns", minSpell), "longest", "stop", "lead over the stop: " + leads}
}

// minSpell is the length from which a stuck spell is listed
// (docs/patterns.md, "One episode").
var minSpell = patterns.DefaultOptions().MinSpell

// longSpells counts the spells of at least minSpell turns: the stop's
// spell is listed whatever its length, for its lead, and counted only
// when as long.
func longSpells(p *patterns.PolicyPatterns) int {
	n := 0
	for _, s := range p.Spells {
		if s.Length >= minSpell {
			n++
		}
	}
	return n
}

// spellRows are, per policy, its stuck spells and how long before its stop
// each pattern began.
func spellRows(a *patterns.Analysis) [][]string {
	var rows [][]string
	for i := range a.Policies {
		p := &a.Policies[i]
		l := p.Lead
		lead := "—"
		if l != nil {
			leads := []string{optLead(&l.StuckSpell), optLead(l.Warning), optLead(l.Oscillation), optLead(l.Camping), optLead(l.Repeat)}
			if a.Warnings == nil {
				leads = slices.Delete(leads, 1, 2)
			}
			lead = strings.Join(leads, ", ")
		}
		rows = append(rows, []string{p.Policy, strconv.Itoa(longSpells(p)), strconv.Itoa(p.Longest), dash(p.StopTurn, p.StopTurn > 0), lead})
	}
	return rows
}

func optLead(p *int) string {
	if p == nil {
		return "—"
	}
	return strconv.Itoa(*p)
}

// writePatternsText is the patterns section of an episode's table output,
// its tables fitting f.
func writePatternsText(w io.Writer, a *patterns.Analysis, f *textout.Fit) {
	fmt.Fprintln(w, "  patterns (how it was stuck):")
	const l, r = textout.Left, textout.Right
	f.Table(w, patternsPlan, patternHeader, patternRows(a), l, r, r, l)
	f.Table(w, spellsPlan, spellHeader(a), spellRows(a), l, r, r, r, l)
}

// writePatternsMarkdown is the same for markdown.
func writePatternsMarkdown(w io.Writer, a *patterns.Analysis) {
	fmt.Fprintln(w, "\nPatterns (how it was stuck):")
	fmt.Fprintln(w)
	textout.MarkdownTable(w, patternHeader, patternRows(a))
	fmt.Fprintln(w)
	textout.MarkdownTable(w, spellHeader(a), spellRows(a))
}

// summarise is the patterns over a dataset's episodes.
func summarise(eps []Episode) patterns.Summary {
	ds := make([]*patterns.Digest, 0, len(eps))
	for i := range eps {
		if d := eps[i].digest; d != nil {
			ds = append(ds, d)
		}
	}
	return patterns.SummariseAll(ds)
}

var summaryHeader = []string{"pattern", "episodes", "of", "median first turn"}

func summaryRows(s *patterns.Summary) [][]string {
	var rows [][]string
	for _, p := range s.Patterns {
		med := "—"
		if p.MedianFirstTurn != nil {
			med = strconv.FormatFloat(*p.MedianFirstTurn, 'f', 0, 64)
		}
		rows = append(rows, []string{strings.ReplaceAll(p.Pattern, "_", " "), strconv.Itoa(p.Episodes), strconv.Itoa(p.Of), med})
	}
	return rows
}

// leadHeader heads the median leads over each policy's stop: the warning's
// only where the warnings were analysed (patterns.Summary.Escape).
func leadHeader(s *patterns.Summary) []string {
	if s.Escape == nil {
		return []string{"policy", "stops", "median lead (n): stuck spell", "oscillation", "camping", "repeat"}
	}
	return []string{"policy", "stops", "median lead (n): stuck spell", "warning", "oscillation", "camping", "repeat"}
}

func leadRows(s *patterns.Summary) [][]string {
	m := func(x patterns.MedianN) string {
		if x.Median == nil {
			return "— (0)"
		}
		return fmt.Sprintf("%s (%d)", strconv.FormatFloat(*x.Median, 'f', 0, 64), x.N)
	}
	var rows [][]string
	for _, l := range s.Leads {
		row := []string{l.Policy, strconv.Itoa(l.Stops), m(l.StuckSpell)}
		if l.Warning != nil {
			row = append(row, m(*l.Warning))
		}
		rows = append(rows, append(row, m(l.Oscillation), m(l.Camping), m(l.Repeat)))
	}
	return rows
}

// summaryLines are the dataset's revisit-penalty and warning-escape figures,
// where they were analysed.
func summaryLines(s *patterns.Summary) []string {
	var l []string
	if rv := s.Revisit; rv != nil {
		l = append(l, fmt.Sprintf("Revisit penalty (1B): %d of %d turns (%s) would lower the critic's confidence — not its verdict, so this share, not an effect on actions, is what the logs can show; %d of %d logged penalties in %s agree with the replay (%d disagree).",
			rv.Penalised, rv.Turns, share(rv.Share), rv.Agree, rv.LoggedEvents, textout.Count(rv.Compared, "episode"), rv.Disagreements))
	}
	e := s.Escape
	if e == nil {
		return l
	}
	rate := func(r patterns.Rate) string {
		if r.Rate == nil {
			return fmt.Sprintf("no spell (n = 0, %s)", textout.Count(r.Episodes, "episode"))
		}
		return fmt.Sprintf("%d/%d = %s (95%% CI %s–%s, %s)", r.Escaped, r.N, share(r.Rate.Estimate), share(r.Rate.Low), share(r.Rate.High), textout.Count(r.Episodes, "episode"))
	}
	l = append(l, fmt.Sprintf("Warning escapes (1C): warning spells that ended in progress before the stop — logs that showed the warnings %s; older logs, replayed %s.",
		rate(e.WithWarnings), rate(e.WithoutWarnings)))
	if d := e.Difference; d != nil {
		l = append(l, fmt.Sprintf("Difference %+.0f pp (95%% CI %+.0f to %+.0f pp, Newcombe); observational, and spells of one episode are not independent.", 100*d.Estimate, 100*d.Low, 100*d.High))
	}
	return l
}

func writePatternSummaryText(w io.Writer, s *patterns.Summary, f *textout.Fit) {
	fmt.Fprintf(w, "\nPatterns over the %s (how they were stuck):\n", textout.Count(s.Episodes, "episode"))
	const l, r = textout.Left, textout.Right
	f.Table(w, summaryPlan, summaryHeader, summaryRows(s), l, r, r, r)
	f.Table(w, leadsPlan, leadHeader(s), leadRows(s), l, r, r, r, r, r, r)
	for _, line := range summaryLines(s) {
		fmt.Fprintln(w, line)
	}
}

func writePatternSummaryMarkdown(w io.Writer, s *patterns.Summary) {
	fmt.Fprintf(w, "\n### Patterns over the %s\n\n", textout.Count(s.Episodes, "episode"))
	textout.MarkdownTable(w, summaryHeader, summaryRows(s))
	fmt.Fprintln(w)
	textout.MarkdownTable(w, leadHeader(s), leadRows(s))
	fmt.Fprintln(w)
	for _, line := range summaryLines(s) {
		fmt.Fprintf(w, "%s\n\n", line)
	}
}

// PatternTables are the dataset's pattern summary as every format shows it:
// the pattern counts, the median leads over each policy's stop, and the
// revisit-penalty and warning-escape lines.
func (d *Dataset) PatternTables() (tables [][][]string, lines []string) {
	s := &d.Patterns
	return [][][]string{append([][]string{summaryHeader}, summaryRows(s)...), append([][]string{leadHeader(s)}, leadRows(s)...)}, summaryLines(s)
}
