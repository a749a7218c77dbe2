package policy

// window is the rule as the specification and loop_break.md describe it
// (docs/semantics.md, "6.1 Policies"): stop at the first check turn T with
// T − max(last score change, last objective completion) ≥ W. Score changes are
// tracked exactly as by the shipped score policy; an objective anchors at its
// own turn c, not c+1 as the shipped code has it.
type window struct {
	score   shipped // score-only tracking
	lastObj int
}

func newWindow(p Policy) Tracker { return &window{score: shipped{timer: p.Timer()}} }

func (w *window) Step(t int, o Observation) Step {
	s := Step{Turn: t, Warned: w.stuck(t) >= w.score.timer.WarningThreshold}
	first := !w.score.initialised
	s.Reset = w.score.track(t, o.Score)
	if o.Objectives > 0 {
		w.lastObj = t
		if s.Reset == NoReset && !first { // the initialising call reports no reset
			s.Reset = ObjectiveProgress
		}
	}
	s.Anchor = max(w.score.lastChange, w.lastObj)
	w.score.timer.check(&s)
	return s
}

func (w *window) stuck(t int) int {
	if !w.score.initialised {
		return t
	}
	return t - max(w.score.lastChange, w.lastObj)
}
