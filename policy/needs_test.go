package policy

import (
	"slices"
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
