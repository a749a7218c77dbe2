package dataset

import (
	"math/rand/v2"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/synth"
	"github.com/lbanalyze/lbanalyze/replay"
)

// Kind is a kind of episode: a script with random lengths, and the outcome it
// is meant to have under the two shipped policies at 40/10, checked on the
// log as written (through replay.Read and replay.Run). A draw whose outcome
// differs is drawn again from the episode's own random stream, so the set's
// make-up holds for any seed.
type Kind struct {
	Name      string
	About     string // for the README
	Recording string // the loop break the recording ran: "", "v1" (09a7cc2) or "v2" (HEAD)
	Quota     int    // episodes of this kind in the 75-episode set
	script    func(r *rand.Rand) synth.Script
	accept    func(c check) bool
}

// check is what a draw is judged on: the episode as read back, and the
// outcomes of score (S) and score-or-objective (O) at 40/10.
type check struct {
	ep   *episode.Episode
	s, o replay.Outcome
}

func (c check) end() episode.EndReason { return c.ep.End.Reason }
func (c check) n() int                 { return c.ep.N() }

// between draws an int in [lo, hi].
func between(r *rand.Rand, lo, hi int) int { return lo + r.IntN(hi-lo+1) }

func progress(n int) synth.Phase { return synth.Phase{Turns: n} }

// stuck is a spell of n turns (0: to the end of the episode), camping or
// oscillating at random.
func stuck(r *rand.Rand, n int, gain bool, objectives []int) synth.Phase {
	return synth.Phase{Stuck: true, Turns: n, Camp: r.IntN(2) == 0, Gain: gain, Objectives: objectives}
}

// every gives objective turns within a spell: the first at from, then every
// lo..hi turns, up to until.
func every(r *rand.Rand, from, lo, hi, until int) []int {
	var out []int
	for t := from; t <= until; t += between(r, lo, hi) {
		out = append(out, t)
	}
	return out
}

// Kinds are the kinds of the set, in the README's order. Quotas sum to 75:
// 57 recorded without a loop break (replayed exactly by every policy), 18 cut
// by a recorded loop break (9 v1, 9 v2).
var Kinds = []*Kind{
	{Name: "early-death", Quota: 10,
		About: "dies within 60 turns or so, before any stuck spell (grue, troll, a jump)",
		script: func(r *rand.Rand) synth.Script {
			return synth.Script{Phases: []synth.Phase{progress(between(r, 15, 55))}, End: synth.Die}
		},
		accept: func(c check) bool { return !c.s.Terminated() && c.end() == episode.EndGameOver }},
	{Name: "steady", Quota: 17,
		About: "makes progress to its death; short stuck spells (under 40 turns without a score change) stop nothing",
		script: func(r *rand.Rand) synth.Script {
			ph := []synth.Phase{progress(between(r, 15, 50))}
			if r.IntN(3) > 0 {
				ph = append(ph, stuck(r, between(r, 20, 26), true, nil))
			}
			ph = append(ph, progress(between(r, 10, 45)))
			return synth.Script{Phases: ph, End: synth.Die}
		},
		accept: func(c check) bool { return !c.s.Terminated() && c.end() == episode.EndGameOver }},
	{Name: "killed", Quota: 1,
		About: "makes progress until its run is killed: no end event and a truncated last line",
		script: func(r *rand.Rand) synth.Script {
			return synth.Script{Phases: []synth.Phase{progress(between(r, 50, 120))}, End: synth.Killed}
		},
		accept: func(c check) bool { return !c.s.Terminated() && c.end() == episode.EndNone }},
	{Name: "stuck-to-the-end", Quota: 2,
		About: "progress (with a short spell), then stuck for its last 200–250 turns, to max_turns (500): truly stuck under both policies",
		script: func(r *rand.Rand) synth.Script {
			ph := []synth.Phase{progress(between(r, 120, 170)), stuck(r, between(r, 20, 26), true, nil), progress(between(r, 70, 100)), stuck(r, 0, false, nil)}
			return synth.Script{Phases: ph, End: synth.RunOut}
		},
		accept: func(c check) bool {
			return c.s.TrulyStuck() && c.o.TrulyStuck() && c.end() == episode.EndMaxTurns && c.n() == 500
		}},
	{Name: "stuck-then-death", Quota: 8,
		About: "progress, then a stuck spell of 50–80 turns that ends in its death: truly stuck under both policies",
		script: func(r *rand.Rand) synth.Script {
			return synth.Script{Phases: []synth.Phase{progress(between(r, 25, 70)), stuck(r, between(r, 50, 80), false, nil)}, End: synth.Die}
		},
		accept: func(c check) bool {
			return c.s.TrulyStuck() && c.o.TrulyStuck() && c.end() == episode.EndGameOver
		}},
	{Name: "late-gain", Quota: 7,
		About: "a stuck spell of 55–120 turns with no objective completed, ended by a late score gain: a false-termination candidate by later gain under both policies",
		script: func(r *rand.Rand) synth.Script {
			ph := []synth.Phase{progress(between(r, 25, 65)), stuck(r, between(r, 55, 120), true, nil), progress(between(r, 10, 40))}
			return synth.Script{Phases: ph, End: synth.Die}
		},
		accept: func(c check) bool {
			return c.s.LaterScoreGain() && !c.s.ObjectiveProgress() && c.o.LaterScoreGain() && c.end() == episode.EndGameOver
		}},
	{Name: "objective-rescue", Quota: 6,
		About: "a stuck spell of 60–110 turns without a score change but with objectives completed every 12–30 turns, ended by a score gain: score stops it (a candidate), score-or-objective does not",
		script: func(r *rand.Rand) synth.Script {
			n := between(r, 60, 110)
			ph := []synth.Phase{progress(between(r, 25, 65)), stuck(r, n, true, every(r, between(r, 5, 20), 12, 30, n-3)), progress(between(r, 10, 40))}
			return synth.Script{Phases: ph, End: synth.Die}
		},
		accept: func(c check) bool {
			return c.s.FalseTerminationCandidate() && c.s.ObjectiveProgress() && !c.o.Terminated() && c.end() == episode.EndGameOver
		}},
	{Name: "objective-delay", Quota: 6,
		About: "a stuck spell of 80–130 turns with a few objectives completed in its first 35 turns, then nothing, to its death: score stops it with objectives in its window, score-or-objective later and truly stuck",
		script: func(r *rand.Rand) synth.Script {
			n := between(r, 80, 130)
			ph := []synth.Phase{progress(between(r, 25, 65)), stuck(r, n, false, every(r, between(r, 8, 20), 8, 14, 35))}
			return synth.Script{Phases: ph, End: synth.Die}
		},
		accept: func(c check) bool {
			return c.s.ObjectiveProgress() && !c.s.LaterScoreGain() && c.o.TrulyStuck() &&
				c.o.TerminationTurn > c.s.TerminationTurn && c.end() == episode.EndGameOver
		}},
	{Name: "v1-censored", Recording: "v1", Quota: 3,
		About: "recorded by the score-only loop break (09a7cc2), which cut a stuck spell full of objective completions: score-or-objective would not have stopped by then (censored)",
		script: func(r *rand.Rand) synth.Script {
			return synth.Script{Phases: []synth.Phase{progress(between(r, 20, 70)), stuck(r, 0, false, every(r, between(r, 4, 12), 10, 25, 400))}, End: synth.RunOut}
		},
		accept: func(c check) bool { return c.end() == episode.EndStuckTermination && c.o.Censored }},
	{Name: "v1-stuck", Recording: "v1", Quota: 6,
		About: "recorded by the score-only loop break (09a7cc2), which cut a stuck spell without objectives: score-or-objective stops at the same turn",
		script: func(r *rand.Rand) synth.Script {
			return synth.Script{Phases: []synth.Phase{progress(between(r, 20, 60)), stuck(r, 0, false, nil)}, End: synth.RunOut}
		},
		accept: func(c check) bool {
			return c.end() == episode.EndStuckTermination && c.o.TerminationTurn == c.n() && c.s.TerminationTurn == c.n()
		}},
	{Name: "v2-objective", Recording: "v2", Quota: 3,
		About: "recorded by HEAD's loop break (score-or-objective), which cut a stuck spell after objectives early in it had put the stop off: score would have stopped earlier",
		script: func(r *rand.Rand) synth.Script {
			return synth.Script{Phases: []synth.Phase{progress(between(r, 20, 70)), stuck(r, 0, false, every(r, between(r, 8, 20), 8, 14, 35))}, End: synth.RunOut}
		},
		accept: func(c check) bool {
			return c.end() == episode.EndStuckTermination && c.o.TerminationTurn == c.n() &&
				c.s.Terminated() && c.s.TerminationTurn < c.n() && c.s.ObjectiveProgress()
		}},
	{Name: "v2-stuck", Recording: "v2", Quota: 6,
		About: "recorded by HEAD's loop break (score-or-objective), which cut a stuck spell without objectives: both policies stop at that turn",
		script: func(r *rand.Rand) synth.Script {
			return synth.Script{Phases: []synth.Phase{progress(between(r, 20, 60)), stuck(r, 0, false, nil)}, End: synth.RunOut}
		},
		accept: func(c check) bool {
			return c.end() == episode.EndStuckTermination && c.o.TerminationTurn == c.n() && c.s.TerminationTurn == c.n()
		}},
}
