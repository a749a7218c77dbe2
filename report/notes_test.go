package report

import (
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/metrics"
	"github.com/lbanalyze/lbanalyze/policy"
)

// The notes say, once a policy whatever the number of its configs, what the
// log lacks: a policy that needs it is not replayed, a setting that only
// reads it is off (the supervisor's min_critic, on a log with rooms and
// rejections but no critic scores); a policy with what it needs is not named.
func TestNotesSayWhatAPolicyLacks(t *testing.T) {
	ep := &episode.Episode{ID: "e", Turns: make([]episode.Turn, 30), Signals: episode.Signals(0).With(episode.Rooms, episode.Rejections),
		Notes: []string{"the source's own"}}
	sup := policy.Policy{Name: policy.Supervisor}
	sup2 := sup.With(policy.Checkpoint, 10)
	ps := []policy.Policy{{Name: policy.Score}, sup, sup2, {Name: policy.ScoreOrObjective}}
	e := analyseReplayable(ep, ps, Options{Costs: metrics.Costs{CallsPerTurn: 4}})
	got := e.Notes()
	want := []string{
		"the source's own",
		"score-or-objective needs objectives, which this log does not record: not replayed",
		"supervisor needs critic scores, which this log does not record: min_critic is off",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("notes:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(e.Outcomes) != 3 {
		t.Errorf("%d outcomes, want score and both supervisors", len(e.Outcomes))
	}
	if len(ep.Notes) != 1 {
		t.Errorf("the episode's own notes changed: %q", ep.Notes)
	}
	// A trigger turned off by its setting reads nothing: no note.
	off := sup.With(policy.MinCritic, 0)
	if e := analyseReplayable(ep, []policy.Policy{off}, Options{Costs: metrics.Costs{CallsPerTurn: 4}}); len(e.Notes()) != 1 {
		t.Errorf("supervisor with min_critic off: notes %q, want only the source's", e.Notes())
	}
}
