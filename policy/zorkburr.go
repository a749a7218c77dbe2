package policy

import (
	"image/color"

	"github.com/lbanalyze/lbanalyze/episode"
)

// Zorkburr is ZorkGPT2's stuck rule (docs/zorkgpt2.md, "The stuck rule").
const Zorkburr Name = "zorkburr"

// ZorkburrWarning is how many turns without a score change put the countdown
// in ZorkGPT2's prompt: assemble_context shows "N turns until episode ends"
// from 30 turns stuck, counting down to a hard-coded 40 whatever
// max_turns_stuck is (docs/zorkgpt2.md, "The stuck rule").
const ZorkburrWarning = 30

func init() {
	register(Kind{Name: Zorkburr, New: newZorkburr, ThresholdFree: true, Ported: true, Warning: ZorkburrWarning,
		Settings:    TimerSettings[:2],                   // its countdown is ZorkburrWarning
		Color:       color.NRGBA{0x56, 0xB4, 0xE9, 0xFF}, // sky blue
		Description: "a counter of the turns since the score last moved (a move in turn 1 counts), checked after every step of its graph: stop at a check turn whose counter before or after the turn has reached W"})
}

// zorkburr replays record_results's counter and run_episode's check
// (zorkburr/actions/results.py, zorkburr/main.py):
//   - the counter c starts at 0 at turn 0; after turn t it is 0 when the
//     score moved during t (score − pre_score ≠ 0, a death's −10 included,
//     turn 1 included), else c+1. Nothing else resets it.
//   - the check runs after every Burr step: turn_count is already t after
//     execute_action, while the counter is still that of t−1 until
//     record_results. So turn t stops when t % I == 0 and
//     max(c(t−1), c(t)) ≥ W: a score gained on a check turn does not save an
//     episode whose counter had reached W the turn before.
//
// Step's Anchor is last_score_change_turn and TurnsStuck the larger counter
// the check saw, max(c(t−1), c(t)): what is compared with W. It depends on
// neither W nor I, so the sweep's fast path replays it once for all of them.
type zorkburr struct {
	timer  Timer
	score  episode.Score // the score after the last turn (0 before turn 1)
	c      int           // turns_since_progress
	anchor int           // last_score_change_turn
}

func newZorkburr(p Policy) Tracker { return &zorkburr{timer: p.Timer()} }

func (z *zorkburr) Step(t int, o Observation) Step {
	// The countdown is built at the start of turn t from the counter of t−1.
	s := Step{Turn: t, Warned: z.c >= ZorkburrWarning}
	before := z.c
	if o.Score != z.score {
		z.c, z.anchor = 0, t
		s.Reset = ScoreChange
	} else {
		z.c++
	}
	z.score = o.Score
	s.Anchor, s.TurnsStuck = z.anchor, max(before, z.c)
	s.Checked = t%z.timer.CheckInterval == 0
	s.Terminate = s.Checked && s.TurnsStuck >= z.timer.MaxTurnsStuck
	return s
}
