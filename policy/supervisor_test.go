package policy

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
)

// allSignals are the signals of a ZorkGPT2 log: critic, rejections, rooms.
var allSignals = episode.Signals(0).With(episode.Critic, episode.Rejections, episode.Rooms)

// healthy is a turn the supervisor finds nothing wrong with: the score rises
// by 1 every 20 turns, the critic gives 0.7, nothing is rejected, and the
// room changes every turn.
func healthy(t int) Observation {
	return Observation{Score: episode.Score(t / 20), Critic: 0.7, Location: fmt.Sprintf("room %d", t), Signals: allSignals}
}

// supervise replays spec (Parse's form) over turns 1..n whose observations
// change healthy: it returns the stop turn (0 none) and its reason.
func supervise(t *testing.T, spec string, n int, change func(t int, o *Observation)) (int, string) {
	t.Helper()
	p, err := Parse(spec, nil)
	if err != nil {
		t.Fatalf("Parse(%q): %v", spec, err)
	}
	tr := p.NewTracker()
	for turn := 1; turn <= n; turn++ {
		o := healthy(turn)
		if change != nil {
			change(turn, &o)
		}
		if s := tr.Step(turn, o); s.Terminate {
			return turn, s.Reason
		}
	}
	return 0, ""
}

// only is the supervisor with every trigger off but the one given.
func only(setting string) string {
	var s []string
	for _, k := range (Policy{Name: Supervisor}).Kind().Settings[1:] {
		if k.Key != strings.SplitN(setting, "=", 2)[0] {
			s = append(s, k.Key+"=0")
		}
	}
	return "supervisor:" + strings.Join(append(s, setting), ":")
}

// TestSupervisorTriggers works each trigger out by hand. The checkpoints are
// 25, 50, 75, … unless a case sets another; the window of checkpoint T is the
// turns T−24 … T.
func TestSupervisorTriggers(t *testing.T) {
	flat := func(t int, o *Observation) { o.Score = 0 }
	for _, c := range []struct {
		name   string
		spec   string
		change func(t int, o *Observation)
		turn   int
		reason string
	}{
		{"healthy, every trigger on", "supervisor", nil, 0, ""},
		// Score 0 throughout: delta 0 at 25 (from the start's 0) and at 50.
		{"flat at defaults", "supervisor", flat, 50, "score 0 unchanged over 2 checkpoints (since turn 0)"},
		// +5 at 30: deltas 0 (25), 5 (50), 0 (75), 0 (100).
		{"flat after a gain", only("flat_checkpoints=2"), func(t int, o *Observation) { o.Score = episode.Score(b2i(t >= 30) * 5) }, 100,
			"score 5 unchanged over 2 checkpoints (since turn 50)"},
		// +5 at 30, back to 0 at 40 (a death): the deltas compare the scores
		// at the checkpoints, 0 at 25 and 0 at 50.
		{"flat over a gain lost again", only("flat_checkpoints=2"), func(t int, o *Observation) { o.Score = episode.Score(b2i(t >= 30 && t < 40) * 5) }, 50,
			"score 0 unchanged over 2 checkpoints (since turn 0)"},
		{"flat, one checkpoint", only("flat_checkpoints=1"), flat, 25, "score 0 unchanged over 1 checkpoint (since turn 0)"},
		{"flat off", only("flat_checkpoints=0"), flat, 0, ""},
		{"flat, checkpoint 10", only("flat_checkpoints=2") + ":checkpoint=10", flat, 20, "score 0 unchanged over 2 checkpoints (since turn 0)"},
		// Mean critic: 0.45 < 0.5 at 25; exactly 0.5 is not below.
		{"critic below", only("min_critic=0.5"), func(t int, o *Observation) { o.Critic = 0.45 }, 25, "mean critic 0.450 < 0.5"},
		{"critic at the threshold", only("min_critic=0.5"), func(t int, o *Observation) { o.Critic = 0.5 }, 0, ""},
		// 12 turns of 0.40 and 13 of 0.59: 480 + 767 = 1247 hundredths < 25 × 50.
		{"critic just below", only("min_critic=0.5"), func(t int, o *Observation) { o.Critic = []float64{0.59, 0.4}[b2i(t%25 < 12)] },
			25, "mean critic 0.499 < 0.5"},
		// The critic of the turns 26…50 only: 0.9 before, 0.3 after 25.
		{"critic window", only("min_critic=0.6"), func(t int, o *Observation) { o.Critic = []float64{0.9, 0.3}[b2i(t > 25)] }, 50,
			"mean critic 0.300 < 0.6"},
		{"critic off", only("min_critic=0"), func(t int, o *Observation) { o.Critic = 0 }, 0, ""},
		// A log without critic scores: the trigger is off, never read as 0.
		{"critic not logged", only("min_critic=0.5"), func(t int, o *Observation) {
			o.Critic, o.Signals = 0, episode.Signals(0).With(episode.Rejections, episode.Rooms)
		}, 0, ""},
		// Turns with a rejection: 8 of 25 > 7 stops, 7 does not.
		{"8 rejected turns", only("max_rejected_turns=7"), func(t int, o *Observation) { o.Rejections = b2i(t%25 < 8) }, 25,
			"8 of the last 25 turns had rejections (> 7)"},
		{"7 rejected turns", only("max_rejected_turns=7"), func(t int, o *Observation) { o.Rejections = b2i(t%25 < 7) }, 0, ""},
		{"rejected turns off", only("max_rejected_turns=0"), func(t int, o *Observation) { o.Rejections = 1 }, 0, ""},
		// One turn with 3 rejections (turn 56) stops at the next checkpoint.
		{"spiral", only("spiral_rejections=3"), func(t int, o *Observation) { o.Rejections = b2i(t == 56) * 3 }, 75,
			"turn 56 had 3 rejections (>= 3)"},
		{"two rejections are no spiral", only("spiral_rejections=3"), func(t int, o *Observation) { o.Rejections = b2i(t%5 == 0) * 2 }, 0, ""},
		{"spiral of 2", only("spiral_rejections=2"), func(t int, o *Observation) { o.Rejections = b2i(t == 30) * 2 }, 50,
			"turn 30 had 2 rejections (>= 2)"},
		{"rejections not logged", only("spiral_rejections=1"), func(t int, o *Observation) {
			o.Rejections, o.Signals = 0, episode.Signals(0).With(episode.Critic, episode.Rooms)
		}, 0, ""},
		// Turns 30…39 in one room: a run of 10 within the window of 50.
		{"room streak", only("room_streak=10"), func(t int, o *Observation) { o.Location = roomOr(t, 30, 39, "Dam Lobby") }, 50,
			"10 turns in a row in one room (>= 10)"},
		// Turns 20…29 in one room: 6 of them in the window of 25 (20…25),
		// 4 in that of 50 (26…29): no window holds 10.
		{"room streak across a checkpoint", only("room_streak=10"), func(t int, o *Observation) { o.Location = roomOr(t, 20, 29, "Dam Lobby") }, 0, ""},
		{"room streak of 9", only("room_streak=10"), func(t int, o *Observation) { o.Location = roomOr(t, 30, 38, "Dam Lobby") }, 0, ""},
		// An unknown room matches none, not even another unknown one.
		{"unknown rooms", only("room_streak=10"), func(t int, o *Observation) { o.Location = "" }, 0, ""},
		{"room streak off", only("room_streak=0"), func(t int, o *Observation) { o.Location = "Dam Lobby" }, 0, ""},
		// Every trigger at once, at the first checkpoint (flat over 1).
		{"several", "supervisor:flat_checkpoints=1", func(t int, o *Observation) {
			o.Score, o.Critic, o.Rejections, o.Location = 0, 0.2, 3, "Dam Lobby"
		}, 25, "score 0 unchanged over 1 checkpoint (since turn 0); mean critic 0.200 < 0.5; 25 of the last 25 turns had rejections (> 7); " +
			"turn 1 had 3 rejections (>= 3); 25 turns in a row in one room (>= 10)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			turn, reason := supervise(t, c.spec, 200, c.change)
			if turn != c.turn || reason != c.reason {
				t.Errorf("%s: stop %d %q, want %d %q", c.spec, turn, reason, c.turn, c.reason)
			}
		})
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// roomOr is room for turns from…to, a room of its own for every other turn.
func roomOr(t, from, to int, room string) string {
	if t >= from && t <= to {
		return room
	}
	return fmt.Sprintf("room %d", t)
}

func TestSupervisorSettings(t *testing.T) {
	for _, c := range []struct {
		spec, want, err string
	}{
		{"supervisor", "supervisor", ""},
		{"supervisor:checkpoint=50,min_critic=0.4,room_streak=0", "supervisor checkpoint 50 critic 0.4 streak off", ""},
		{"supervisor:min-critic=.45,flat_checkpoints=3", "supervisor flat 3 critic 0.45", ""},
		{"supervisor:min_critic=0.455", "", "at most 2 decimal places"},
		{"supervisor:min_critic=half", "", "at most 2 decimal places"},
		{"supervisor:checkpoint=0", "", "checkpoint must be at least 1"},
		{"supervisor:spiral_rejections=-1", "", "spiral_rejections must not be negative"},
		{"supervisor:40/10", "", "policy supervisor has no max_turns_stuck"},
		{"supervisor:max_turns_stuck=40", "", "policy supervisor has no max_turns_stuck"},
		{"score:checkpoint=40", "", "policy score has no checkpoint"},
	} {
		p, err := Parse(c.spec, nil)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("Parse(%q) error %v, want %q", c.spec, err, c.err)
		case c.err == "" && (err != nil || p.String() != c.want):
			t.Errorf("Parse(%q) = %q, %v; want %q", c.spec, p.String(), err, c.want)
		}
	}
	// Policy{Name: Supervisor} has the supervisor's thresholds, and a
	// trigger turned off and on again reads its value back.
	p := Policy{Name: Supervisor}
	for _, s := range p.Kind().Settings {
		if got := p.Get(s); got != s.Default {
			t.Errorf("%s of the supervisor at its defaults: %d, want %d", s.Key, got, s.Default)
		}
		for _, v := range []int{0, s.Default, 1, 77} {
			if got := p.With(s, v).Get(s); got != v {
				t.Errorf("%s: set %d, got %d", s.Key, v, got)
			}
		}
	}
	if got := (Policy{Name: Supervisor}).Window(); got != 25 {
		t.Errorf("the supervisor's window is its checkpoint, 25; got %d", got)
	}
}
