package replay

import (
	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/policy"
)

// observe is what a tracker sees of turn t (1..N) of ep; start is the key of
// the starting room.
// cut says whether the log is cut (LogCut): its last turn is then not one
// the run ended on by itself.
func observe(ep *episode.Episode, t, start int, cut bool) policy.Observation {
	tu := &ep.Turns[t-1]
	return policy.Observation{Score: tu.Score, Objectives: int(tu.Objectives), Room: roomKey(tu.RoomID, tu.Location), Start: start,
		Critic: float64(tu.Critic), Rejections: int(tu.Rejections), Restart: tu.Restart, Location: tu.Location, Signals: ep.Signals,
		Action: tu.Action, Response: tu.ResponseHash, ResponseText: tu.Response, Errored: tu.Errored,
		Tokens: tu.Tokens, Cost: tu.Cost, Elapsed: tu.Elapsed, Last: t == ep.N() && !cut,
		Capped: t == ep.N() && ep.End.Reason == episode.EndCap}
}

// Trace steps p through every turn of ep, from 1 to N, calling visit after each
// turn, and stops after the terminating turn.
func Trace(ep *episode.Episode, p policy.Policy, visit func(s policy.Step)) {
	steps(ep, p, func(s policy.Step) bool { visit(s); return !s.Terminate })
}

// TraceOn is Trace without the stop: it steps p through every turn 1..N even
// past a termination, as if the episode had been allowed to go on (the tracker
// keeps its anchor, so every later check point that exceeds the threshold
// shows as another Terminate). Patterns use it to list every check point at
// which the policy would have stopped, as ZorkGPT's own analyse_episode.py did.
func TraceOn(ep *episode.Episode, p policy.Policy, visit func(s policy.Step)) {
	steps(ep, p, func(s policy.Step) bool { visit(s); return true })
}

// steps feeds p's tracker every turn in order while visit says go on.
func steps(ep *episode.Episode, p policy.Policy, visit func(s policy.Step) bool) {
	tr := p.NewTracker()
	start := roomKey(ep.InitialRoomID, ep.InitialRoom)
	cut := LogCut(ep)
	for t := 1; t <= ep.N(); t++ {
		if !visit(tr.Step(t, observe(ep, t, start, cut))) {
			return
		}
	}
}
