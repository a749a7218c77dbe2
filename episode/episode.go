// Package episode is the one model of an episode that every source of logs
// builds and everything after the sources reads (docs/sources.md, "The
// Episode"): a compact record per turn, how the log ends, what the recording
// did itself, and what the log does not say. It knows no log format.
package episode

import (
	"fmt"
	"strconv"
)

// Episode is one episode of a log. Turns[t-1] is turn t.
type Episode struct {
	ID     string // the episode's id as its log names it, e.g. 2025-11-04T09:35:24
	Source string // where it came from: the path as given ("-" for stdin)
	// Format is the source that read it, its log_format (docs/sources.md):
	// which system ran the episode follows from it (docs/sources.md, "Which
	// system ran a log").
	Format string
	// Segment is the position of this episode in its file, 1-based,
	// segments that cannot be replayed counted.
	Segment  int
	MaxTurns int // the run's turn budget, where the log says; 0 unknown
	// Scoring is how the run is scored: the score it is credited with had it
	// stopped after a turn (Credited).
	Scoring Scoring
	// IDFromPath says that the log records no id: ID is made from where the
	// file lies (docs/sources.md, "Episode ids").
	IDFromPath bool
	// Judged is how the run is judged: by its score after each turn, or by
	// its final result (docs/semantics.md, "6.4 Runs judged by their result").
	Judged Judged
	// Tick, when not 0, is the seconds each turn stands for: the log records
	// when the run began and ended but not its steps (Terminal-Bench), so its
	// turns are ticks of the clock and only a rule that reads the time
	// replays on them (Have).
	Tick float64

	Turns []Turn
	// Signals are the optional per-turn signals this log records: a policy or
	// pattern that needs one the log lacks says so, never reads it as zero.
	Signals Signals
	// Estimated are those of Signals whose per-turn values are estimates, not
	// counts (BALROG's tokens: the run's total spread over its steps): the
	// figures made of them say so.
	Estimated Signals

	Objectives []Completion // objective completions, in log order
	// ObjectiveUpdates counts the times the log shows the discovered
	// objectives being updated.
	ObjectiveUpdates int
	Deaths           []Death // game overs, by turn
	InitialRoomID    int     // the room the episode starts in; 0 unknown
	InitialRoom      string

	End      End
	Recorded Recorded

	// Facts are what the source knows of this episode that other sources do
	// not (ZorkGPT's era and loop-break version): shown in the header, and in
	// JSON under their keys, in order.
	Facts []Fact
	// Notes are the source's caveats about this episode, for the reader.
	Notes []string

	MissingTurns   int // turns 1..N the log does not complete (score carried forward)
	ExceptionTurns int // of which the log records a failure
	SkippedLines   int // lines of this episode that could not be used
	Problems       []Problem
	ProblemCount   int // all problems; Problems holds the first few

	// identity is Identity, held once the turns' actions are let go
	// (DropTexts).
	identity   uint64
	identified bool
}

// Turn is the end-of-turn state of one turn.
//
// What a step did, as every source fills it (docs/sources.md, "What a step
// did"), so that the repetition rules compare alike whatever the log:
//   - Action is the action as the log writes it, kept as source.Text keeps a
//     text (whole up to source.MaxText bytes, else its first bytes with the
//     length and hash of the whole); rules compare it with its surrounding
//     whitespace trimmed. A tool call is its tool's name, a space and its
//     arguments as canonical JSON (source.ToolCall); several in one step, one
//     a line, in the log's order. The agent's thoughts are never the action.
//   - ResponseHash is a 64-bit hash of the text the action produced (the
//     game's response, the observation, a tool's result), equal for equal
//     texts within a source; 0 when the log has none (Signals.Has(Responses)).
//   - Response is that text as source.Text keeps it, where the source keeps
//     it (Signals.Has(ResponseTexts)), for rules that remove parts of it
//     before comparing.
//   - Errored: the log marks the step's action as failed (Signals.Has(Errors)).
type Turn struct {
	Score    Score
	RoomID   int    // the room after the action; 0 when unknown
	Location string // the room's name after the action; "" unknown
	Action   string
	// ResponseHash identifies the game's response to the action (a 64-bit
	// hash of its text); 0 when the log has none.
	ResponseHash uint64
	Response     string
	Tokens       int64   // LLM tokens the turn spent (Signals.Has(Tokens))
	Critic       float32 // the critic's score of the action taken (Signals.Has(Critic))
	Rejections   int32   // proposals rejected before the action (Signals.Has(Rejections))
	Calls        int32   // LLM calls the turn made (Signals.Has(Calls))
	Objectives   int32   // objectives completed this turn
	Missing      bool    // the log does not complete the turn: score, room carried forward
	Exception    bool    // the log records a failure of the turn
	Restart      bool    // the game began again at this turn (Signals.Has(Restarts))
	Errored      bool    // the step's action failed: a tool error, a rejected command (Signals.Has(Errors))
	// Cost is the dollars the step spent as the log records them
	// (Signals.Has(Costs)); no price is applied to it.
	Cost float64
	// Elapsed is the seconds from the run's start to the step's end
	// (Signals.Has(Times)).
	Elapsed float64
}

// Signal is one optional per-turn signal a log may record.
type Signal uint16

// Signals is a set of signals.
type Signals uint16

const (
	Objectives    Signal = 1 << iota // objective completions
	Rooms                            // the room after each turn
	Responses                        // the game's response
	Critic                           // the critic's score of the action taken
	Rejections                       // proposals rejected before the action
	Tokens                           // LLM tokens spent
	Calls                            // LLM calls made
	Restarts                         // the game beginning again within the run
	Penalties                        // ZorkGPT's location revisit penalty, where it applied (Recorded.Penalties)
	Errors                           // whether each step's action failed
	Costs                            // dollars each step spent, as recorded
	Times                            // when each step ended, from the run's start
	ResponseTexts                    // the text of each step's response, as kept (Turn.Response)
	Steps                            // the agent's own steps, not ticks of a clock (Episode.Have)
	Actions                          // each step's action (Turn.Action)
)

var signalNames = []string{"objectives", "rooms", "game responses", "critic scores", "rejections", "tokens", "LLM calls", "restarts", "revisit penalties", "errors", "recorded costs", "step times", "response texts", "the agent's steps", "actions"}

func (s Signal) String() string {
	for i, n := range signalNames {
		if s == 1<<i {
			return n
		}
	}
	return fmt.Sprintf("signal %#x", uint16(s))
}

// Has reports whether every signal of want is in s.
func (s Signals) Has(want ...Signal) bool {
	for _, w := range want {
		if uint16(s)&uint16(w) == 0 {
			return false
		}
	}
	return true
}

// With is s with the signals added.
func (s Signals) With(add ...Signal) Signals {
	for _, a := range add {
		s |= Signals(a)
	}
	return s
}

// List lists the signals of s, in order.
func (s Signals) List() []Signal { return Signals(0).Lacking(s) }

// Lacking lists the signals of need that s does not have, in order.
func (s Signals) Lacking(need Signals) []Signal {
	var out []Signal
	for i := range signalNames {
		if w := Signal(1 << i); Signals(w)&need != 0 && !s.Has(w) {
			out = append(out, w)
		}
	}
	return out
}

// Have are the signals the log records, Steps among them unless its turns
// are ticks of the clock (Tick).
func (e *Episode) Have() Signals {
	if e.Tick > 0 {
		return e.Signals
	}
	return e.Signals.With(Steps)
}

// N is the last turn number of the log.
func (e *Episode) N() int { return len(e.Turns) }

// Score is the score after turn t (0 before turn 1).
func (e *Episode) Score(t int) Score {
	if t < 1 || t > len(e.Turns) {
		return 0
	}
	return e.Turns[t-1].Score
}

// FinalScore is the score after the last turn.
func (e *Episode) FinalScore() Score { return e.Score(e.N()) }

// Scoring is how a run is scored (docs/sources.md, "How a run is scored").
type Scoring uint8

const (
	// ScoredLast: the run is credited with its score after its last turn
	// (ZorkGPT).
	ScoredLast Scoring = iota
	// ScoredBest: the run is credited with the best score after any of its
	// turns, or 0 (TALES's highscore, which starts at 0): a game that ends and
	// begins again within the run keeps what it reached before.
	ScoredBest
)

// Credit is the score a run is credited with after a turn that ends on
// score, when it was credited with prev before the turn (0 before turn 1).
func (s Scoring) Credit(prev, score Score) Score {
	if s == ScoredBest {
		return max(prev, score)
	}
	return score
}

// Credited is the score the run is credited with had it stopped after turn t
// (0 before turn 1): the score after t, or the best up to t.
func (e *Episode) Credited(t int) Score {
	if e.Scoring == ScoredLast {
		return e.Score(t)
	}
	var c Score
	for u := 1; u <= min(t, e.N()); u++ {
		c = e.Scoring.Credit(c, e.Turns[u-1].Score)
	}
	return c
}

// Name is the episode id, with its position in its file past the first
// segment: "ID (segment 2)". How many segments a file holds is known only at
// its end, and an episode is reported before (docs/output.md, "A file of
// several episodes").
func (e *Episode) Name() string { return Name(e.ID, e.Segment) }

// Name is the name of the episode of this id and segment (Episode.Name).
func Name(id string, segment int) string {
	if segment > 1 {
		return id + " (segment " + strconv.Itoa(segment) + ")"
	}
	return id
}

// CutByRecording reports whether the recording's own stop (its stop rule, its
// cap, or a supervisor's kill) ended the log at its last turn: what a policy that
// does not stop by then would have done is unknown beyond it. A kill always
// cuts the log where it ends.
func (e *Episode) CutByRecording() bool {
	st := e.Recorded.Stop
	return e.End.Reason == EndKilled || e.End.Reason == EndCap || st != nil && st.Turn == e.N() && e.End.Reason == EndStuckTermination
}

// Completion is one objective completed.
type Completion struct {
	Turn      int    `json:"turn"`
	Objective string `json:"objective"`
}

// Death is a game over at a turn.
type Death struct {
	Turn   int
	Reason string
}

// EndReason is how the log ends.
type EndReason string

const (
	EndMaxTurns         EndReason = "max_turns"         // the turn budget ran out
	EndGameOver         EndReason = "game_over"         // the game ended (death, victory)
	EndStuckTermination EndReason = "stuck_termination" // the recording's own stop rule ended it
	EndException        EndReason = "exception"         // the run failed
	EndInterrupted      EndReason = "interrupted"       // stopped by hand (Ctrl-C), the log finalised
	EndKilled           EndReason = "killed"            // cut off from outside, mid-turn (a supervisor's kill)
	EndCap              EndReason = "cap"               // the run's own cap ended it: steps, time, tokens, dollars or errors
	EndNone             EndReason = "none"              // no end recorded: the log is truncated
)

// End is the end of the log.
type End struct {
	Reason     EndReason
	Turn       int // the turn the end record names; 0 for none
	TurnsStuck int // stuck_termination only
	Detail     string
	// Truncated: the log records no end (EndNone) where its format records
	// every run's end (ZorkGPT's, ZorkGPT2's): it was cut short. A harness's
	// per-step log need not say how a run ended, and is whole without it.
	Truncated bool
}

// Recorded is what the recording's own stop rule did, where its log shows it:
// the timer resets it made and its stop. A replay of the same rule must
// reproduce them (replay.Check).
type Recorded struct {
	// Rules are the policies the recording may have run, most likely first
	// (ZorkGPT's loop break v2 is score-or-objective, then score); nil when
	// the log shows no rule ran.
	Rules []string
	// Resets are the timer resets the log records, in log order.
	Resets []Reset
	// Stop is the recording's own stop, nil when it made none.
	Stop *Stop
	// CounterOnly: the recording kept the rule's counter, but its runner did
	// not stop on it (ZorkGPT2's run_episode.py): the self-check compares the
	// resets, and says what the rule would have done.
	CounterOnly bool
	// Through is the last turn the recorded resets cover (a runner that
	// stops right after a turn's action records no counter for it); 0: all.
	Through int
	// Penalties are ZorkGPT's location_penalty_applied events (they never
	// touch the timer), StateLoops its state_loop_detected events and
	// CriticOverrides its critic_override events, for the loop patterns.
	Penalties       []Penalty
	StateLoops      []StateLoop
	CriticOverrides []CriticOverride
}

// Any reports whether the log records a reset or a stop of its own rule, or
// its counter (whose resets may be none).
func (r Recorded) Any() bool { return len(r.Resets) > 0 || r.Stop != nil || r.CounterOnly }

// Turns are the turns of the recorded resets of a kind, in log order.
func (r Recorded) Turns(kind ResetKind) []int {
	t := []int{}
	for _, c := range r.Resets {
		if c.Kind == kind {
			t = append(t, c.Turn)
		}
	}
	return t
}

// ResetKind names what reset the timer, as the recording names it.
type ResetKind string

const (
	ScoreChangeReset ResetKind = "score_change"             // the score moved
	ObjectiveReset   ResetKind = "objective_progress_reset" // an objective was completed
)

// Reset is one recorded timer reset.
type Reset struct {
	Turn     int
	Kind     ResetKind
	Old, New int // the scores of a score change
}

// Stop is the recording's own stop.
type Stop struct {
	Turn       int `json:"turn"`
	Score      int `json:"score"`
	TurnsStuck int `json:"turns_stuck"`
}

// Penalty is one location_penalty_applied event. The confidences are NaN
// where the log has null (or NaN).
type Penalty struct {
	Turn               int
	LocationID         int // the room at the start of the turn (0 = unknown)
	RecentVisits       int
	BaseConfidence     float64
	AdjustedConfidence float64
}

// StateLoop is one state_loop_detected event: the game's exact state was seen
// before.
type StateLoop struct {
	Turn          int
	LoopStartTurn int
	TurnsInLoop   int
}

// CriticOverride is one critic_override event.
type CriticOverride struct {
	Turn   int
	Reason string
}

// Fact is one thing a source knows of an episode: its JSON key and value
// (nil: null), and how the episode's header says it.
type Fact struct {
	Key   string
	Value *string
	Text  string
}

// Fact is the value of the episode's fact key, "" when it has none (or null).
func (e *Episode) Fact(key string) string {
	for _, f := range e.Facts {
		if f.Key == key && f.Value != nil {
			return *f.Value
		}
	}
	return ""
}

// Problem is a line that could not be used, or was used with a repair.
type Problem struct {
	Line    int // 0 when not about one line
	Msg     string
	Skipped bool
	// File is the file the line is in, when not the episode's Source (a
	// Burr application directory's log.jsonl); "" otherwise.
	File string
}

func (p Problem) String() string {
	if p.Line > 0 {
		return fmt.Sprintf("%d: %s", p.Line, p.Msg)
	}
	return p.Msg
}

// ProblemMessages are the episode's problems as "file:line: message", the
// first few word for word and the rest counted.
func (e *Episode) ProblemMessages() []string {
	var w []string
	for _, p := range e.Problems {
		file := e.Source
		if p.File != "" {
			file = p.File
		}
		if p.Line > 0 {
			w = append(w, fmt.Sprintf("%s:%d: %s", file, p.Line, p.Msg))
		} else {
			w = append(w, fmt.Sprintf("%s: %s", e.Source, p.Msg))
		}
	}
	if more := e.ProblemCount - len(e.Problems); more > 0 {
		w = append(w, fmt.Sprintf("%s: … and %d more problems", e.Source, more))
	}
	return w
}
