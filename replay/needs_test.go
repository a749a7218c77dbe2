package replay

import (
	"reflect"
	"slices"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/policy"
)

func TestNeedsRule(t *testing.T) {
	zork := &episode.Episode{ID: "z", Format: "zorkgpt", Signals: episode.Signals(0).With(episode.Objectives, episode.Rooms)}
	tales := &episode.Episode{ID: "t", Format: "tales", Signals: episode.Signals(0).With(episode.Tokens)}
	tales2 := &episode.Episode{ID: "u", Format: "tales"}
	score, soo, window := policy.Policy{Name: policy.Score}, policy.Policy{Name: policy.ScoreOrObjective}, policy.Policy{Name: policy.Window}
	soo60 := soo.With(policy.MaxTurnsStuck, 60)

	// episode: left out of the results, one note a name whatever its settings.
	all := []policy.Policy{score, soo, soo60, window}
	kept, notes := slices.Collect(Replayable(tales, slices.Values(all))), Unreplayable(tales, slices.Values(all))
	if !reflect.DeepEqual(kept, []policy.Policy{score}) || !reflect.DeepEqual(notes, []string{
		"score-or-objective needs objectives, which this log does not record: not replayed",
		"window needs objectives, which this log does not record: not replayed"}) {
		t.Errorf("Replayable: %v, %q", kept, notes)
	}
	if kept, notes := slices.Collect(Replayable(zork, slices.Values(all[:2]))), Unreplayable(zork, slices.Values(all[:2])); len(kept) != 2 || notes != nil {
		t.Errorf("Replayable on ZorkGPT's log: %v, %q", kept, notes)
	}

	// batch: the episodes either side cannot replay are left out.
	eps, notes := Comparable([]*episode.Episode{zork, tales, tales2}, []policy.Policy{score, soo}, "left out of the comparison")
	if !reflect.DeepEqual(eps, []*episode.Episode{zork}) || !reflect.DeepEqual(notes, []string{
		"score-or-objective 40/10 needs objectives, which the logs of 2 episodes (tales) do not record: left out of the comparison"}) {
		t.Errorf("Comparable: %v, %q", eps, notes)
	}

	// sweep: the configs some episode cannot replay are left out.
	configs, notes := Sweepable([]*episode.Episode{zork, tales}, []policy.Policy{score, soo, soo60, window})
	if !reflect.DeepEqual(configs, []policy.Policy{score}) || !reflect.DeepEqual(notes, []string{
		"score-or-objective needs objectives, which the log of t (tales) does not record: its configs are left out of the grid",
		"window needs objectives, which the log of t (tales) does not record: its configs are left out of the grid"}) {
		t.Errorf("Sweepable: %v, %q", configs, notes)
	}

	// The supervisor's triggers on a signal a log lacks are off, not its
	// configs left out: said once, whatever its configs, naming every
	// setting off and every log.
	sup := policy.Policy{Name: policy.Supervisor}
	sup50 := sup.With(policy.Checkpoint, 50)
	configs, notes = Sweepable([]*episode.Episode{zork, tales}, []policy.Policy{score, sup, sup50})
	if !reflect.DeepEqual(configs, []policy.Policy{score, sup, sup50}) || !reflect.DeepEqual(notes, []string{
		"supervisor needs rooms, critic scores and rejections, which the logs of 2 episodes (tales, zorkgpt) do not record: " +
			"min_critic, max_rejected_turns, spiral_rejections and room_streak are off"}) {
		t.Errorf("Sweepable, supervisor: %v, %q", configs, notes)
	}
	eps, notes = Comparable([]*episode.Episode{zork, tales}, []policy.Policy{score, sup}, "left out of the comparison")
	if len(eps) != 2 || !reflect.DeepEqual(notes, []string{
		"supervisor needs rooms, critic scores and rejections, which the logs of 2 episodes (tales, zorkgpt) do not record: " +
			"min_critic, max_rejected_turns, spiral_rejections and room_streak are off"}) {
		t.Errorf("Comparable, supervisor: %v, %q", eps, notes)
	}
}
