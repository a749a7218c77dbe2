package sweep

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/lbanalyze/lbanalyze/internal/metrics"
	"github.com/lbanalyze/lbanalyze/internal/textout"
	"github.com/lbanalyze/lbanalyze/policy"
)

// What every format shows, decided once here: the answer in sections of
// labelled lines, and the rows of the front. The text, markdown and HTML
// renderers only lay them out.

// Section is one part of the answer: a headline, lines that each say one
// thing under a short label, and the block to paste, if any.
type Section struct {
	Headline  string
	Lines     []Line
	Paste     string // the block to paste
	PasteWhat string // where it goes: "Paste into pyproject.toml"
	Lang      string // the block's language, for markdown fences
}

// Line is one labelled line of a section.
type Line struct{ Label, Text string }

// Sections are the answer (or why there is none), then the best config
// overall when the system cannot run it as it is.
func (r *Result) Sections() []Section {
	out := []Section{{Headline: "No answer: " + r.NoAnswer}}
	if r.Answer != nil {
		out = []Section{r.answerSection()}
	}
	if o := r.BestOverall; o != nil {
		out = append(out, r.overallSection(o))
	}
	return out
}

// Summary says what was searched and for what, and whether the tokens are
// estimates.
func (r *Result) Summary() string {
	s := fmt.Sprintf("%s over %s (%d logged turns); targets: false-termination rate <= %s, censored outcomes <= %s; %s a turn.",
		textout.Count(len(r.Configs), "config"), episodes(r.N), r.TotalTurns, pct(r.MaxFalseRate), pct(r.MaxCensored), textout.Count(r.CallsPerTurn, "LLM call"))
	if r.EstimatedTokens > 0 {
		s += fmt.Sprintf(" Tokens saved are estimates for %d of the episodes: their logs give a run's tokens as one count, spread evenly over its steps.", r.EstimatedTokens)
	}
	return s
}

func (r *Result) answerSection() Section {
	a, sys := r.Answer, r.System.Name
	c := &r.Configs[a.Config]
	if a.KeepCurrent {
		s := Section{Headline: fmt.Sprintf("Answer for %s: keep your current setting, %s: %s.", sys, r.Current.Policy, a.Why)}
		s.Lines = append(s.Lines, Line{"now", r.inSample(&a.Now) + r.dollarsSaved(r.Current.Policy) + ": chosen before these data, so not optimistic"})
		if c.Policy != r.Current.Policy {
			s.Lines = append(s.Lines, Line{"versus now", c.Policy.String() + " would change " + headline(a.Versus)})
		}
		s.Lines = append(s.Lines, r.trust(&a.Choice, "the best config "+sys+" runs as it is")...)
		return r.withLimits(s)
	}
	s := Section{Headline: fmt.Sprintf("Answer for %s: ship %s (now %s): the most %s with a false-termination rate within %s and censored outcomes within %s.",
		sys, c.Policy, r.Current.Policy, r.rank()+" saved", pct(r.MaxFalseRate), pct(r.MaxCensored))}
	if !a.MeetsTarget {
		s.Headline = fmt.Sprintf("Answer for %s: ship %s (now %s), the nearest to the targets, as no config %s runs as it is meets both.",
			sys, c.Policy, r.Current.Policy, sys)
	}
	s.Lines = append(s.Lines, Line{"in sample", r.inSample(&a.In) + r.dollarsSaved(c.Policy)})
	s.Lines = append(s.Lines, r.trust(&a.Choice, "")...)
	s.Lines = append(s.Lines, Line{"versus now", headline(a.Versus)})
	s = r.withLimits(s)
	s.Paste, s.PasteWhat, s.Lang = a.Block, "Paste into "+r.System.File, r.System.Lang
	if r.System.Note != "" {
		s.PasteWhat += " (" + r.System.Note + ")"
	}
	return s
}

func (r *Result) overallSection(o *Overall) Section {
	c := &r.Configs[o.Config]
	s := Section{Headline: fmt.Sprintf("Best overall, with a change to %s: %s.", r.System.Name, c.Policy)}
	if !o.MeetsTarget {
		s.Headline = fmt.Sprintf("Best overall, with a change to %s: %s, the nearest to the targets.", r.System.Name, c.Policy)
	}
	over := r.Current.Policy.String() + " (now)"
	if a := r.Answer; a != nil && !a.KeepCurrent {
		over = r.Configs[a.Config].Policy.String()
	}
	s.Lines = []Line{
		{"adds", fmt.Sprintf("over %s: %s", over, headline(o.Over))},
		{"needs", o.Change},
		{"in sample", r.inSample(&o.In) + r.dollarsSaved(c.Policy)},
	}
	s.Lines = append(s.Lines, r.trust(&o.Choice, "")...)
	return s
}

// inSample is a config's figures with their intervals (and the tokens
// saved, when they rank the configs).
func (r *Result) inSample(f *Figures) string {
	s := fmt.Sprintf("n = %d: false-termination rate %s (95%% CI %s), turns saved %s (95%% CI %s)",
		r.N, pct(f.FalseRate), pctRange(f.FalseRateCI), pct(f.SavedShare), pctRange(f.SavedShareCI))
	if r.ByTokens {
		s += fmt.Sprintf(", tokens saved %d", f.TokensSaved)
	}
	return s
}

// dollarsSaved is what p saves in dollars with its interval, after a comma,
// when the sweep is priced; "" otherwise.
func (r *Result) dollarsSaved(p policy.Policy) string {
	d, ok := r.Dollars[p]
	if !ok {
		return ""
	}
	return ", cost saved " + dollarsCell(d)
}

// dollarsCell is an amount with its interval: "$1.05 (95% CI $0.61 … $1.49)".
func dollarsCell(d Dollars) string {
	if d.CI == nil {
		return metrics.Dollars.Format(d.Saved)
	}
	return fmt.Sprintf("%s (95%% CI %s … %s)", metrics.Dollars.Format(d.Saved), metrics.Dollars.Format(d.CI[0]), metrics.Dollars.Format(d.CI[1]))
}

// rank names what the configs are ranked by: "turns" (saved) or "tokens".
func (r *Result) rank() string {
	if r.ByTokens {
		return "tokens"
	}
	return "turns"
}

// trust are the held-out figures and the stability of a choice; what names
// what was chosen when it is not the config the section is about.
func (r *Result) trust(c *Choice, what string) []Line {
	name := r.Configs[c.Config].Policy.String()
	var held string
	switch cv := c.CV; {
	case cv.Folds == 0:
		held = "none (--folds 0): the in-sample figures are optimistic, as the config was chosen on the same episodes"
	case what == "":
		held = fmt.Sprintf("%d-fold: false-termination rate %s (95%% CI %s), turns saved %s%s: expect these on new episodes",
			cv.Folds, pct(cv.HeldOutFalseRate), pctRange(cv.HeldOutFalseCI), pct(cv.HeldOutSavedShare), r.heldOutTokens(&cv, ", tokens saved "))
	default:
		held = fmt.Sprintf("%d-fold: %s, chosen on %d folds, gives a false-termination rate of %s (95%% CI %s) and saves %s of the turns%s on the fold held out",
			cv.Folds, what, cv.Folds-1, pct(cv.HeldOutFalseRate), pctRange(cv.HeldOutFalseCI), pct(cv.HeldOutSavedShare), r.heldOutTokens(&cv, " and tokens "))
	}
	stab := fmt.Sprintf("%s chosen in %s of %d bootstrap resamples", name, pct(c.Stability), StabilityResamples)
	if c.Candidates < len(r.Configs) { // a large grid: the resamples and folds choose among the front
		stab += fmt.Sprintf(" (among %d configs: the front and the choices)", c.Candidates)
	}
	if cv := c.CV; cv.Folds > 0 {
		stab += fmt.Sprintf(" and on %d of %d folds", cv.Agree, cv.Folds)
		if cv.Undecided > 0 {
			stab += fmt.Sprintf(" (%d found no config within the censoring limit)", cv.Undecided)
		}
	}
	var rivals []string
	for _, rv := range c.Rivals[:min(2, len(c.Rivals))] {
		rivals = append(rivals, fmt.Sprintf("%s %s", r.Configs[rv.Config].Policy, pct(rv.Share)))
	}
	if len(rivals) > 0 {
		stab += "; also " + strings.Join(rivals, ", ")
	}
	return []Line{{"held out", held}, {"stability", stab}}
}

// heldOutTokens are the tokens the held-out folds saved, after lead, when
// they rank the configs; "" otherwise.
func (r *Result) heldOutTokens(cv *CV, lead string) string {
	if !r.ByTokens {
		return ""
	}
	return lead + strconv.FormatInt(cv.HeldOutTokensSaved, 10)
}

// withLimits adds, when no config the system runs meets both targets, which
// target binds and by how much.
func (r *Result) withLimits(s Section) Section {
	l := r.Answer.Limits
	if l == nil {
		return s
	}
	var t string
	if l.LeastCensored >= 0 {
		c := &r.Configs[l.LeastCensored]
		t = fmt.Sprintf("censoring binds. The configs %s runs with a false-termination rate within %s all have more than %s "+
			"censored outcomes (--max-censored); the fewest are %s, %s over, for %s.",
			r.System.Name, pct(r.MaxFalseRate), pct(r.MaxCensored), pct(r.CensoredShare(c)), pp(r.CensoredShare(c)-r.MaxCensored), c.Policy)
		if l.LowestFalse >= 0 {
			t += " Within that limit " + r.lowestFalse(l.LowestFalse)
		}
	} else {
		t = "the false-termination rate binds. Within " + pct(r.MaxCensored) + " censored outcomes " + r.lowestFalse(l.LowestFalse)
	}
	s.Lines = append(s.Lines, Line{"targets", t})
	return s
}

// lowestFalse says the lowest false-termination rate of a config within the
// censoring limit, and by how much it misses the target, in a sentence.
func (r *Result) lowestFalse(i int) string {
	c := &r.Configs[i]
	return fmt.Sprintf("the lowest rate is %s, for %s: %s over the target (--max-false-rate %s).",
		pct(r.FalseRate(c)), c.Policy, pp(r.FalseRate(c)-r.MaxFalseRate), pct(r.MaxFalseRate))
}

// headline is the change of every headline metric, with its interval, and
// of the cost saved when the sweep is priced.
func headline(ms []metrics.Metric) string {
	var parts []string
	for i := range ms {
		if ms[i].Headline || ms[i].Name == "cost_saved" {
			parts = append(parts, ms[i].Words())
		}
	}
	return strings.Join(parts, ", ")
}

// costHeader heads the front's column of dollars saved.
const costHeader = "cost saved (95% CI)"

// FrontHeader names the columns of the front table, the tokens saved beside
// the turns when some log records tokens; FrontTable gives its rows.
func (r *Result) FrontHeader() []string {
	h := []string{"#", "config", "turns saved"}
	if r.Tokens {
		h = append(h, "tokens saved")
	}
	if r.Dollars != nil {
		h = append(h, costHeader)
	}
	return append(h, "false terminations", "score forgone", "censored", "note")
}

// FrontRow is one row of the front table.
type FrontRow struct {
	Cells []string
	// Config is the index into Configs, -1 for the current setting ("now").
	Config int
	Answer bool // the config the answer names (the current setting when kept)
	Best   bool // the best overall, when the system cannot run it
}

// FrontTable is the Pareto front best first, by the answer's rule, the
// configs the system runs as it is first (the others after them, marked
// "needs a change"), and among each those censored beyond the limit last:
// the first rows of it (all when rows is 0),
// with the answer's and the best overall's rows wherever they rank (the
// answer's choice ranked among them when the front does not hold it), then
// the current setting. It gives how many configs it ranks.
func (r *Result) FrontTable(rows int) (out []FrontRow, ranks int) {
	ranked := slices.Clone(r.Front)
	if a := r.Answer; a != nil && !r.Configs[a.Config].Pareto {
		ranked = append(ranked, a.Config)
	}
	slices.SortStableFunc(ranked, func(a, b int) int {
		if r.Runnable[a] != r.Runnable[b] {
			if r.Runnable[a] {
				return -1
			}
			return 1
		}
		x, y := r.Configs[a].Tally, r.Configs[b].Tally
		if wx, wy := r.withinCensored(x, r.N), r.withinCensored(y, r.N); wx != wy {
			if wx {
				return -1
			}
			return 1
		}
		return r.better(y, x, r.N)
	})
	for k, i := range ranked {
		row := r.frontRow(strconv.Itoa(k+1), i)
		if rows == 0 || k < rows || row.Answer || row.Best {
			out = append(out, row)
		}
	}
	return append(out, r.frontRow("now", -1)), len(ranked)
}

func (r *Result) frontRow(label string, i int) FrontRow {
	row := FrontRow{Config: i}
	c := r.Current
	if i >= 0 {
		c = &r.Configs[i]
	}
	a, o := r.Answer, r.BestOverall
	var notes []string
	switch {
	case a == nil:
	case i < 0 && a.KeepCurrent:
		row.Answer = true
		notes = append(notes, "answer: keep")
	case i == a.Config && a.KeepCurrent:
		notes = append(notes, "best "+r.System.Name+" runs")
	case i == a.Config:
		row.Answer = true
		notes = append(notes, "answer")
	case o != nil && i == o.Config:
		row.Best = true
		notes = append(notes, "best overall")
	}
	if i >= 0 && !r.Configs[i].Pareto {
		notes = append(notes, "not on the front")
	}
	if i >= 0 && !r.Runnable[i] {
		notes = append(notes, "needs a change")
	}
	if r.CensoredShare(c) > r.MaxCensored {
		notes = append(notes, "over "+pct(r.MaxCensored)+" censored")
	}
	row.Cells = []string{label, c.Policy.String(), fmt.Sprintf("%d (%s)", c.TurnsSaved, pct(r.SavedShare(c)))}
	if r.Tokens {
		row.Cells = append(row.Cells, strconv.FormatInt(c.TokensSaved, 10))
	}
	if d := r.Dollars[c.Policy]; r.Dollars != nil {
		row.Cells = append(row.Cells, metrics.Dollars.Format(d.Saved))
		if d.CI != nil {
			row.Cells[len(row.Cells)-1] += fmt.Sprintf(" (%s … %s)", metrics.Dollars.Format(d.CI[0]), metrics.Dollars.Format(d.CI[1]))
		}
	}
	row.Cells = append(row.Cells, fmt.Sprintf("%d (%s)", c.FalseTerminations, pct(r.FalseRate(c))), c.ScoreForgone.String(),
		fmt.Sprintf("%d (%s)", c.Censored, pct(r.CensoredShare(c))), strings.Join(notes, "; "))
	return row
}

// FrontTitle heads the front table of shown rows (now aside) of the ranks.
func (r *Result) FrontTitle(shown, ranks int) string {
	s := fmt.Sprintf("Pareto front, best first: %d of %s", len(r.Front), textout.Count(len(r.Configs), "config"))
	if shown < ranks {
		s += fmt.Sprintf(", the first %d shown (--top N, --all for more)", shown)
	}
	return s
}

// FrontLegend says what the front is and what its notes mean.
func (r *Result) FrontLegend() string {
	return fmt.Sprintf("On the front: no other config saves more %s with no more false terminations and no more score forgone. "+
		"needs a change: %s cannot run it as it is (listed after those it runs). over %s censored: the recording's own loop break cut so many logs before the "+
		"config would stop that its lengths are lower bounds; never recommended.", r.rank(), r.System.Name, pct(r.MaxCensored))
}

// episodes is "1 episode", "75 episodes".
func episodes(n int) string { return textout.Count(n, "episode") }
