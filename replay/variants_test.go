package replay

import (
	"path/filepath"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/policy"
)

// bundledAndFixtures reads every bundled episode and every fixture log.
func bundledAndFixtures(t *testing.T) []*episode.Episode {
	t.Helper()
	a, _ := filepath.Glob("../testdata/episodes/*/episode_log.jsonl")
	b, _ := filepath.Glob("../cmd/lbanalyze/testdata/logs/*.jsonl")
	if len(a) == 0 || len(b) == 0 {
		t.Fatalf("found %d bundled episodes and %d fixture logs", len(a), len(b))
	}
	var eps []*episode.Episode
	for _, f := range append(a, b...) {
		eps = append(eps, readFile(t, f)...)
	}
	return eps
}

func allSteps(ep *episode.Episode, p policy.Policy) []policy.Step {
	var s []policy.Step
	Trace(ep, p, func(st policy.Step) { s = append(s, st) })
	return s
}

// TestPatienceReducesToShipped: patience with only its score source is the
// score policy, and with objectives at K = W it is window, step by step
// (resets, anchor, warnings, stop) on every bundled log and several settings.
// increase is patience in mode increase without objectives.
func TestPatienceReducesToShipped(t *testing.T) {
	eps := bundledAndFixtures(t)
	for _, w := range []int{5, 20, 40, 60} {
		for _, iv := range []int{1, 7, 10} {
			base := policy.Timer{MaxTurnsStuck: w, CheckInterval: iv, WarningThreshold: 20}
			patience := policy.Policy{Name: policy.Patience}.WithTimer(base)
			pairs := [][2]policy.Policy{
				{policy.Policy{Name: policy.Score}.WithTimer(base), patience.With(policy.ObjectivePatience, policy.ObjectivesOff)},
				{policy.Policy{Name: policy.Window}.WithTimer(base), patience},
				{policy.Policy{Name: policy.Window}.WithTimer(base), patience.With(policy.ObjectivePatience, w)},
				{policy.Policy{Name: policy.Increase}.WithTimer(base), patience.With(policy.ScoreMode, policy.ScoreIncrease).With(policy.ObjectivePatience, policy.ObjectivesOff)},
			}
			for _, ep := range eps {
				for _, pr := range pairs {
					a, b := allSteps(ep, pr[0]), allSteps(ep, pr[1])
					if len(a) != len(b) {
						t.Fatalf("%s %s: %s runs %d turns, %s %d", ep.Source, ep.Name(), pr[0], len(a), pr[1], len(b))
					}
					for i := range a {
						if a[i] != b[i] {
							t.Fatalf("%s %s turn %d: %s %+v, %s %+v", ep.Source, ep.Name(), i+1, pr[0], a[i], pr[1], b[i])
						}
					}
				}
			}
		}
	}
}

// TestRoomKeys: the tracker sees the room id where the log has one, else a
// negative key of the name, and the starting room.
func TestRoomKeys(t *testing.T) {
	if roomKey(180, "West of House") != 180 || roomKey(0, "") != 0 {
		t.Error("room id or unknown")
	}
	a, b := roomKey(0, "West of House"), roomKey(0, "North of House")
	if a >= 0 || b >= 0 || a == b || a != roomKey(0, "West of House") {
		t.Errorf("name keys %d %d", a, b)
	}
	// The bundled episodes start West of House (180), which counts as
	// visited: a turn anchors the room source exactly when it ends in a room
	// not seen before (objectives off, so the anchor is the score's or the
	// room's).
	p := policy.Policy{Name: policy.Patience}.With(policy.MaxTurnsStuck, 1000).With(policy.ObjectivePatience, policy.ObjectivesOff).With(policy.RoomPatience, 1000)
	for _, ep := range bundledAndFixtures(t)[:5] {
		if ep.InitialRoomID != 180 {
			t.Fatalf("%s: initial room %d", ep.Name(), ep.InitialRoomID)
		}
		seen := map[int]bool{180: true}
		news := 0
		for i, s := range allSteps(ep, p) {
			room := ep.Turns[i].RoomID
			first := !seen[room]
			seen[room] = true
			if first {
				news++
			}
			// A score change anchors the turn whatever the room.
			if s.Reset != policy.ScoreChange && first != (s.Anchor == s.Turn && s.Reset == policy.RoomProgress) {
				t.Errorf("%s turn %d: room %d first visit %v, step %+v", ep.Name(), s.Turn, room, first, s)
			}
		}
		if news == 0 {
			t.Errorf("%s: no first visit", ep.Name())
		}
	}
}
