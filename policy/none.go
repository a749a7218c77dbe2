package policy

import "image/color"

// None is no stop rule at all: the run as logged, which goes on to its
// budget. It is the baseline of a system that stops its runs on no rule of
// its own: a harness, ZorkGPT2's run_episode.py (docs/sources.md, "Which
// system ran a log").
const None Name = "none"

func init() {
	register(Kind{Name: None, New: newNone, Variant: true, ThresholdFree: true, Clock: true,
		Color:       color.NRGBA{0x99, 0x99, 0x99, 0xFF}, // grey: no stop rule
		Description: "never stop: the run as logged"})
}

// none counts every turn as progress: every turn is its own anchor, so
// TurnsStuck is 0 on every turn, below every max_turns_stuck a replay
// accepts (at least 1), and a sweep may replay it once for every setting.
type none struct{}

func newNone(Policy) Tracker { return none{} }

func (none) Step(t int, _ Observation) Step { return Step{Turn: t, Anchor: t} }
