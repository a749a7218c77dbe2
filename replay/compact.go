package replay

import (
	"math"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/policy"
)

// Compact is an Outcome as a dataset of many episodes holds it: without its
// policy (the dataset's), its turns in 32 bits (an episode has at most
// source.MaxTurn), and what most outcomes lack behind one pointer: 64 bytes
// where an Outcome takes 272 (docs/PERFORMANCE.md, "Many episodes").
// Outcome gives it back whole.
type Compact struct {
	terminationTurn, turnsStuck, turnsSaved, length, warningStartTurn, gainTurn int32
	scoreAtTermination, scoreForgone, gainPoints                                episode.Score
	gained, cut, censored, whole                                                bool
	judged                                                                      episode.Judged
	logged                                                                      episode.Signals
	rare                                                                        *Outcome // the rest, nil when it is all zero; or all of it when a turn needs more than 32 bits
}

// Compact is o compacted (Compact).
func (o *Outcome) Compact() Compact {
	c := Compact{scoreAtTermination: o.ScoreAtTermination, scoreForgone: o.ScoreForgone, cut: o.Cut, censored: o.Censored,
		judged: o.Judged, logged: o.Logged}
	turns := []int{o.TerminationTurn, o.TurnsStuck, o.TurnsSaved, o.Length, o.WarningStartTurn, 0}
	if o.LaterGain != nil {
		c.gained, c.gainPoints, turns[5] = true, o.LaterGain.Points, o.LaterGain.Turn
	}
	for _, t := range turns {
		if t < math.MinInt32 || t > math.MaxInt32 {
			whole := *o
			whole.Policy = policy.Policy{}
			return Compact{rare: &whole, whole: true}
		}
	}
	c.terminationTurn, c.turnsStuck, c.turnsSaved, c.length, c.warningStartTurn, c.gainTurn =
		int32(turns[0]), int32(turns[1]), int32(turns[2]), int32(turns[3]), int32(turns[4]), int32(turns[5])
	rest := Outcome{WindowObjectives: o.WindowObjectives, StopReason: o.StopReason, TokensSaved: o.TokensSaved, CallsSaved: o.CallsSaved,
		NudgeTurn: o.NudgeTurn, NudgesHeeded: o.NudgesHeeded, DollarsSaved: o.DollarsSaved, SecondsSaved: o.SecondsSaved, GainHorizon: o.GainHorizon}
	if rest.WindowObjectives != nil || !SameResult(&rest, &Outcome{}) {
		kept := rest // rest itself stays off the heap
		c.rare = &kept
	}
	return c
}

// Outcome is c whole, the outcome of p.
func (c *Compact) Outcome(p policy.Policy) Outcome {
	var o Outcome
	if c.rare != nil {
		o = *c.rare
	}
	o.Policy = p
	if c.whole {
		return o
	}
	o.TerminationTurn, o.TurnsStuck, o.TurnsSaved, o.Length, o.WarningStartTurn =
		int(c.terminationTurn), int(c.turnsStuck), int(c.turnsSaved), int(c.length), int(c.warningStartTurn)
	o.ScoreAtTermination, o.ScoreForgone, o.Cut, o.Censored, o.Judged, o.Logged = c.scoreAtTermination, c.scoreForgone, c.cut, c.censored, c.judged, c.logged
	if c.gained {
		o.LaterGain = &Gain{Turn: int(c.gainTurn), Points: c.gainPoints}
	}
	return o
}
