package policy

import "github.com/lbanalyze/lbanalyze/episode"

// A cap stops a run once it has spent its allowance, checked after each step
// as mini-swe-agent checks its step_limit, cost_limit and
// wall_time_limit_seconds before each model call (docs/policies.md, "Caps"):
// after step t, the run stops when what it has spent through t (steps,
// tokens, dollars, seconds since it began) has reached max, unless t is the
// last step of a run that ended there by itself, which asks for no more. A
// cap at its default, 0, is off: it never stops.

// capped is a cap's tracker: spent says what the run has spent through a
// step, given what it had spent before.
type capped struct {
	max   float64
	spent func(before float64, o Observation) float64
	total float64
}

// newCap is the tracker of a cap whose setting is s, reading spent; a
// setting kept in steps of 1/Scale is read in its units.
func newCap(s *Setting, spent func(float64, Observation) float64) func(Policy) Tracker {
	return func(p Policy) Tracker {
		m := float64(p.Get(s))
		if s.Scale > 1 {
			m /= float64(s.Scale)
		}
		return &capped{max: m, spent: spent}
	}
}

func (c *capped) Step(t int, o Observation) Step {
	c.total = c.spent(c.total, o)
	st := Step{Turn: t, TurnsStuck: t, Checked: true}
	st.Terminate = c.max > 0 && c.total >= c.max-capResolution && !o.Last
	return st
}

// capResolution is the finest difference a cap compares: sums of dollars
// of a few decimals (0.01 + 0.02 + 0.03 + 0.04) reach their cap (0.1) in
// the last bits or not at all.
const capResolution = 1e-9

// capSetting is a cap's max: off (0) by default, at least 1 (in steps of
// 1/scale) when on, needing the signal it counts.
func capSetting(flag, usage string, scale int, needs episode.Signal) *Setting {
	return &Setting{Key: "max", Flag: flag, Label: "max", Usage: usage, Min: 1, Scale: scale,
		Special: []Special{{0, off}}, Needs: needs}
}
