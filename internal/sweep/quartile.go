package sweep

import (
	"fmt"
	"math"
	"slices"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/stats"
	"github.com/lbanalyze/lbanalyze/policy"
)

// The cap at the 75th percentile of the runs' steps, as arXiv 2510.16786 chose
// its cap, beside the answer over runs judged by their result
// (docs/commands.md, "sweep: which setting to ship"). Where the runs' steps
// cannot be replayed (a Terminal-Bench trial is ticks of its agent's time:
// docs/sources.md, "Terminal-Bench"), it is the cap at the 75th percentile
// of their durations, a time cap.

// quartileUnit is what a 75th-percentile cap counts: the cap's setting, the
// policy that has it, the runs' lengths in its units, and how the line
// names them.
type quartileUnit struct {
	max    *policy.Setting
	policy policy.Name
	length func(*episode.Episode) float64
	of     string
}

var (
	quartileSteps = quartileUnit{policy.MaxSteps, policy.Steps, func(ep *episode.Episode) float64 { return float64(ep.N()) }, "steps"}
	// A run's duration is the end of its last step, in whole seconds
	// rounded up, so that the cap stops no run as long as the percentile's.
	quartileSeconds = quartileUnit{policy.MaxSeconds, policy.Time, func(ep *episode.Episode) float64 {
		if ep.N() == 0 {
			return 0
		}
		return math.Ceil(ep.Turns[ep.N()-1].Elapsed)
	}, "durations in seconds"}
)

// quartileOf is the unit of the episodes' 75th-percentile cap: steps where
// every one's steps replay, else seconds where every one is timed; false
// when neither.
func quartileOf(eps []*episode.Episode) (quartileUnit, bool) {
	lacks := func(s episode.Signal) bool {
		return slices.ContainsFunc(eps, func(ep *episode.Episode) bool { return !ep.Have().Has(s) })
	}
	switch {
	case !lacks(episode.Steps):
		return quartileSteps, true
	case !lacks(episode.Times):
		return quartileSeconds, true
	}
	return quartileUnit{}, false
}

// quartile is the 75th percentile of the episodes' lengths in unit u, by
// nearest rank; 0 for none.
func (u quartileUnit) quartile(eps []*episode.Episode) int {
	if len(eps) == 0 {
		return 0
	}
	n := make([]float64, len(eps))
	for i, ep := range eps {
		n[i] = u.length(ep)
	}
	slices.Sort(n)
	return int(n[(3*len(n)+3)/4-1])
}

// quartileCap is the cap at the 75th percentile and its index in the
// configs (-1 when the grid lacks it); ok false when the runs are not
// judged by their result, or their lengths cannot be replayed.
func (r *Result) quartileCap() (p policy.Policy, i int, ok bool) {
	if !r.Results || r.Quartile < 1 || r.QuartileUnit.max == nil {
		return p, -1, false
	}
	p = policy.New(r.QuartileUnit.policy, nil).With(r.QuartileUnit.max, r.Quartile)
	return p, slices.IndexFunc(r.Configs, func(c Config) bool { return c.Policy == p }), true
}

// quartileLine is the answer's line for the cap at the 75th percentile,
// where every run is judged by its result: the solves it loses, the runs it
// stops before a solve with their Wilson interval, the turns it saves; or,
// when the grid lacks it, how to add it.
func (r *Result) quartileLine() []Line {
	p, i, ok := r.quartileCap()
	if !ok {
		return nil
	}
	label := "p75 cap"
	if i < 0 {
		return []Line{{label, fmt.Sprintf("%s, the 75th percentile of these runs' %s, is not in the grid: add %d to --%s to see it",
			p, r.QuartileUnit.of, r.Quartile, r.QuartileUnit.max.Flag)}}
	}
	c := &r.Configs[i]
	lo, hi := stats.Wilson(c.FalseTerminations, r.N)
	text := fmt.Sprintf("%s, the 75th percentile of these runs' %s: %s solves lost, %d of %d runs stopped before their solve (%s, 95%% CI %s … %s), turns saved %s",
		p, r.QuartileUnit.of, c.ScoreForgone, c.FalseTerminations, r.N, pct(float64(c.FalseTerminations)/float64(r.N)), pct(lo), pct(hi), pct(r.SavedShare(c)))
	return []Line{{label, text + r.dollarsSaved(c.Policy, false)}}
}

// quartileJSON is the answer's p75_cap: the cap, as max_steps for a step
// cap or max_seconds for a time cap (the other null), its index in configs
// (null when the grid lacks it), and then the figures of quartileLine:
// solves lost (score_forgone), runs stopped before their solve
// (false_terminations) with their Wilson interval in %, turns and dollars
// saved.
type quartileJSON struct {
	Config     string       `json:"config"`
	MaxSteps   *int         `json:"max_steps"`
	MaxSeconds *int         `json:"max_seconds"`
	Index      *int         `json:"index"`
	Figures    *figuresJSON `json:"figures"`
	StoppedCI  *[2]float64  `json:"false_terminations_pct_ci95"`
}

func (r *Result) quartileJSON() *quartileJSON {
	p, i, ok := r.quartileCap()
	if !ok {
		return nil
	}
	j := &quartileJSON{Config: p.String(), Index: index(i)}
	if r.QuartileUnit.max == policy.MaxSteps {
		j.MaxSteps = &r.Quartile
	} else {
		j.MaxSeconds = &r.Quartile
	}
	if i >= 0 {
		c := &r.Configs[i]
		f := r.figuresJSON(c)
		lo, hi := stats.Wilson(c.FalseTerminations, r.N)
		j.Figures, j.StoppedCI = &f, &[2]float64{pct6(lo), pct6(hi)}
	}
	return j
}
