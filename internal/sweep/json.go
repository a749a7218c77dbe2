package sweep

import (
	"io"
	"math"
	"slices"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/metrics"
	"github.com/lbanalyze/lbanalyze/internal/textout"
	"github.com/lbanalyze/lbanalyze/policy"
)

// figuresJSON are a config's figures over the n episodes, rates in %:
// false_termination_rate is the high bound (every outcome the logs cannot
// show fine), as configs[i].false_termination_rate.
type figuresJSON struct {
	N                 int           `json:"n"`
	FalseTerminations int           `json:"false_terminations"` // premature stops
	Unknown           int           `json:"unknown_stops"`
	FalseRate         float64       `json:"false_termination_rate"`
	FalseRateLow      float64       `json:"false_termination_rate_low"`
	TurnsSaved        int           `json:"turns_saved"`
	TurnsSavedPct     float64       `json:"turns_saved_pct"`
	ScoreForgone      episode.Score `json:"score_forgone"`
	Censored          int           `json:"censored"`
	CensoredPct       float64       `json:"censored_pct"`
	TokensSaved       *int64        `json:"tokens_saved,omitempty"` // where some log records tokens
	CostSaved         *float64      `json:"cost_saved,omitempty"`   // in dollars, when priced
}

type cvJSON struct {
	Folds                  int         `json:"folds"`
	HeldOutFalseRate       float64     `json:"held_out_false_termination_rate"` // the high bound
	HeldOutFalseRateCI     [2]float64  `json:"held_out_false_termination_rate_ci95"`
	HeldOutFalseRateLow    float64     `json:"held_out_false_termination_rate_low"`
	HeldOutTurnsSavedPct   float64     `json:"held_out_turns_saved_pct"`
	HeldOutTurnsSavedPctCI *[2]float64 `json:"held_out_turns_saved_pct_ci95"` // the answer's, when it compares a change with now
	FoldsAgreeing          int         `json:"folds_agreeing"`
	HeldOutTokensSaved     *int64      `json:"held_out_tokens_saved,omitempty"` // when ranked by tokens
}

type rivalJSON struct {
	Config string  `json:"config"`
	Index  *int    `json:"index"` // null: now, outside the grid's classes
	Share  float64 `json:"share"`
}

// choiceJSON is what is known of a config a rule chose: its figures and how
// far to trust them.
type choiceJSON struct {
	MeetsTargets bool                  `json:"meets_targets"`
	Figures      figuresJSON           `json:"figures"`
	CI95         map[string][2]float64 `json:"ci95"`
	CV           cvJSON                `json:"cv"`
	Stability    float64               `json:"stability"`
	Rivals       []rivalJSON           `json:"rivals"`
	Candidates   int                   `json:"candidates"`
	ClassSize    int                   `json:"class_size"` // configs of the grid with the same outcome on every episode
}

// answerJSON is the answer: its verdict, the config to run (the current one
// when kept; null without a clear winner) with its figures and intervals
// (now's unless shipped: without a clear winner, now runs until one is
// shown better); cv, stability and rivals are those of the rule's choice,
// chosen.
type answerJSON struct {
	Verdict     string  `json:"verdict"` // ship, keep, no_clear_winner
	Config      *string `json:"config"`  // a policy as tables write it; null: no clear winner
	Index       *int    `json:"index"`   // into configs; null for a current setting outside the grid, or no clear winner
	KeepCurrent bool    `json:"keep_current"`
	Why         *string `json:"why"`
	Block       *string `json:"block"` // to paste, in Lang
	Lang        string  `json:"lang"`
	File        string  `json:"file"`
	Note        *string `json:"note"`
	choiceJSON
	Chosen      string  `json:"chosen"`
	ChosenIndex *int    `json:"chosen_index"`
	FTMargin    float64 `json:"ft_margin"` // percentage points
	// Versus is the named config's (chosen's) own comparison with now on
	// all n episodes; HeldOut the rule's, each episode under the config
	// chosen without it (null with --folds 0); decided_on which the
	// verdict was taken on: held_out or versus_current.
	Versus    []metrics.JSON `json:"versus_current"`
	HeldOut   []metrics.JSON `json:"held_out"`
	DecidedOn *string        `json:"decided_on"`
	// Direction: saves_more, or safer (fewer false terminations at a cost).
	Direction *string        `json:"direction"`
	Settle    *settleJSON    `json:"episodes_to_settle"`
	BreakEven *breakEvenJSON `json:"break_even"`
	Limits    *limitsJSON    `json:"limits"`
	// P75Cap: over runs judged by their result, the cap at the 75th
	// percentile of steps, or of durations where steps cannot be replayed
	// (quartileJSON); absent otherwise.
	P75Cap *quartileJSON `json:"p75_cap,omitempty"`
}

// settleJSON is how many episodes in all would settle the comparison the
// verdict was taken on: low at the favourable ends of the intervals of its
// difference and discordance, high at both as observed (null: no upper
// estimate), each at least the count that would show a saving within
// chance, at its interval's upper bound and as observed (Settle);
// from which pairs (held_out or versus_current) and their discordant
// episodes; reached when low is no more than n, the count then not what
// blocks the verdict (Settle.Reached).
type settleJSON struct {
	Low        int    `json:"low"`
	High       *int   `json:"high"`
	From       string `json:"from"`
	Discordant [2]int `json:"discordant"`
	Reached    bool   `json:"reached"`
}

// breakEvenJSON is the exchange rate at which the named change breaks even
// (BreakEven): per episode stopped before a later gain; rate null for any
// rate (+Inf). ship_if says which side of it ships: value_below (a change
// that saves more) or value_above (a safer one).
type breakEvenJSON struct {
	Rate     *float64 `json:"rate"`
	Unit     string   `json:"unit"`
	Dollars  *float64 `json:"dollars"`
	ShipIf   string   `json:"ship_if"`
	Saved    float64  `json:"saved_bound"`
	Episodes float64  `json:"episodes_bound"`
}

type overallJSON struct {
	Config string `json:"config"`
	Index  int    `json:"index"`
	Change string `json:"needs_change"`
	choiceJSON
	Over []metrics.JSON `json:"over_answer"`
}

// limitsJSON says which target binds when no config the system runs meets
// both: "censoring" when some meet the false-termination target but are all
// censored beyond the limit, else "false_termination_rate".
type limitsJSON struct {
	Binds         string     `json:"binds"` // none (some config meets both), censoring, false_termination_rate
	MeetsBoth     *limitJSON `json:"meets_both"`
	LowestFalse   *limitJSON `json:"lowest_false_termination_rate"`
	LeastCensored *limitJSON `json:"least_censored"`
}

type limitJSON struct {
	Config string  `json:"config"`
	Index  int     `json:"index"`
	Value  float64 `json:"value"` // in %
	Over   float64 `json:"over"`  // percentage points beyond the target
}

func r6(v float64) float64 { return *metrics.Round6(v) }

// pct6 is a share in percent, rounded to 6 decimals, as batch gives rates.
func pct6(v float64) float64 { return r6(100 * v) }

func pctPair(p [2]float64) [2]float64 { return [2]float64{pct6(p[0]), pct6(p[1])} }

// writeJSON writes {"n", "logged_turns", "calls_per_turn", "targets",
// "system", "rank", "answer", "best_overall", "no_answer", "current", "grid",
// "configs", "front"}, one config at a time.
func (r *Result) writeJSON(w io.Writer) error {
	cols := r.figureColumns()
	put := func(s string) { io.WriteString(w, s) }
	enc := func(v any) error {
		b, err := textout.JSON(v)
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	}
	put(`{"n": `)
	enc(r.N)
	put(`, "logged_turns": `)
	enc(r.TotalTurns)
	put(`, "calls_per_turn": `)
	enc(r.CallsPerTurn)
	put(`, "targets": `)
	enc(map[string]float64{"max_false_termination_rate": pct6(r.MaxFalseRate), "max_censored_pct": pct6(r.MaxCensored), "ft_margin": pct6(r.FTMargin)})
	put(`, "system": `)
	enc(r.System.Name)
	put(`, "rank": `)
	enc(r.rank())
	put(`, "gain_horizon": `)
	if r.GainHorizon > 0 {
		enc(r.GainHorizon)
	} else {
		put("null")
	}
	// The answer first, as in every format; its indices point into configs.
	put(",\n\"answer\": ")
	enc(r.answerJSON())
	put(",\n\"best_overall\": ")
	enc(r.overallJSON())
	put(",\n\"no_answer\": ")
	enc(nilIfEmpty(r.NoAnswer))
	put(",\n\"current\": ")
	if err := r.writeRow(w, cols, r.Current); err != nil {
		return err
	}
	put(",\n\"grid\": ")
	enc(r.grid())
	put(",\n\"configs\": [\n")
	for i := range r.Configs {
		if i > 0 {
			put(",\n")
		}
		if err := r.writeRow(w, cols, &r.Configs[i]); err != nil {
			return err
		}
	}
	put("\n],\n\"front\": ")
	enc(append([]int{}, r.Front...))
	put("}\n")
	return nil
}

// writeRow writes one config as an object: its policy, its settings
// (policy.Written), then its figures with keys cols (figureColumns).
func (r *Result) writeRow(w io.Writer, cols []string, c *Config) error {
	name, _ := textout.JSON(string(c.Policy.Name))
	settings, _ := c.Policy.Written().MarshalJSON()
	io.WriteString(w, `{"policy": `)
	w.Write(name)
	io.WriteString(w, `, "settings": `)
	w.Write(settings)
	for k, v := range r.figureValues(c) {
		io.WriteString(w, ", ")
		key, _ := textout.JSON(cols[k])
		w.Write(key)
		io.WriteString(w, ": ")
		b, err := textout.JSON(v)
		if err != nil {
			return err
		}
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	_, err := io.WriteString(w, "}")
	return err
}

// grid lists the values swept: the policies, and every parameter's values.
func (r *Result) grid() map[string]any {
	g := map[string]any{}
	var names []string
	for _, c := range r.Configs {
		if !slices.Contains(names, string(c.Policy.Name)) {
			names = append(names, string(c.Policy.Name))
		}
	}
	g["policy"] = names
	for _, s := range policy.Settings() {
		var vals []int
		for _, c := range r.Configs {
			if c.Policy.Has(s) {
				if v := c.Policy.Get(s); !slices.Contains(vals, v) {
					vals = append(vals, v)
				}
			}
		}
		if vals != nil {
			slices.Sort(vals)
			shown := make([]any, len(vals)) // as the rows show them: min_critic 0.5, score_mode "increase"
			for i, v := range vals {
				shown[i] = s.Value(v)
			}
			g[s.Key] = shown
		}
	}
	return g
}

func nilIfEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func (r *Result) figuresJSON(c *Config) figuresJSON {
	j := figuresJSON{N: r.N, FalseTerminations: c.FalseTerminations, Unknown: c.Unknown, FalseRate: pct6(r.FalseRate(c)),
		FalseRateLow: pct6(r.FalseRateLow(c)), TurnsSaved: c.TurnsSaved,
		TurnsSavedPct: pct6(r.SavedShare(c)), ScoreForgone: c.ScoreForgone, Censored: c.Censored, CensoredPct: pct6(r.CensoredShare(c))}
	if r.Tokens {
		j.TokensSaved = &c.TokensSaved
	}
	if d, ok := r.Dollars[c.Policy]; ok {
		j.CostSaved = metrics.Round6(d.Saved)
	}
	return j
}

// choiceJSON describes config c with figures f, and the rule's choice ch.
func (r *Result) choiceJSON(c *Config, f *Figures, ch *Choice) choiceJSON {
	j := choiceJSON{MeetsTargets: r.withinFalse(c.Tally, r.N) && r.withinCensored(c.Tally, r.N), Figures: r.figuresJSON(c),
		CI95:      map[string][2]float64{"false_termination_rate": pctPair(f.FalseRateCI)},
		Stability: r6(ch.Stability), Rivals: []rivalJSON{}, ClassSize: len(r.ClassOf(ch.Config)),
		CV: cvJSON{Folds: ch.CV.Folds, HeldOutFalseRate: pct6(ch.CV.HeldOutFalseRate), HeldOutFalseRateCI: pctPair(ch.CV.HeldOutFalseCI),
			HeldOutFalseRateLow: pct6(ch.CV.HeldOutFalseRateLow), HeldOutTurnsSavedPct: pct6(ch.CV.HeldOutSavedShare),
			FoldsAgreeing: ch.CV.Agree}}
	if ci := ch.CV.HeldOutSavedCI; ci != nil {
		j.CV.HeldOutTurnsSavedPctCI = &[2]float64{r6(ci[0]), r6(ci[1])}
	}
	if r.ByTokens {
		j.CV.HeldOutTokensSaved = &ch.CV.HeldOutTokensSaved
	}
	if d, ok := r.Dollars[c.Policy]; ok && d.CI != nil {
		j.CI95["cost_saved"] = [2]float64{*metrics.Round6(d.CI[0]), *metrics.Round6(d.CI[1])}
	}
	for _, rv := range ch.Rivals {
		j.Rivals = append(j.Rivals, rivalJSON{r.name(rv.Config), index(rv.Config), r6(rv.Share)})
	}
	j.Candidates = ch.Candidates
	return j
}

// index is a config's index, null for now (-1).
func index(i int) *int {
	if i < 0 {
		return nil
	}
	return &i
}

func (r *Result) answerJSON() *answerJSON {
	a := r.Answer
	if a == nil {
		return nil
	}
	// The config the answer tells to run: the change shipped, else now
	// (without a clear winner, until one is shown better).
	c, i, f := r.Current, slices.IndexFunc(r.Configs, func(x Config) bool { return x.Policy == r.Current.Policy }), &a.Now
	if a.Verdict == Ship {
		c, i, f = &r.Configs[a.Config], a.Config, &a.In
	}
	j := &answerJSON{Verdict: a.Verdict.String(), choiceJSON: r.choiceJSON(c, f, &a.Choice), KeepCurrent: a.Verdict == Keep, Why: nilIfEmpty(a.Why),
		Chosen: r.name(a.Config), ChosenIndex: index(a.Config), Block: nilIfEmpty(a.Block), Lang: r.System.Lang, File: r.System.File,
		Note: nilIfEmpty(r.System.Note), Versus: metricsJSON(a.Versus), FTMargin: r6(100 * r.FTMargin), P75Cap: r.quartileJSON()}
	if a.Verdict != NoClearWinner {
		name := c.Policy.String()
		j.Config, j.Index = &name, index(i)
	}
	if a.Versus != nil {
		j.HeldOut = metricsJSON(a.HeldOut)
		d, dir := "versus_current", "saves_more"
		if a.HeldOut != nil {
			d = "held_out"
		}
		if a.Safer {
			dir = "safer"
		}
		j.DecidedOn, j.Direction = &d, &dir
	}
	if s := a.Settle; s != nil {
		j.Settle = &settleJSON{Low: s.Low, From: "versus_current", Discordant: [2]int{s.Worse, s.Better}, Reached: s.Reached(r.N)}
		if s.HeldOut {
			j.Settle.From = "held_out"
		}
		if s.High > 0 {
			j.Settle.High = &s.High
		}
	}
	if b := a.BreakEven; b != nil {
		j.BreakEven = &breakEvenJSON{Rate: finite(b.Rate), Unit: r.rank() + " per episode stopped before a later gain",
			ShipIf: map[bool]string{false: "value_below", true: "value_above"}[b.Safer], Saved: r6(b.Saved), Episodes: r6(b.Episodes)}
		if b.Dollars != nil {
			j.BreakEven.Dollars = finite(*b.Dollars)
		}
	}
	if l := a.Limits; l != nil {
		j.Limits = &limitsJSON{Binds: "false_termination_rate"}
		if l.MeetsBoth >= 0 {
			c := &r.Configs[l.MeetsBoth]
			j.Limits.Binds = "none"
			j.Limits.MeetsBoth = &limitJSON{c.Policy.String(), l.MeetsBoth, pct6(r.FalseRate(c)), pct6(r.FalseRate(c) - r.MaxFalseRate)}
		}
		if l.LowestFalse >= 0 {
			c := &r.Configs[l.LowestFalse]
			j.Limits.LowestFalse = &limitJSON{c.Policy.String(), l.LowestFalse, pct6(r.FalseRate(c)), pct6(r.FalseRate(c) - r.MaxFalseRate)}
		}
		if l.LeastCensored >= 0 {
			c := &r.Configs[l.LeastCensored]
			if l.MeetsBoth < 0 {
				j.Limits.Binds = "censoring"
			}
			j.Limits.LeastCensored = &limitJSON{c.Policy.String(), l.LeastCensored, pct6(r.CensoredShare(c)), pct6(r.CensoredShare(c) - r.MaxCensored)}
		}
	}
	return j
}

func (r *Result) overallJSON() *overallJSON {
	o := r.BestOverall
	if o == nil {
		return nil
	}
	c := &r.Configs[o.Config]
	return &overallJSON{Config: c.Policy.String(), Index: o.Config, Change: o.Change, choiceJSON: r.choiceJSON(c, &o.In, &o.Choice),
		Over: metricsJSON(o.Over)}
}

// finite is v rounded, null when infinite.
func finite(v float64) *float64 {
	if math.IsInf(v, 0) {
		return nil
	}
	return metrics.Round6(v)
}

func metricsJSON(ms []metrics.Metric) []metrics.JSON {
	if ms == nil {
		return nil
	}
	out := make([]metrics.JSON, len(ms))
	for i := range ms {
		out[i] = ms[i].JSON()
	}
	return out
}
