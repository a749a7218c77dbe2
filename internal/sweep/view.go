package sweep

import (
	"cmp"
	"fmt"
	"math"
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
	s := fmt.Sprintf("%s over %s (%d logged turns); targets: false-termination rate (high bound) <= %s, censored outcomes <= %s; "+
		"a change ships within --ft-margin %s of now's false-termination rate; %s a turn",
		textout.Count(len(r.Configs), "config"), episodes(r.N), r.TotalTurns, pct(r.MaxFalseRate), pct(r.MaxCensored), ppMargin(r.FTMargin),
		textout.Count(r.CallsPerTurn, "LLM call"))
	if r.GainHorizon > 0 {
		s += fmt.Sprintf("; a later gain is evidence within %s of the stop", textout.Count(r.GainHorizon, "turn"))
	}
	s += "."
	if r.EstimatedTokens > 0 {
		s += fmt.Sprintf(" Tokens saved are estimates for %d of the episodes: their logs give a run's tokens as one count, spread evenly over its steps.", r.EstimatedTokens)
	}
	return s
}

// choices are the answer's and the best overall's, those there are.
func (r *Result) choices() []*Choice {
	var out []*Choice
	if r.Answer != nil {
		out = append(out, &r.Answer.Choice)
	}
	if r.BestOverall != nil {
		out = append(out, &r.BestOverall.Choice)
	}
	return out
}

// name is config i's policy, "now" for -1.
func (r *Result) name(i int) string {
	if i < 0 {
		return "now (" + r.Current.Policy.String() + ")"
	}
	return r.Configs[i].Policy.String()
}

func (r *Result) answerSection() Section {
	a, sys := r.Answer, r.System.Name
	var s Section
	switch a.Verdict {
	case Ship:
		s.Headline = fmt.Sprintf("Answer for %s: ship %s (now %s): %s.%s", sys, r.name(a.Config), r.Current.Policy, r.shipWhy(a),
			r.classWords(a.Config))
		s.Lines = append(s.Lines, r.comparisons(a)...)
		s.Lines = append(s.Lines, Line{"in sample", r.inSample(&a.In, true) + r.dollarsSaved(r.Configs[a.Config].Policy, false)})
		s.Lines = append(s.Lines, r.stability(&a.Choice))
		s.Paste, s.PasteWhat, s.Lang = a.Block, "Paste into "+r.System.File, r.System.Lang
		if r.System.Note != "" {
			s.PasteWhat += " (" + r.System.Note + ")"
		}
	case Keep:
		s.Headline = fmt.Sprintf("Answer for %s: keep your current setting, %s: %s.", sys, r.Current.Policy, a.Why)
		s.Lines = append(s.Lines, Line{"now", r.inSample(&a.Now, false) + r.dollarsSaved(r.Current.Policy, true) + ": chosen before these data, so not optimistic"})
		if a.Config >= 0 {
			s.Lines = append(s.Lines, r.comparisons(a)...)
			s.Lines = append(s.Lines, r.stability(&a.Choice))
		}
	case NoClearWinner:
		lead := "the change that leads"
		if a.Safer {
			lead = "the safer change that leads"
		}
		s.Headline = fmt.Sprintf("Answer for %s: no clear winner between now (%s) and %s, %s: %s; %s. Keep now "+
			"until then.%s", sys, r.Current.Policy, r.name(a.Config), lead, a.Why, r.settleWords(a.Settle), r.classWords(a.Config))
		s.Lines = append(s.Lines, r.comparisons(a)...)
		s.Lines = append(s.Lines, r.stability(&a.Choice))
		s.Lines = append(s.Lines, Line{"now", r.inSample(&a.Now, false) + r.dollarsSaved(r.Current.Policy, true)})
	}
	s.Lines = append(s.Lines, r.quartileLine()...)
	return r.withLimits(s)
}

// shipWhy is why a change ships, in the words of its direction, and which
// comparison showed it.
func (r *Result) shipWhy(a *Answer) string {
	who := byTheRule
	if a.HeldOut == nil {
		who = "on the episodes that chose it (--folds 0: in sample, optimistic), it"
	}
	if a.Safer {
		ft := metricNamed(a.decisive(), "false_termination_rate")
		return fmt.Sprintf("%s has significantly fewer false terminations than now (%s), at a cost of %s%s",
			who, ft.Unit.Signed(ft.Change), r.cost(a), r.saferBreakEven(a))
	}
	rate := "not significantly higher, at most"
	if !r.vetoWorse() {
		rate = "at most" // now stops no episode (vetoWorse)
	}
	return fmt.Sprintf("%s saves more %s than now, with a false-termination rate %s --ft-margin %s above now's",
		who, r.rank(), rate, ppMargin(r.FTMargin))
}

// cost is what a safer change costs against now in the comparison the
// verdict was taken on, in turns (tokens) and in dollars when priced, with
// the upper bound of its 95% interval, "at most": one-sided as the savings
// are (versusWords), for the choice biases it (docs/calibration.md,
// "Savings and costs: one-sided").
func (r *Result) cost(a *Answer) string {
	ms := a.decisive()
	costOf := func(m *metrics.Metric, unit string) string {
		s := m.Unit.Format(-m.Change) + unit
		if m.CI != nil {
			s += fmt.Sprintf(" (at most %s)", m.Unit.Format(-m.CI[0]))
		}
		return s
	}
	s := costOf(metricNamed(ms, r.savedMetric()), " "+r.rank())
	if i := slices.IndexFunc(ms, func(m metrics.Metric) bool { return m.Name == "cost_saved" }); i >= 0 {
		s += " and " + costOf(&ms[i], "")
	}
	return s
}

// saferBreakEven is, for a safer change, the break-even in the words of its
// ship: worth it to a user who values a lost solve above the rate.
func (r *Result) saferBreakEven(a *Answer) string {
	b := a.BreakEven
	if b == nil || math.IsInf(b.Rate, 1) {
		return ""
	}
	if b.Rate == 0 {
		return "; worth it at any value of a lost solve (it costs nothing at the bound of its interval)"
	}
	return fmt.Sprintf(": ship if a lost solve (an episode stopped before a later gain) is worth more than %s %s%s to you "+
		"(the break-even, below)", num(b.Rate), r.rank(), b.dollars())
}

// settleWords says how many episodes in all would settle the comparison the
// verdict was taken on, and on what assumption; a count no more than the n
// at hand is never given as what would settle it: what blocks is then said
// (Settle.Reached).
func (r *Result) settleWords(s *Settle) string {
	if s == nil {
		return "no count of episodes alone would settle it"
	}
	from := fmt.Sprintf("from %s: %s worse under it than under now, %d better", s.pairs(), textout.Count(s.Worse, "episode"), s.Better)
	if s.Saved > 0 && s.Low == s.Saved {
		from += fmt.Sprintf("; the low end is what would show the %s it saves, at the upper bound of their interval", r.rank())
	}
	switch {
	case !s.Reached(r.N) && (s.High == 0 || s.High == s.Low):
		return fmt.Sprintf("at least %s would settle it (%d here; %s)", textout.Count(s.Low, "episode"), r.N, from)
	case !s.Reached(r.N):
		return fmt.Sprintf("%d to %s would settle it (%d here; %s: the first at the favourable end of its interval, the "+
			"second as observed)", s.Low, textout.Count(s.High, "episode"), r.N, from)
	case s.High > r.N:
		return fmt.Sprintf("as observed, about %s would settle it (%d here; %s); at the favourable end of its interval "+
			"these would, so what blocks it is the discordance observed, not the count", textout.Count(s.High, "episode"), r.N, from)
	case s.High == 0 && s.Worse+s.Better > 0:
		return fmt.Sprintf("as observed no count would settle it (%s); at the favourable end of its interval these %d "+
			"would, so what blocks it is the discordance observed, not the count", from, r.N)
	}
	return fmt.Sprintf("the %d episodes here are as many as settling it needs (%s), so what withholds it is the "+
		"rest said here, not the count", r.N, from)
}

// pairs names the comparison a count to settle rests on.
func (s *Settle) pairs() string {
	if s.HeldOut {
		return "the held-out pairs"
	}
	return "the named config's own pairs"
}

// comparisons are the named config's own comparison with now, the rule's
// held out (when the folds did not all choose the named config, whose pairs
// they are then), and the trade-off between what it saves and what it
// risks.
func (r *Result) comparisons(a *Answer) []Line {
	name := r.Configs[a.Config].Policy.String()
	decided := "; the verdict's"
	if a.HeldOut != nil {
		decided = ""
	}
	out := []Line{{"versus now", fmt.Sprintf("%s on all %s (in sample)%s: %s", name, episodes(r.N), decided,
		r.versusWords(a.Versus, a.Safer))}}
	if a.HeldOut != nil {
		what := "the rule's, each episode under the config chosen on the other folds (the verdict's)"
		if a.HeldOutIsOwn() {
			what += ": every fold chose " + name + ", the same pairs as above"
		} else {
			what += ": " + r.versusWords(a.HeldOut, a.Safer)
		}
		out = append(out, Line{"held out", what})
	}
	if a.BreakEven != nil {
		out = append(out, Line{"break-even", a.BreakEven.words(r)})
	}
	return out
}

// AtLeast are the metrics a comparison with now prints as "at least" the
// lower bound of their interval (versusWords): what a change saves.
var AtLeast = map[string]bool{"turns_saved": true, "tokens_saved": true, "cost_saved": true}

// flattered are the figures of a config the rule chose, on the episodes that
// chose it, without intervals: chosen for looking good on them, it does
// worse on new ones than an interval of them would say (docs/calibration.md,
// "Results").
func (r *Result) flattered(f *Figures) string {
	s := fmt.Sprintf("n = %d, on the episodes that chose it (flattered by the choice): false-termination rate %s, turns saved %s",
		r.N, bounds(f.FalseRateLow, f.FalseRate), pct(f.SavedShare))
	if r.ByTokens {
		s += fmt.Sprintf(", tokens saved %d", f.TokensSaved)
	}
	return s
}

// bounds are a false-termination rate's two bounds, "9.3%–33.3%", or one
// figure when they are equal.
func bounds(low, high float64) string {
	if low == high {
		return pct(high)
	}
	return strconv.FormatFloat(100*low, 'f', 1, 64) + "–" + pct(high)
}

// classWords names the configs with the same outcomes as config i on every
// episode, which it stands for; "" for a class of one.
func (r *Result) classWords(i int) string {
	members := r.ClassOf(i)
	if i < 0 || len(members) < 2 {
		return ""
	}
	return fmt.Sprintf(" It stands for %d configs with the same outcome on every episode, the nearest to now: %s.", len(members), r.members(members))
}

// members names the configs of a class: the first three, and how many more.
func (r *Result) members(ms []int) string {
	var names []string
	for _, i := range ms[:min(3, len(ms))] {
		names = append(names, r.Configs[i].Policy.String())
	}
	s := strings.Join(names, " = ")
	if len(ms) > 3 {
		s += fmt.Sprintf(" (+%d more)", len(ms)-3)
	}
	return s
}

func (r *Result) overallSection(o *Overall) Section {
	c := &r.Configs[o.Config]
	s := Section{Headline: fmt.Sprintf("Best overall, with a change to %s: %s.%s", r.System.Name, c.Policy, r.classWords(o.Config))}
	over := r.Current.Policy.String() + " (now)"
	if a := r.Answer; a != nil && a.Verdict == Ship {
		over = r.Configs[a.Config].Policy.String()
	}
	s.Lines = []Line{
		{"adds", fmt.Sprintf("over %s, in sample: %s", over, r.versusWords(o.Over, false))},
		{"needs", o.Change},
		{"in sample", r.flattered(&o.In) + r.dollarsSaved(c.Policy, false)},
	}
	if cv := o.CV; cv.Folds > 0 {
		s.Lines = append(s.Lines, Line{"held out", fmt.Sprintf("%d-fold, each episode judged by the config chosen on the other folds: "+
			"false-termination rate %s, turns saved %s", cv.Folds, bounds(cv.HeldOutFalseRateLow, cv.HeldOutFalseRate), pct(cv.HeldOutSavedShare))})
	}
	s.Lines = append(s.Lines, r.stability(&o.Choice))
	return s
}

// rates are a false-termination rate's two bounds and the high one's
// interval: "9.3%–33.3% (high bound 95% CI 24.0% … 45.0%)".
func rates(low, high float64, ci [2]float64) string {
	return bounds(low, high) + " (high bound 95% CI " + pctRange(ci) + ")"
}

// inSample is a config's figures on all n episodes (and the tokens saved,
// when they rank the configs); chosen says they chose it.
func (r *Result) inSample(f *Figures, chosen bool) string {
	s := fmt.Sprintf("n = %d", r.N)
	if chosen {
		s += ", on the episodes that chose it"
	}
	s += fmt.Sprintf(": false-termination rate %s, turns saved %s", rates(f.FalseRateLow, f.FalseRate, f.FalseRateCI), pct(f.SavedShare))
	if r.ByTokens {
		s += fmt.Sprintf(", tokens saved %d", f.TokensSaved)
	}
	if f.Unknown+f.Censored > 0 {
		s += fmt.Sprintf("; %d unknown, %d censored", f.Unknown, f.Censored)
	}
	return s
}

// dollarsSaved is what p saves in dollars, after a comma, when the sweep is
// priced ("" otherwise); with its interval only for a config chosen before
// these data (now): a chosen config's in-sample figures are flattered by the
// choice, and the interval to trust is the held-out one of versus now
// (docs/commands.md, "sweep: which setting to ship").
func (r *Result) dollarsSaved(p policy.Policy, interval bool) string {
	d, ok := r.Dollars[p]
	if !ok {
		return ""
	}
	if !interval {
		d.CI = nil
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

// stability is how often the rule chooses the same class again, and the
// others it chooses.
func (r *Result) stability(c *Choice) Line {
	s := fmt.Sprintf("%s chosen in %s of %d bootstrap resamples", r.name(c.Config), pct(c.Stability), StabilityResamples)
	if c.Candidates < len(r.Classes) { // a large grid: the resamples and folds choose among the front
		s += fmt.Sprintf(" (among %d configs: the front and the choices)", c.Candidates)
	}
	if cv := c.CV; cv.Folds > 0 {
		s += fmt.Sprintf(" and on %d of %d folds", cv.Agree, cv.Folds)
	}
	var rivals []string
	for _, rv := range c.Rivals[:min(2, len(c.Rivals))] {
		rivals = append(rivals, fmt.Sprintf("%s %s", r.name(rv.Config), pct(rv.Share)))
	}
	if len(rivals) > 0 {
		s += "; also " + strings.Join(rivals, ", ")
	}
	return Line{"stability", s}
}

// versusWords are the headline changes of a comparison with now, each with
// its interval: the false-termination rate's with its discordant episodes,
// the turns and dollars saved as at least their lower bound, which the
// choice biases (docs/calibration.md, "Savings and costs: one-sided"). Of a
// safer change (safer), a saving below 0 is a cost the rule chose for being
// the least, and the words say that it may be more.
func (r *Result) versusWords(ms []metrics.Metric, safer bool) string {
	var parts []string
	for i := range ms {
		m := &ms[i]
		if !m.Headline && m.Name != "cost_saved" {
			continue
		}
		w := m.Words()
		switch {
		case m.Name == "false_termination_rate":
			w = strings.TrimSuffix(w, ")") + fmt.Sprintf("; %s worse under it, %d better)",
				textout.Count(m.Discordant[0], "episode"), m.Discordant[1])
		case AtLeast[m.Name] && m.CI != nil && m.BaselineOK && m.AfterOK:
			w = fmt.Sprintf("%s %s (at least %s)", m.Label, m.Unit.Signed(m.Change), m.Unit.Interval(m.CI[0]))
			if safer && m.Change < 0 {
				w = strings.TrimSuffix(w, ")") + "; chosen as the cheapest safer change, its cost may be more)"
			}
		}
		parts = append(parts, w)
	}
	return strings.Join(parts, ", ")
}

// withLimits adds, when the config the answer tells to run misses a target,
// which target binds and by how much: advisory, beside a verdict the
// comparison with now takes (docs/commands.md, "sweep: which setting to
// ship"), so that a ship never stands beside a miss without saying which
// wins.
func (r *Result) withLimits(s Section) Section {
	l := r.Answer.Limits
	if l == nil {
		return s
	}
	c := r.Answer.config(r)
	t := fmt.Sprintf("advisory, the verdict stands: %s misses a target: false-termination rate %s (high bound; --max-false-rate %s), censored outcomes %s "+
		"(--max-censored %s)", c.Policy, pct(r.FalseRate(c)), pct(r.MaxFalseRate), pct(r.CensoredShare(c)), pct(r.MaxCensored))
	switch {
	case l.MeetsBoth >= 0:
		mb := &r.Configs[l.MeetsBoth]
		t += fmt.Sprintf("; of the configs %s runs, %s meets both, saving %d %s (now %d)",
			r.System.Name, mb.Policy, r.saved(&mb.Tally), r.rank(), r.saved(&r.Current.Tally))
	case l.LeastCensored >= 0:
		lc := &r.Configs[l.LeastCensored]
		t += fmt.Sprintf("; none of the configs %s runs meets both: %s keeps the rate within the target, but has %s censored outcomes",
			r.System.Name, lc.Policy, pct(r.CensoredShare(lc)))
		if l.LowestFalse >= 0 {
			t += "; within the censoring limit " + r.lowestFalse(l.LowestFalse)
		}
	case l.LowestFalse >= 0:
		t += "; of the configs " + r.System.Name + " runs within the censoring limit " + r.lowestFalse(l.LowestFalse)
	}
	s.Lines = append(s.Lines, Line{"targets", t})
	return s
}

// lowestFalse says the lowest false-termination rate of a config within the
// censoring limit, and by how much it misses the target, in a sentence.
func (r *Result) lowestFalse(i int) string {
	c := &r.Configs[i]
	return fmt.Sprintf("the lowest rate is %s (%s), saving %s of the turns", pct(r.FalseRate(c)), c.Policy, pct(r.SavedShare(c)))
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
	return append(h, "false terminations", r.forgone(), "censored", "note")
}

// forgone heads the front's column of score forgone: the solves lost, where
// every run is judged by its result.
func (r *Result) forgone() string {
	if r.Results {
		return "solves lost"
	}
	return "score forgone"
}

// FrontRow is one row of the front table.
type FrontRow struct {
	Cells []string
	// Config is the index into Configs, -1 for the current setting ("now").
	Config int
	Answer bool // the config the answer names (the current setting when kept)
	Best   bool // the best overall, when the system cannot run it
}

// FrontTable is the Pareto front best first, by the answer's rule, one row
// a class of configs with the same outcomes everywhere, the classes the
// system runs as it is first (the others after them, marked "needs a
// change"): the first rows of it (all when rows is 0), with the answer's
// and the best overall's rows wherever they rank (the rule's choice ranked
// among them when the front does not hold it), then the current setting.
// It gives how many rows it ranks.
func (r *Result) FrontTable(rows int) (out []FrontRow, ranks int) {
	// Now's class, on the front or not, is the row "now".
	ranked := slices.DeleteFunc(slices.Clone(r.Front), func(i int) bool { return r.Configs[i].Class < 0 })
	for _, ch := range r.choices() {
		if ch.Config >= 0 && !slices.Contains(ranked, r.Configs[ch.Config].Class) {
			ranked = append(ranked, r.Configs[ch.Config].Class)
		}
	}
	slices.SortStableFunc(ranked, func(a, b int) int {
		if ra, rb := r.classRuns(a), r.classRuns(b); ra != rb {
			return cmp.Compare(b2i(rb), b2i(ra))
		}
		return r.rankOrder(r.Configs[b].Tally, r.Configs[a].Tally, r.Current.Tally, r.N)
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
	c, members := r.Current, r.NowClass
	if i >= 0 {
		c, members = &r.Configs[i], r.ClassOf(i)
	}
	a, o := r.Answer, r.BestOverall
	var notes []string
	switch {
	case a == nil:
	case i < 0 && a.Verdict == Keep:
		row.Answer = true
		notes = append(notes, "answer: keep")
	case i < 0 && a.Verdict == NoClearWinner:
		row.Answer = true
		notes = append(notes, "answer: keep until a winner is clear")
	case i < 0:
	case r.Configs[i].Class == classOf(r, a.Config) && a.Verdict == Ship:
		row.Answer = true
		notes = append(notes, "answer")
	case r.Configs[i].Class == classOf(r, a.Config):
		notes = append(notes, "leads")
	case o != nil && r.Configs[i].Class == classOf(r, o.Config):
		row.Best = true
		notes = append(notes, "best overall")
	}
	if i >= 0 && !r.Configs[i].Pareto {
		notes = append(notes, "not on the front")
	}
	if i >= 0 && !r.classRuns(i) {
		notes = append(notes, "needs a change")
	}
	if r.CensoredShare(c) > r.MaxCensored {
		notes = append(notes, "over "+pct(r.MaxCensored)+" censored")
	}
	name := c.Policy.String()
	if i < 0 {
		members = slices.DeleteFunc(slices.Clone(members), func(k int) bool { return r.Configs[k].Policy == r.Current.Policy })
		if len(members) > 0 {
			name += " = " + r.members(members)
		}
	} else if len(members) > 1 {
		name = r.members(members)
	}
	row.Cells = []string{label, name, fmt.Sprintf("%d (%s)", c.TurnsSaved, pct(r.SavedShare(c)))}
	if r.Tokens {
		row.Cells = append(row.Cells, strconv.FormatInt(c.TokensSaved, 10))
	}
	if d := r.Dollars[c.Policy]; r.Dollars != nil {
		row.Cells = append(row.Cells, metrics.Dollars.Format(d.Saved))
		if d.CI != nil {
			row.Cells[len(row.Cells)-1] += fmt.Sprintf(" (%s … %s)", metrics.Dollars.Format(d.CI[0]), metrics.Dollars.Format(d.CI[1]))
		}
	}
	row.Cells = append(row.Cells, falseCell(c, r.N), c.ScoreForgone.String(),
		fmt.Sprintf("%d (%s)", c.Censored, pct(r.CensoredShare(c))), strings.Join(notes, "; "))
	return row
}

// falseCell is a config's false terminations, low to high bound: "7–25
// (9.3–33.3%)", or one figure when they are equal.
func falseCell(c *Config, n int) string {
	lo, hi := c.FalseTerminations, c.Unjudged()
	if lo == hi {
		return fmt.Sprintf("%d (%s)", hi, pct(share(hi, n)))
	}
	return fmt.Sprintf("%d–%d (%s–%s)", lo, hi, strconv.FormatFloat(100*share(lo, n), 'f', 1, 64), pct(share(hi, n)))
}

// FrontTitle heads the front table of shown rows (now aside) of the ranks.
func (r *Result) FrontTitle(shown, ranks int) string {
	s := fmt.Sprintf("Pareto front, best first: %d of the %d outcomes of %s (configs with the same outcome on every episode share a row)",
		len(r.Front), len(r.outcomes()), textout.Count(len(r.Configs), "config"))
	if shown < ranks {
		s += fmt.Sprintf(", the first %d shown (--top N, --all for more)", shown)
	}
	return s
}

// FrontLegend says what the front is and what its notes mean.
func (r *Result) FrontLegend() string {
	return fmt.Sprintf("On the front: no other config saves more %s with no more false terminations (high bound) and no more score forgone. "+
		"A = B: configs with the same outcome on every episode, one row, the first the nearest to now. False terminations: "+
		"premature stops to those and every unknown stop and censored outcome (the log cut too soon to judge). needs a change: %s "+
		"cannot run it as it is (listed after those it runs). over %s censored: the log is cut (the recording's own stop, a kill) "+
		"before the config would stop in so many episodes that its lengths are lower bounds; never shipped.", r.rank(), r.System.Name, pct(r.MaxCensored))
}

// episodes is "1 episode", "75 episodes".
func episodes(n int) string { return textout.Count(n, "episode") }
