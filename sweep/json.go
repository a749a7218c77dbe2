package sweep

import (
	"encoding/json"
	"io"
	"slices"

	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/report"
)

// recommendedJSON is the recommendation as the JSON format gives it.
type recommendedJSON struct {
	Config     int                   `json:"config"`
	Policy     string                `json:"policy"`
	TOML       *string               `json:"toml"`
	Change     *string               `json:"needs_change"`
	CI95       map[string][2]float64 `json:"ci95"`
	Stability  float64               `json:"stability"`
	Rivals     []Rival               `json:"rivals"`
	Candidates int                   `json:"candidates"`
	CV         cvJSON                `json:"cv"`
	Versus     []report.MetricJSON   `json:"versus_current"`
}

type cvJSON struct {
	Folds                 int        `json:"folds"`
	HeldOutFalseRate      float64    `json:"held_out_false_termination_rate"`
	HeldOutFalseRateCI    [2]float64 `json:"held_out_false_termination_rate_ci95"`
	HeldOutTurnsSavedPct  float64    `json:"held_out_turns_saved_pct"`
	InSampleFalseRate     float64    `json:"in_sample_false_termination_rate"`
	InSampleTurnsSavedPct float64    `json:"in_sample_turns_saved_pct"`
	FoldsAgreeing         int        `json:"folds_agreeing"`
	FoldsUndecided        int        `json:"folds_undecided"`
}

func r6(v float64) float64 { return *report.Round6(v) }

// pct6 is a share in percent, rounded to 6 decimals, as batch gives rates.
func pct6(v float64) float64 { return r6(100 * v) }

func pctPair(p [2]float64) [2]float64 { return [2]float64{pct6(p[0]), pct6(p[1])} }

// writeJSON writes {"n", "grid", "configs", "front", "current",
// "recommended", "best_runnable"}, one config at a time.
func (r *Result) writeJSON(w io.Writer) error {
	cols := r.columns()
	put := func(s string) { io.WriteString(w, s) }
	enc := func(v any) error {
		b, err := json.Marshal(v)
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
	enc(map[string]float64{"max_false_termination_rate": pct6(r.MaxFalseRate), "max_censored_share": r6(r.MaxCensored)})
	put(`, "grid": `)
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
	put(",\n\"current\": ")
	if err := r.writeRow(w, cols, r.Current); err != nil {
		return err
	}
	put(",\n\"recommended\": ")
	enc(r.recommendedJSON())
	put(",\n\"best_runnable\": ")
	if r.BestRunnable >= 0 {
		enc(r.BestRunnable)
	} else {
		put("null")
	}
	put("}\n")
	return nil
}

// writeRow writes one config as an object with keys in the order of columns.
func (r *Result) writeRow(w io.Writer, cols []string, c *Config) error {
	io.WriteString(w, "{")
	for k, v := range r.values(c) {
		if k > 0 {
			io.WriteString(w, ", ")
		}
		key, _ := json.Marshal(cols[k])
		w.Write(key)
		io.WriteString(w, ": ")
		b, err := json.Marshal(v)
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
	for _, d := range policy.Dimensions() {
		var vals []int
		for _, c := range r.Configs {
			if d.Has(c.Policy.Name) {
				if v := d.Get(&c.Policy.Params); !slices.Contains(vals, v) {
					vals = append(vals, v)
				}
			}
		}
		if vals != nil {
			slices.Sort(vals)
			g[d.Key] = vals
			if d.Scale > 1 { // in users' units: min_critic 0.5
				shown := make([]any, len(vals))
				for i, v := range vals {
					shown[i] = d.Value(v)
				}
				g[d.Key] = shown
			}
		}
	}
	return g
}

func (r *Result) recommendedJSON() *recommendedJSON {
	rec := r.Recommended
	if rec == nil {
		return nil
	}
	c := &r.Configs[rec.Config]
	j := &recommendedJSON{Config: rec.Config, Policy: c.Policy.String(), Stability: r6(rec.Stability), Rivals: []Rival{},
		Candidates: rec.Candidates,
		CI95:       map[string][2]float64{"false_termination_rate": pctPair(rec.FalseRateCI), "turns_saved_pct": pctPair(rec.SavedShareCI)},
		CV: cvJSON{Folds: rec.CV.Folds, HeldOutFalseRate: pct6(rec.CV.HeldOutFalseRate), HeldOutFalseRateCI: pctPair(rec.CV.HeldOutFalseCI),
			HeldOutTurnsSavedPct: pct6(rec.CV.HeldOutSavedShare), InSampleFalseRate: pct6(r.FalseRate(c)),
			InSampleTurnsSavedPct: pct6(r.SavedShare(c)), FoldsAgreeing: rec.CV.Agree, FoldsUndecided: rec.CV.Undecided}}
	for _, rv := range rec.Rivals {
		j.Rivals = append(j.Rivals, Rival{rv.Config, r6(rv.Share)})
	}
	if rec.TOML != "" {
		j.TOML = &rec.TOML
	} else {
		j.Change = &rec.Change
	}
	for i := range rec.Versus {
		j.Versus = append(j.Versus, rec.Versus[i].JSON())
	}
	return j
}
