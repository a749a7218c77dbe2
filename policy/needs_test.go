package policy

import (
	"slices"
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
		{Policy{Supervisor, d}, 0}, // its triggers on other signals are off without them (Off)
		{Policy{Zorkburr, d}, 0},
	} {
		if got := c.p.Needs(); got != c.want {
			t.Errorf("%s: needs %b, want %b", c.p, got, c.want)
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

// The settings a log turns off are those that are on and read a signal it
// lacks: the supervisor's triggers on critic scores, rejections and rooms.
func TestOff(t *testing.T) {
	sup := Policy{Supervisor, DefaultParams()}
	noSpiral := sup
	noSpiral.SpiralRejections = -1 // spiral_rejections = 0: off (Dimension.Set)
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
		{Policy{Score, DefaultParams()}, 0, nil, nil},
	} {
		keys, lacking := c.p.Off(c.have)
		if !slices.Equal(keys, c.keys) || !slices.Equal(lacking, c.lacking) {
			t.Errorf("%s on %b: off %v (lacking %v), want %v (%v)", c.p, c.have, keys, lacking, c.keys, c.lacking)
		}
	}
}
