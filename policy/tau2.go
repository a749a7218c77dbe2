package policy

import "github.com/lbanalyze/lbanalyze/episode"

// Tau2 is τ²-bench's own limits on a simulation (tau2/orchestrator:
// max_steps, max_errors) (docs/policies.md, "Presets").
const Tau2 Name = "tau2"

func init() {
	registerPreset(Kind{Name: Tau2, Parts: tau2Parts, Needs: episode.Signals(episode.Steps),
		Description: "τ²-bench's own limits: 200 orchestrator steps (max_steps, about 100 of the agent's) or 10 tool errors " +
			"in the simulation (max_errors, counted over the whole run)"})
}

// tau2Parts: tau2 run's default --max-steps 200, counting the user's and
// the tools' steps too (about one each an agent step), and --max-errors 10,
// every error counted (num_errors is never reset): errors in the whole run.
func tau2Parts(Policy) []Policy {
	return []Policy{
		Policy{Name: Steps}.With(MaxSteps, 200/2),
		Policy{Name: Errored}.With(Times, 10).With(Within, wholeRun),
	}
}
