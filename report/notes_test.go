package report

import (
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/policy"
)

// A policy that needs a signal the log lacks is said so once, whatever the
// number of its configs; a policy with what it needs is not.
func TestNotesSayWhatAPolicyLacks(t *testing.T) {
	ep := &episode.Episode{ID: "e", Turns: make([]episode.Turn, 30), Signals: episode.Signals(0).With(episode.Rooms, episode.Rejections),
		Notes: []string{"the source's own"}}
	sup := policy.Policy{Name: policy.Supervisor, Params: policy.DefaultParams()}
	sup2 := sup
	sup2.Checkpoint = 10
	ps := []policy.Policy{{Name: policy.Score, Params: policy.DefaultParams()}, sup, sup2, {Name: policy.ScoreOrObjective, Params: policy.DefaultParams()}}
	e := AnalyseWith(ep, ps, policy.DefaultParams(), Options{CallsPerTurn: 4})
	got := e.Notes()
	want := []string{
		"the source's own",
		"supervisor needs critic scores, which this log does not record: what depends on them is left out of its replay",
		"score-or-objective needs objectives, which this log does not record: what depends on them is left out of its replay",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("notes:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(ep.Notes) != 1 {
		t.Errorf("the episode's own notes changed: %q", ep.Notes)
	}
}
