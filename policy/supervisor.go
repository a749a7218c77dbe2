package policy

import (
	"fmt"
	"math"
	"strings"
)

// Supervisor is the checkpoint rules of ZorkGPT2's LLM supervisor
// (docs/zorkgpt2.md, "The supervisor's checkpoint rules").
const Supervisor Name = "supervisor"

// DefaultCheckpoint is the supervisor's review interval: every 25 TURN lines.
const DefaultCheckpoint = 25

// supervisorSettings are the supervisor's settings, in the order of
// Dimensions: the checkpoint, then one per trigger.
var supervisorSettings = []string{"checkpoint", "flat_checkpoints", "min_critic", "max_rejected_turns", "spiral_rejections", "room_streak"}

func init() {
	register(Kind{Name: Supervisor, New: newSupervisor, Ported: true, Settings: supervisorSettings, Lacks: timer,
		Window: func(p Params) int { return p.checkpoint() },
		Description: "the checkpoint rules of ZorkGPT2's LLM supervisor: at turns C, 2C, … it stops the episode when, over the last C turns, " +
			"the score did not change for flat_checkpoints checkpoints, the mean critic score is below min_critic, more than max_rejected_turns turns had a rejected proposal, " +
			"a turn had spiral_rejections rejected proposals, or room_streak consecutive turns ended in the same room"})
}

// setting is the value of the supervisor's setting key in p, as users give
// it (Dimension.Get).
func (p Params) setting(key string) int {
	for i := range dimensions {
		if d := &dimensions[i]; d.Key == key {
			return d.Get(&p)
		}
	}
	panic("no setting " + key)
}

func (p Params) checkpoint() int { return p.setting("checkpoint") }

func (p Params) supervisorUsable() error {
	if c := p.checkpoint(); c < 1 {
		return fmt.Errorf("checkpoint must be at least 1, not %d", c)
	}
	for _, key := range supervisorSettings[1:] {
		if v := p.setting(key); v < 0 {
			return fmt.Errorf("%s must not be negative (0: off), not %d", key, v)
		}
	}
	return nil
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

	score, anchor int // the score after the last turn, and the turn it last changed
	atCheckpoint  int // the score at the last checkpoint (0 before the first)
	flatRun       int // checkpoints in a row with a zero delta
	// The window's turns, by t % C: critic scores in hundredths, rejected
	// proposals, and the run of consecutive turns in one room ending there.
	critics, rejections, runs []int
	room                      string // the room of the last turn
}

func newSupervisor(p Policy) Tracker {
	q := p.Params
	s := &supervisor{p: p, c: q.checkpoint(), flat: q.setting("flat_checkpoints"), critic: q.setting("min_critic"),
		rejected: q.setting("max_rejected_turns"), spiral: q.setting("spiral_rejections"), streak: q.setting("room_streak")}
	s.critics, s.rejections, s.runs = make([]int, s.c), make([]int, s.c), make([]int, s.c)
	return s
}

func (s *supervisor) Step(t int, o Observation) Step {
	if !s.started {
		s.started = true
		off, _ := s.p.Off(o.Signals)
		trigger := map[string]*int{"min_critic": &s.critic, "max_rejected_turns": &s.rejected, "spiral_rejections": &s.spiral, "room_streak": &s.streak}
		for _, key := range off {
			*trigger[key] = 0
		}
	}
	reset := NoReset
	if o.Score != s.score {
		s.score, s.anchor, reset = o.Score, t, ScoreChange
	}
	i := t % s.c
	s.critics[i] = int(math.RoundToEven(o.Critic * 100)) // exact: a float32 times 100 fits a float64
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
		why = append(why, fmt.Sprintf("score %d unchanged over %d checkpoint%s (since turn %d)", s.score, s.flatRun, plural, t-s.flatRun*s.c))
	}
	if s.critic > 0 {
		sum := 0
		for _, h := range s.critics {
			sum += h
		}
		if sum < s.critic*s.c {
			why = append(why, fmt.Sprintf("mean critic %.3f < %s", float64(sum)/float64(100*s.c), hundredths(s.critic)))
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

// supervisorLabels are the short names of the supervisor's settings in
// Policy.String, by key.
var supervisorLabels = map[string]string{"checkpoint": "checkpoint", "flat_checkpoints": "flat", "min_critic": "critic",
	"max_rejected_turns": "rejected", "spiral_rejections": "spiral", "room_streak": "streak"}

// supervisorString is the tail of Policy.String for the supervisor: each
// setting that differs from its default, "checkpoint 50 critic 0.4 streak
// off".
func (p Policy) supervisorString() string {
	var b strings.Builder
	for i := range dimensions {
		d := &dimensions[i]
		label, ok := supervisorLabels[d.Key]
		if !ok || !d.Has(p.Name) {
			continue
		}
		switch v := d.Get(&p.Params); {
		case v == d.Default:
		case v == 0 && d.Off:
			fmt.Fprintf(&b, " %s off", label)
		default:
			fmt.Fprintf(&b, " %s %s", label, d.Format(v))
		}
	}
	return b.String()
}

// hundredths writes a value kept in hundredths as users give it: 50 is 0.5.
func hundredths(v int) string {
	for i := range dimensions {
		if d := &dimensions[i]; d.Key == "min_critic" {
			return d.Format(v)
		}
	}
	return fmt.Sprint(v)
}
