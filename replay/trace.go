package replay

import "github.com/lbanalyze/lbanalyze/policy"

// TraceOn is Trace without the stop: it steps p through every turn 1..N even
// past a termination, as if the episode had been allowed to go on (the tracker
// keeps its anchor, so every later check point that exceeds the threshold
// shows as another Terminate). Patterns use it to list every check point at
// which the policy would have stopped, as ZorkGPT's own analyse_episode.py did.
func TraceOn(ep *Episode, p policy.Policy, visit func(s policy.Step)) {
	tr := p.NewTracker()
	for i := range ep.Turns {
		tu := &ep.Turns[i]
		visit(tr.Step(i+1, tu.Score, tu.Objectives > 0))
	}
}
