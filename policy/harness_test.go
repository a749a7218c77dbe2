package policy

import (
	"slices"
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
)

func TestNeeds(t *testing.T) {
	obj, rooms := episode.Signals(episode.Objectives), episode.Signals(episode.Rooms)
	off := Policy{Name: Patience}.With(ObjectivePatience, ObjectivesOff)
	for _, c := range []struct {
		p    Policy
		want episode.Signals
	}{
		{Policy{Name: Score}, 0},
		{Policy{Name: Increase}, 0},
		{Policy{Name: None}, 0},
		{Policy{Name: ScoreOrObjective}, obj},
		{Policy{Name: Window}, obj},
		{Policy{Name: Patience}, obj}, // objectives on by default (K = W)
		{off, 0},
		{Policy{Name: Patience}.With(RoomPatience, 30), obj | rooms},
		{off.With(RoomPatience, 30), rooms},
		{Policy{Name: Supervisor}, 0}, // its triggers on other signals are off without them (Off)
		{Policy{Name: Zorkburr}, 0},
	} {
		if got := c.p.Needs(); got != c.want {
			t.Errorf("%s: needs %b, want %b", c.p, got, c.want)
		}
	}
	for _, c := range []struct {
		s    episode.System
		want []Name
	}{
		{episode.ZorkGPT, nil}, // its logs get the commands' defaults
		{episode.Harness, []Name{Score, Increase}},
		{episode.ZorkGPT2, []Name{Score, Supervisor, Zorkburr, Increase}},
	} {
		if got := Offered(c.s); !slices.Equal(got, c.want) {
			t.Errorf("Offered(%s) = %v, want %v", c.s, got, c.want)
		}
	}
}

func TestHarnessBlock(t *testing.T) {
	got, err := Policy{Name: Increase}.HarnessBlock()
	want := `# Stop rule (lbanalyze: increase 40/10), checked after every step:
#   At each step t that is a multiple of 10, stop the run if its score has not risen above
#   its best so far in the last 40 steps (t-40+1 to t); the score after step 1 is the
#   first one compared, so a move during step 1 does not count.
stop_rule = "increase"
max_turns_stuck = 40
check_interval = 10
min_delta = 1
min_turns = 0
`
	if err != nil || got != want {
		t.Errorf("increase 40/10:\n%s%v\nwant\n%s", got, err, want)
	}
	p := Policy{Name: Patience}.With(ObjectivePatience, ObjectivesOff).With(ScoreMode, ScoreIncrease).With(MinDelta, 5).With(MinTurns, 50)
	got, err = p.HarnessBlock()
	for _, s := range []string{"from step 50 on", "risen by at least 5 above the score of its last rise", `score_mode = "increase"`, "objective_patience = -1", "room_patience = 0"} {
		if err != nil || !strings.Contains(got, s) {
			t.Errorf("patience with score settings: %q lacks %q (%v)", got, s, err)
		}
	}
	// zorkburr's counter before or after step t (zorkburr.go): at 6/2 a
	// step t stops the run when no move came in t-5..t or in t-6..t-1.
	got, err = Policy{Name: Zorkburr}.WithTimer(Timer{MaxTurnsStuck: 6, CheckInterval: 2, WarningThreshold: 20}).HarnessBlock()
	want = `# Stop rule (lbanalyze: zorkburr 6/2), checked after every step:
#   At each step t that is a multiple of 2, stop the run if its score has not changed (up
#   or down) in the last 6 steps (t-6+1 to t), or in the 6 steps before step t; the score
#   before step 1 counts as 0, so a move during step 1 counts.
stop_rule = "zorkburr"
max_turns_stuck = 6
check_interval = 2
`
	if err != nil || got != want {
		t.Errorf("zorkburr 6/2:\n%s%v\nwant\n%s", got, err, want)
	}
	// none has no setting: its block is its rule alone.
	got, err = Policy{Name: None}.HarnessBlock()
	want = "# Stop rule (lbanalyze: none), checked after every step:\n#   Never stop the run before its budget: no stop rule.\nstop_rule = \"none\"\n"
	if err != nil || got != want {
		t.Errorf("none:\n%s%v\nwant\n%s", got, err, want)
	}
	for _, q := range []Policy{{Name: Window}, {Name: ScoreOrObjective}, {Name: Patience}, {Name: Supervisor}} {
		if _, err := q.HarnessBlock(); err == nil || !strings.Contains(err.Error(), "needs more than a score") {
			t.Errorf("%s: %v, want an error: it needs objectives", q, err)
		}
	}
}

// none never stops, has no setting for the flags to give (a grid's
// tightest timer, 1/1, included), and is named alone.
func TestNone(t *testing.T) {
	p := New(None, Values{MaxTurnsStuck: 1, CheckInterval: 1, WarningThreshold: 0})
	if p != (Policy{Name: None}) {
		t.Errorf("none took settings: %+v", p)
	}
	tr := p.NewTracker()
	for turn := 1; turn <= 500; turn++ {
		if s := tr.Step(turn, Observation{}); s.Terminate || s.TurnsStuck != 0 {
			t.Fatalf("turn %d: %+v", turn, s)
		}
	}
	if p.String() != "none" {
		t.Errorf("String() = %q", p.String())
	}
}

// The settings a log turns off are those that are on and read a signal it
// lacks: the supervisor's triggers on critic scores, rejections and rooms.
func TestOff(t *testing.T) {
	sup := Policy{Name: Supervisor}
	noSpiral := sup.With(SpiralRejections, 0) // off
	rooms := episode.Signals(episode.Rooms)
	all := episode.Signals(0).With(episode.Critic, episode.Rejections, episode.Rooms)
	for _, c := range []struct {
		p       Policy
		have    episode.Signals
		keys    []string
		lacking []episode.Signal
	}{
		{sup, rooms, []string{"min_critic", "max_rejected_turns", "spiral_rejections"}, []episode.Signal{episode.Critic, episode.Rejections}},
		{noSpiral, rooms, []string{"min_critic", "max_rejected_turns"}, []episode.Signal{episode.Critic, episode.Rejections}},
		{sup, all, nil, nil},
		{sup, 0, []string{"min_critic", "max_rejected_turns", "spiral_rejections", "room_streak"}, []episode.Signal{episode.Rooms, episode.Critic, episode.Rejections}},
		{Policy{Name: Score}, 0, nil, nil},
	} {
		keys, lacking := c.p.Off(c.have)
		if !slices.Equal(keys, c.keys) || !slices.Equal(lacking, c.lacking) {
			t.Errorf("%s on %b: off %v (lacking %v), want %v (%v)", c.p, c.have, keys, lacking, c.keys, c.lacking)
		}
	}
}
