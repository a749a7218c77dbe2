package sweep

import (
	"fmt"
	"slices"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/stats"
	"github.com/lbanalyze/lbanalyze/policy"
)

// The cap at the 75th percentile of the runs' steps, as arXiv 2510.16786 chose
// its cap, beside the answer over runs judged by their result
// (docs/commands.md, "sweep: which setting to ship").

// quartileSteps is the 75th percentile of the episodes' steps, by nearest
// rank; 0 for none.
func quartileSteps(eps []*episode.Episode) int {
	if len(eps) == 0 {
		return 0
	}
	n := make([]int, len(eps))
	for i, ep := range eps {
		n[i] = ep.N()
	}
	slices.Sort(n)
	return n[(3*len(n)+3)/4-1]
}

// quartileCap is the cap at the 75th percentile of steps and its index in
// the configs (-1 when the grid lacks it); ok false when the runs are not
// judged by their result.
func (r *Result) quartileCap() (p policy.Policy, i int, ok bool) {
	if !r.Results || r.Quartile < 1 {
		return p, -1, false
	}
	p, _ = policy.Parse(fmt.Sprintf("steps:max=%d", r.Quartile), nil)
	return p, slices.IndexFunc(r.Configs, func(c Config) bool { return c.Policy == p }), true
}

// quartileLine is the answer's line for the cap at the 75th percentile of
// steps, where every run is judged by its result: the solves it loses, the
// runs it stops before a solve with their Wilson interval, the turns it
// saves; or, when the grid lacks it, how to add it.
func (r *Result) quartileLine() []Line {
	p, i, ok := r.quartileCap()
	if !ok {
		return nil
	}
	label := "p75 cap"
	if i < 0 {
		return []Line{{label, fmt.Sprintf("%s, the 75th percentile of these runs' steps, is not in the grid: add %d to --max-steps to see it", p, r.Quartile)}}
	}
	c := &r.Configs[i]
	lo, hi := stats.Wilson(c.FalseTerminations, r.N)
	text := fmt.Sprintf("%s, the 75th percentile of these runs' steps: %s solves lost, %d of %d runs stopped before their solve (%s, 95%% CI %s … %s), turns saved %s",
		p, c.ScoreForgone, c.FalseTerminations, r.N, pct(float64(c.FalseTerminations)/float64(r.N)), pct(lo), pct(hi), pct(r.SavedShare(c)))
	return []Line{{label, text + r.dollarsSaved(c.Policy, false)}}
}

// quartileJSON is the answer's p75_cap: the cap, its index in configs (null
// when the grid lacks it), and then the figures of quartileLine: solves lost
// (score_forgone), runs stopped before their solve (false_terminations) with
// their Wilson interval in %, turns and dollars saved.
type quartileJSON struct {
	Config    string       `json:"config"`
	MaxSteps  int          `json:"max_steps"`
	Index     *int         `json:"index"`
	Figures   *figuresJSON `json:"figures"`
	StoppedCI *[2]float64  `json:"false_terminations_pct_ci95"`
}

func (r *Result) quartileJSON() *quartileJSON {
	p, i, ok := r.quartileCap()
	if !ok {
		return nil
	}
	j := &quartileJSON{Config: p.String(), MaxSteps: r.Quartile, Index: index(i)}
	if i >= 0 {
		c := &r.Configs[i]
		f := r.figuresJSON(c)
		lo, hi := stats.Wilson(c.FalseTerminations, r.N)
		j.Figures, j.StoppedCI = &f, &[2]float64{pct6(lo), pct6(hi)}
	}
	return j
}
