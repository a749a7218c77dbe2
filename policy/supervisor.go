package policy

import (
	"fmt"
	"image/color"
	"math"
	"strings"

	"github.com/lbanalyze/lbanalyze/episode"
)

// Supervisor is the checkpoint rules of ZorkGPT2's LLM supervisor
// (docs/zorkgpt2.md, "The supervisor's checkpoint rules").
const Supervisor Name = "supervisor"

// DefaultCheckpoint is the supervisor's review interval: every 25 TURN lines.
const DefaultCheckpoint = 25

// The supervisor's settings: the checkpoint, then one a trigger, each on at
// the threshold ZorkGPT2's supervisor uses and 0 turning it off.
var (
	Checkpoint = &Setting{Key: "checkpoint", Flag: "checkpoint", Label: "checkpoint", Default: DefaultCheckpoint, Min: 1,
		Usage: "checkpoint C (supervisor): the turns between reviews; it reviews the last C turns at turns C, 2C, …"}
	FlatCheckpoints = &Setting{Key: "flat_checkpoints", Flag: "flat-checkpoints", Label: "flat", Default: 2, Special: offAt0,
		Usage: "flat_checkpoints K (supervisor): stop when the score did not change over the last K checkpoints; 0: off"}
	MinCritic = &Setting{Key: "min_critic", Flag: "min-critic", Label: "critic", Default: 50, Special: offAt0, Scale: criticScale, Reads: episode.Critic,
		Usage: "min_critic (supervisor): stop when the mean critic score of the last C turns is below it, e.g. 0.5; 0: off"}
	MaxRejectedTurns = &Setting{Key: "max_rejected_turns", Flag: "max-rejected-turns", Label: "rejected", Default: 7, Special: offAt0, Reads: episode.Rejections,
		Usage: "max_rejected_turns (supervisor): stop when more of the last C turns than this had a rejected proposal; 0: off"}
	SpiralRejections = &Setting{Key: "spiral_rejections", Flag: "spiral-rejections", Label: "spiral", Default: 3, Special: offAt0, Reads: episode.Rejections,
		Usage: "spiral_rejections (supervisor): stop when one of the last C turns had this many rejected proposals; 0: off"}
	RoomStreak = &Setting{Key: "room_streak", Flag: "room-streak", Label: "streak", Default: 10, Special: offAt0, Reads: episode.Rooms,
		Usage: "room_streak (supervisor): stop when this many consecutive turns of the last C ended in the same room; 0: off"}
)

// offAt0 says that 0 turns a setting off.
var offAt0 = []Special{{0, off}}

// criticScale: min_critic is kept in hundredths, as the run log prints the
// critic's scores.
const criticScale = 100

func init() {
	register(Kind{Name: Supervisor, New: newSupervisor, Ported: true,
		Settings:    []*Setting{Checkpoint, FlatCheckpoints, MinCritic, MaxRejectedTurns, SpiralRejections, RoomStreak},
		Color:       color.NRGBA{0x90, 0x89, 0x28, 0xFF}, // dark yellow: the yellow F0E442 at 60%, as light lines on white are hard to see (contrast 1.3:1; this 3.6:1)
		Window:      func(p Policy) int { return p.Get(Checkpoint) },
		Description: "at every C-th turn, review the last C turns and stop when one of its triggers holds"})
}

// supervisor reviews at every checkpoint T (T % C == 0) the last C turns,
// T−C+1 … T, as the supervisor reads the last C TURN lines, and stops at the
// first checkpoint where any trigger that is on (its setting above 0) holds:
//   - flat: the score after T equals the score K, 2K … checkpoints before —
//     the delta since the previous checkpoint was 0 at K checkpoints in a
//     row; the first checkpoint's delta is from the score before turn 1 (0);
//   - critic: the mean of the window's critic scores, to two decimals as the
//     run log prints them, is below min_critic;
//   - rejected: more than max_rejected_turns of the window's turns had at
//     least one rejected proposal;
//   - spiral: a turn of the window had spiral_rejections or more;
//   - streak: room_streak consecutive turns of the window ended in the same
//     room, by name as loc= prints it (an unknown room matches none).
//
// A trigger whose signal the log lacks is off (Policy.Off, from the first
// Observation's Signals); the report says so. Step's Reason names the triggers that fired, TurnsStuck is
// the turns since the score last changed, and there is no warning.
type supervisor struct {
	p                                         Policy
	started                                   bool // the triggers the log cannot feed are off
	c, flat, critic, rejected, spiral, streak int

	score        episode.Score // the score after the last turn
	anchor       int           // the turn it last changed
	atCheckpoint episode.Score // the score at the last checkpoint (0 before the first)
	flatRun      int           // checkpoints in a row with a zero delta
	// The window's turns, by t % C: critic scores in hundredths, rejected
	// proposals, and the run of consecutive turns in one room ending there;
	// grown as the turns come, so that a checkpoint longer than the episode
	// costs what the episode has, not what the setting says.
	critics, rejections, runs []int
	room                      string // the room of the last turn
}

func newSupervisor(p Policy) Tracker {
	s := &supervisor{p: p, c: p.Get(Checkpoint), flat: p.Get(FlatCheckpoints), critic: p.Get(MinCritic),
		rejected: p.Get(MaxRejectedTurns), spiral: p.Get(SpiralRejections), streak: p.Get(RoomStreak)}
	return s
}

func (s *supervisor) Step(t int, o Observation) Step {
	if !s.started {
		s.started = true
		off, _ := s.p.Off(o.Signals)
		trigger := map[string]*int{MinCritic.Key: &s.critic, MaxRejectedTurns.Key: &s.rejected, SpiralRejections.Key: &s.spiral, RoomStreak.Key: &s.streak}
		for _, key := range off {
			*trigger[key] = 0
		}
	}
	reset := NoReset
	if o.Score != s.score {
		s.score, s.anchor, reset = o.Score, t, ScoreChange
	}
	i := t % s.c
	for len(s.critics) <= i { // turns come in order from 1: only while t < C
		s.critics, s.rejections, s.runs = append(s.critics, 0), append(s.rejections, 0), append(s.runs, 0)
	}
	s.critics[i] = int(math.RoundToEven(o.Critic * criticScale)) // exact: a float32 times 100 fits a float64
	s.rejections[i] = o.Rejections
	run := 0
	if o.Location != "" {
		run = 1
		if o.Location == s.room && t > 1 {
			run = s.runs[(t-1)%s.c] + 1
		}
	}
	s.runs[i], s.room = run, o.Location
	st := Step{Turn: t, Reset: reset, Anchor: s.anchor, TurnsStuck: t - s.anchor, Checked: i == 0}
	if !st.Checked {
		return st
	}
	if s.score == s.atCheckpoint {
		s.flatRun++
	} else {
		s.flatRun = 0
	}
	s.atCheckpoint = s.score
	st.Reason = strings.Join(s.triggers(t, o), "; ")
	st.Terminate = st.Reason != ""
	return st
}

// triggers are the triggers that hold at checkpoint t, in words.
func (s *supervisor) triggers(t int, o Observation) []string {
	var why []string
	if s.flat > 0 && s.flatRun >= s.flat {
		plural := "s"
		if s.flatRun == 1 {
			plural = ""
		}
		why = append(why, fmt.Sprintf("score %s unchanged over %d checkpoint%s (since turn %d)", s.score, s.flatRun, plural, t-s.flatRun*s.c))
	}
	if s.critic > 0 {
		sum := 0
		for _, h := range s.critics {
			sum += h
		}
		if sum < s.critic*s.c {
			why = append(why, fmt.Sprintf("mean critic %.3f < %s", float64(sum)/float64(criticScale*s.c), MinCritic.Format(s.critic)))
		}
	}
	if s.rejected > 0 || s.spiral > 0 {
		turns, most, at := 0, 0, 0
		for k := range s.c {
			u := t - s.c + 1 + k // the window's turns in order
			r := s.rejections[u%s.c]
			if r > 0 {
				turns++
			}
			if r > most {
				most, at = r, u
			}
		}
		if s.rejected > 0 && turns > s.rejected {
			why = append(why, fmt.Sprintf("%d of the last %d turns had rejections (> %d)", turns, s.c, s.rejected))
		}
		if s.spiral > 0 && most >= s.spiral {
			why = append(why, fmt.Sprintf("turn %d had %d rejections (>= %d)", at, most, s.spiral))
		}
	}
	if s.streak > 0 {
		longest := 0
		for k := range s.c {
			u := t - s.c + 1 + k
			longest = max(longest, min(s.runs[u%s.c], k+1)) // the part of the run within the window
		}
		if longest >= s.streak {
			why = append(why, fmt.Sprintf("%d turns in a row in one room (>= %d)", longest, s.streak))
		}
	}
	return why
}
