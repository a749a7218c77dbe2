package policy

// OwnCap is the cap a run ran under, as it ran: a harness's own default
// whose value its logs need not give (Terminal-Bench's agent timeout, each
// task's max_agent_timeout_sec), replayed where the log says it fired, so
// that the setting a harness runs today judges the runs its cap ended by
// their result rather than as censored (docs/semantics.md, "6.4 Runs judged
// by their result").
const OwnCap Name = "own-cap"

func init() {
	register(Kind{Name: OwnCap, New: func(Policy) Tracker { return ownCap{} }, Variant: true, Clock: true,
		Description: "the run's own cap, as it ran: stop at the last step of a log that its cap ended (end_reason cap), whatever the cap's value; never elsewhere"})
}

type ownCap struct{}

func (ownCap) Step(t int, o Observation) Step {
	return Step{Turn: t, Anchor: t, Checked: true, Terminate: o.Capped}
}
