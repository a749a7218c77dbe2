package policy

import "github.com/lbanalyze/lbanalyze/episode"

// Cost caps the dollars a run spends, as its log records them per step:
// mini-swe-agent's cost_limit, Inspect's cost_limit.
const Cost Name = "cost"

// MaxCost is the dollars a run may spend, to the ten-thousandth.
var MaxCost = capSetting("max-cost", "max DOLLARS (cost): the run may spend these dollars, as its log records them per step; 0 off", 10000, episode.Costs)

func init() {
	register(Kind{Name: Cost, New: newCap(MaxCost, func(before float64, o Observation) float64 { return before + o.Cost }),
		Variant: true, Settings: []*Setting{MaxCost},
		Description: "a cost cap: the run stops after the step at which the dollars it has spent, as recorded, reach max"})
}
