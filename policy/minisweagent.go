package policy

import "github.com/lbanalyze/lbanalyze/episode"

// MiniSweAgent is mini-swe-agent's limits as its SWE-bench configuration
// sets them (docs/policies.md, "Presets").
const MiniSweAgent Name = "mini-swe-agent"

func init() {
	registerPreset(Kind{Name: MiniSweAgent, Parts: miniSweAgentParts, Needs: episode.Signals(episode.Steps),
		Description: "mini-swe-agent's limits in its SWE-bench configuration (config/benchmarks/swebench.yaml): 250 steps (step_limit) or $3 (cost_limit)"})
}

// miniSweAgentParts: step_limit 250 and cost_limit 3, checked before each
// model call (DefaultAgent.query), as the caps check them.
func miniSweAgentParts(Policy) []Policy {
	return []Policy{
		Policy{Name: Steps}.With(MaxSteps, 250),
		Policy{Name: Cost}.With(MaxCost, 3*MaxCost.Scale),
	}
}
