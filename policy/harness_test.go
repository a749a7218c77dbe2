package policy

import (
	"slices"
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
)

func TestNeeds(t *testing.T) {
	obj, rooms := episode.Signals(episode.Objectives), episode.Signals(episode.Rooms)
	d := DefaultParams()
	off := d
	off.ObjectivePatience = ObjectivesOff
	roomsOn := d
	roomsOn.RoomPatience = 30
	roomsOnly := off
	roomsOnly.RoomPatience = 30
	for _, c := range []struct {
		p    Policy
		want episode.Signals
	}{
		{Policy{Score, d}, 0},
		{Policy{Increase, d}, 0},
		{Policy{None, d}, 0},
		{Policy{ScoreOrObjective, d}, obj},
		{Policy{Window, d}, obj},
		{Policy{Patience, d}, obj}, // objectives on by default (K = W)
		{Policy{Patience, off}, 0},
		{Policy{Patience, roomsOn}, obj | rooms},
		{Policy{Patience, roomsOnly}, rooms},
	} {
		if got := c.p.Needs(); got != c.want {
			t.Errorf("%s: needs %b, want %b", c.p, got, c.want)
		}
	}
	if got := HarnessDefaults(); !slices.Equal(got, []Name{Score, Increase}) {
		t.Errorf("HarnessDefaults() = %v, want score, increase", got)
	}
}

func TestHarnessBlock(t *testing.T) {
	got, err := Policy{Increase, DefaultParams()}.HarnessBlock()
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
	p := DefaultParams()
	p.ObjectivePatience, p.ScoreMode, p.MinDelta, p.MinTurns = ObjectivesOff, ScoreIncrease, 5, 50
	got, err = Policy{Patience, p}.HarnessBlock()
	for _, s := range []string{"from step 50 on", "risen by at least 5 above the score of its last rise", `score_mode = "increase"`, "objective_patience = -1", "room_patience = 0"} {
		if err != nil || !strings.Contains(got, s) {
			t.Errorf("patience with score settings: %q lacks %q (%v)", got, s, err)
		}
	}
	for _, q := range []Policy{{Window, DefaultParams()}, {ScoreOrObjective, DefaultParams()}, {Patience, DefaultParams()}} {
		if _, err := q.HarnessBlock(); err == nil || !strings.Contains(err.Error(), "needs more than a score") {
			t.Errorf("%s: %v, want an error: it needs objectives", q, err)
		}
	}
}

// none never stops at a setting a replay accepts, and is named alone.
func TestNone(t *testing.T) {
	p := Policy{None, Params{MaxTurnsStuck: 1, CheckInterval: 1}}
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
