package policy

import "github.com/lbanalyze/lbanalyze/episode"

// OpenClaw is OpenClaw's tool-loop detection (src/agents/
// tool-loop-detection.ts), off by default there (docs/policies.md,
// "Presets").
const OpenClaw Name = "openclaw"

func init() {
	registerPreset(Kind{Name: OpenClaw, Parts: openClawParts,
		Needs: episode.Signals(0).With(episode.Actions, episode.Responses), // both its rules compare outcomes
		Description: "OpenClaw's tool-loop detection: block once 20 of the last 30 calls were one call with one outcome (criticalThreshold, historySize), " +
			"or 20 calls alternated between two with stable outcomes; its warnings at 10 are not stops"})
}

// openClawParts: the generic and ping-pong detectors at their critical
// threshold; the global circuit breaker (30) never fires before them.
func openClawParts(Policy) []Policy {
	return []Policy{
		Policy{Name: RepeatObserved}.With(Times, 20).With(Within, 30),
		Policy{Name: Alternate}.With(Times, 20),
	}
}
