// Package replay replays stop policies over an Episode turn by turn: the
// Outcome of one policy on one episode (docs/semantics.md, "6.2 Outcome of one
// policy on one episode"), the sweep's fast path over many configs at once,
// and the self-check of a log's own recorded rule.
package replay

import (
	"fmt"
	"hash/fnv"
	"iter"
	"slices"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/policy"
)

// Outcome is what one policy does to one episode (docs/semantics.md, "6.2 Outcome of one policy on one episode").
// N is the last turn of the log, T the termination turn, W max_turns_stuck.
type Outcome struct {
	Policy policy.Policy
	// TerminationTurn is T, 0 when the policy never fires within the log.
	TerminationTurn int
	TurnsStuck      int // T − anchor at T (can exceed W: docs/semantics.md, "5.9 Cases that a careful reimplementation still gets wrong", item 10)
	// ScoreAtTermination is the score the run is credited with had it
	// stopped at T (episode.Episode.Credited): the score after T, or for a
	// run scored by its best, the best up to T.
	ScoreAtTermination episode.Score
	TurnsSaved         int // N − T, or 0
	Length             int // T if terminated, else N
	// ScoreForgone is max(credited score over T+1..N) − credited score at T,
	// floored at 0: for a run scored by its best, the best after the stop
	// against the best before it.
	ScoreForgone episode.Score
	// LaterGain is the first turn after T whose credited score is above the
	// one at T, and by how much; nil when there is none (later_score_gain
	// false).
	LaterGain *Gain
	// WindowObjectives are the completions c with T − W < c ≤ T, W the
	// policy's Window (objective_progress when not empty).
	WindowObjectives []episode.Completion
	// StopReason says why the policy stopped, for a policy with several
	// triggers (the supervisor: which fired); "" otherwise.
	StopReason string
	// Cut: the recording cut the log (LogCut): what the run did after N is
	// not in it.
	Cut bool
	// Censored: the log is Cut and this policy does not stop at or before N,
	// so its length is a lower bound.
	Censored bool
	// WarningStartTurn is the first turn the countdown warning would be in the
	// agent's prompt (stuck_warning_threshold reached), 0 if never.
	WarningStartTurn int
	// Logged are the costs the log records per turn (episode.Tokens,
	// episode.Calls), and TokensSaved and CallsSaved what the turns after T
	// spent of them: 0 unless logged.
	Logged                  episode.Signals
	TokensSaved, CallsSaved int64
	// NudgeTurn, for a rule that nudges before it stops (then=M), is the
	// turn of the nudge its stop followed, else of its last nudge; 0 none.
	// NudgesHeeded counts the nudges after which the logged agent broke
	// the repetition (docs/policies.md, "Nudge, then stop"). What the agent
	// would have done after a nudge it never saw is not in the log.
	NudgeTurn, NudgesHeeded int
	// DollarsSaved is the dollars the log records the turns after T spent
	// (episode.Costs), SecondsSaved the time from the end of T to the end of
	// the last turn (episode.Times): 0 unless logged.
	DollarsSaved, SecondsSaved float64
	// Judged is how the episode is judged: by its result, a stop is judged
	// by the result whatever the cut, and any later gain is evidence
	// (docs/semantics.md, "6.4 Runs judged by their result").
	Judged episode.Judged
	// GainHorizon is how many turns after T a later gain still counts as
	// evidence of a premature stop (--gain-horizon); 0: any later gain. It is
	// not the policy's: the classification below reads it, so that every
	// metric and renderer classifies alike.
	GainHorizon int
}

// SameResult reports whether a and b say the same of their episode, whatever
// their policies: every field but Policy is equal (window objectives by
// extent). A sweep reuses what it computed of one for the other. A field
// added to Outcome must be compared here.
func SameResult(a, b *Outcome) bool {
	return a.TerminationTurn == b.TerminationTurn && a.TurnsStuck == b.TurnsStuck &&
		a.ScoreAtTermination == b.ScoreAtTermination && a.TurnsSaved == b.TurnsSaved && a.Length == b.Length &&
		a.ScoreForgone == b.ScoreForgone && (a.LaterGain == nil) == (b.LaterGain == nil) &&
		(a.LaterGain == nil || *a.LaterGain == *b.LaterGain) && sameCompletions(a.WindowObjectives, b.WindowObjectives) &&
		a.Cut == b.Cut && a.Censored == b.Censored && a.WarningStartTurn == b.WarningStartTurn && a.GainHorizon == b.GainHorizon &&
		a.Logged == b.Logged && a.TokensSaved == b.TokensSaved && a.CallsSaved == b.CallsSaved && a.StopReason == b.StopReason &&
		a.NudgeTurn == b.NudgeTurn && a.NudgesHeeded == b.NudgesHeeded &&
		a.DollarsSaved == b.DollarsSaved && a.SecondsSaved == b.SecondsSaved && a.Judged == b.Judged
}

func sameCompletions(a, b []episode.Completion) bool {
	if len(a) != len(b) {
		return false
	}
	if len(a) == 0 || &a[0] == &b[0] { // the same part of ep.Objectives
		return true
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Gain is a later score gain: the turn and its size over the score at T.
type Gain struct {
	Turn   int           `json:"turn"`
	Points episode.Score `json:"points"`
}

// Terminated reports whether the policy stops the episode within the log.
func (o *Outcome) Terminated() bool { return o.TerminationTurn > 0 }

// LaterScoreGain: the logged run reached a score above the score at T after T,
// within GainHorizon turns of T when there is one: a gain that counts as
// evidence. A run judged by its result gains only at its last turn, where the
// solve a stop loses lies however far away: no horizon applies to it.
func (o *Outcome) LaterScoreGain() bool {
	return o.LaterGain != nil && (o.GainHorizon == 0 || o.Judged != episode.ByScore || o.GainDistance() <= o.GainHorizon)
}

// GainDistance is how many turns after T the later gain comes, 0 without one.
func (o *Outcome) GainDistance() int {
	if o.LaterGain == nil {
		return 0
	}
	return o.LaterGain.Turn - o.TerminationTurn
}

// ObjectiveProgress: an objective was completed in the last W turns up to T.
func (o *Outcome) ObjectiveProgress() bool { return len(o.WindowObjectives) > 0 }

// FalseTerminationCandidate: terminated although the run was about to gain
// score or had just completed an objective; worth a manual look.
func (o *Outcome) FalseTerminationCandidate() bool {
	return o.Terminated() && (o.LaterScoreGain() || o.ObjectiveProgress())
}

// Unknown: terminated with no evidence of a premature stop, and the log has
// no follow-up to judge it by: it was Cut, and fewer than GainHorizon turns
// follow the stop (with no horizon, any: a later gain could come after N)
// (docs/semantics.md, "6.2 Outcome of one policy on one episode").
//
// A run judged by its result is judged by the result, cut or not: a stop
// on it is unknown exactly when its log does not give the result
// (docs/semantics.md, "6.4 Runs judged by their result").
func (o *Outcome) Unknown() bool {
	if !o.Terminated() || o.FalseTerminationCandidate() {
		return false
	}
	if o.Judged != episode.ByScore {
		return o.Judged == episode.ByUnknownResult
	}
	return o.Cut && (o.GainHorizon == 0 || o.TurnsSaved < o.GainHorizon)
}

// TrulyStuck: terminated, no evidence of a premature stop, and the log
// follows the stop far enough to judge it (not Unknown).
func (o *Outcome) TrulyStuck() bool {
	return o.Terminated() && !o.FalseTerminationCandidate() && !o.Unknown()
}

// Unjudged: the log cannot show this outcome fine: a premature stop, an
// Unknown one, or a Censored outcome (the policy would stop after the cut,
// prematurely or not). The high bound of the false-termination rate counts
// these (docs/semantics.md, "6.3 Dataset metrics").
func (o *Outcome) Unjudged() bool {
	return o.Censored || o.FalseTerminationCandidate() || o.Unknown()
}

// LLMCallsSaved is the LLM calls the turns after T made, where the log
// records them; else the turns saved times the calls a turn costs.
func (o *Outcome) LLMCallsSaved(callsPerTurn int) int {
	if o.Logged.Has(episode.Calls) {
		return int(o.CallsSaved)
	}
	return o.TurnsSaved * callsPerTurn
}

// costs are the signals of what a turn spends.
const costs = episode.Signals(episode.Tokens) | episode.Signals(episode.Calls) | episode.Signals(episode.Costs) | episode.Signals(episode.Times)

// dollarsAfter is the recorded dollars of turns t+1..N, summed from the last
// turn back, as the fast path's table sums them, so that both give the same
// float.
func dollarsAfter(ep *episode.Episode, t int) float64 {
	d := 0.0
	for u := ep.N(); u > t; u-- {
		d += ep.Turns[u-1].Cost
	}
	return d
}

// secondsAfter is the time from the end of turn t to the end of the last.
func secondsAfter(ep *episode.Episode, t int) float64 {
	if t < 1 || t >= ep.N() {
		return 0
	}
	return ep.Turns[ep.N()-1].Elapsed - ep.Turns[t-1].Elapsed
}

// Run replays p over ep and returns its Outcome. It never looks at the log's
// own stuck_termination (docs/semantics.md, "5.9 Cases that a careful reimplementation still gets wrong", item 12): the replay stands on the per-turn data.
func Run(ep *episode.Episode, p policy.Policy) Outcome {
	o := Outcome{Policy: p, Logged: ep.Signals & costs, Judged: ep.Judged}
	Trace(ep, p, func(s policy.Step) {
		if s.Warned && o.WarningStartTurn == 0 {
			o.WarningStartTurn = s.Turn
		}
		if s.Nudged {
			o.NudgeTurn = s.Turn
		}
		if s.Terminate {
			o.TerminationTurn, o.TurnsStuck, o.StopReason = s.Turn, s.TurnsStuck, s.Reason
			if s.NudgedAt > 0 {
				o.NudgeTurn = s.NudgedAt
			}
		}
		if s.Heeded {
			o.NudgesHeeded++
		}
	})
	n := ep.N()
	o.Cut = LogCut(ep)
	if !o.Terminated() {
		o.Length = n
		o.Censored = o.Cut
		return o
	}
	t := o.TerminationTurn
	o.Length = t
	o.TurnsSaved = n - t
	if o.Logged.Has(episode.Costs) {
		o.DollarsSaved = dollarsAfter(ep, t)
	}
	if o.Logged.Has(episode.Times) {
		o.SecondsSaved = secondsAfter(ep, t)
	}
	o.ScoreAtTermination = ep.Credited(t)
	credited := o.ScoreAtTermination
	for u := t + 1; u <= n; u++ {
		o.TokensSaved += ep.Turns[u-1].Tokens
		o.CallsSaved += int64(ep.Turns[u-1].Calls)
		credited = ep.Scoring.Credit(credited, ep.Score(u))
		gain := credited - o.ScoreAtTermination
		if gain > 0 && o.LaterGain == nil {
			o.LaterGain = &Gain{Turn: u, Points: gain}
		}
		o.ScoreForgone = max(o.ScoreForgone, gain)
	}
	for _, c := range ep.Objectives {
		if c.Turn > t-p.Window() && c.Turn <= t {
			o.WindowObjectives = append(o.WindowObjectives, c)
		}
	}
	return o
}

// LogCut reports whether the recording cut the log, so that what the run did
// after its last turn is not in it: the log ends at the recording's own stop
// or a kill (episode.Episode.CutByRecording), or with no end recorded where
// its format records every end (episode.End.Truncated: a killed ZorkGPT run,
// a state snapshot). A log that ends at the game's end or the turn budget, or
// at an exception or Ctrl-C (the run ended there whatever the policy), is
// whole (docs/semantics.md, "6.2 Outcome of one policy on one episode").
func LogCut(ep *episode.Episode) bool {
	return ep.CutByRecording() || ep.End.Reason == episode.EndNone && ep.End.Truncated
}

// roomKey is the room as a tracker sees it: the room id where the log has one
// (E3c), else a negative key hashed from the room's name, stable across
// episodes (a collision between two names is negligible next to ~100 rooms);
// 0 when neither is known.
func roomKey(id int, name string) int {
	if id > 0 {
		return id
	}
	if name == "" {
		return 0
	}
	h := fnv.New32a()
	h.Write([]byte(name))
	return -int(h.Sum32()&0x7fffffff) - 1
}

// nudgeNotes say, once a policy name, of the policies that nudge before they
// stop (then=M), what a replay cannot show: the logged agent never saw the
// nudge (docs/policies.md, "Nudge, then stop").
func nudgeNotes(policies iter.Seq[policy.Policy]) []string {
	var notes []string
	var named []policy.Name
	for p := range policies {
		if p.Nudges() && !slices.Contains(named, p.Name) {
			named = append(named, p.Name)
			notes = append(notes, fmt.Sprintf("%s nudges before it stops: the replay shows where each nudge would come and whether "+
				"the logged agent broke off after it of its own accord, not what it would have done after a nudge it never saw", p))
		}
	}
	return notes
}

// Notes are what limits the replay of ep under policies: the policies its
// log cannot replay or replays with settings off (Unreplayable), and of
// those that nudge, what the replay cannot show (nudgeNotes). policies is
// read three times.
func Notes(ep *episode.Episode, policies iter.Seq[policy.Policy]) []string {
	return append(Unreplayable(ep, policies), nudgeNotes(Replayable(ep, policies))...)
}
