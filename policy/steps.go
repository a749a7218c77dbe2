package policy

// Steps caps a run's steps: mini-swe-agent's step_limit, tau2's --max-steps,
// OpenHands' max_iterations.
const Steps Name = "steps"

// MaxSteps is the steps a run may take.
var MaxSteps = capSetting("max-steps", "max N (steps): the run may take N steps; 0 off", 0, 0)

func init() {
	register(Kind{Name: Steps, New: newCap(MaxSteps, func(before float64, _ Observation) float64 { return before + 1 }),
		Variant: true, Settings: []*Setting{MaxSteps},
		Description: "a step cap: the run may take max steps, and stops at step max when it has more"})
}
