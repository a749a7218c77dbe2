package patterns

import (
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/replay"
)

// bundled reads every episode of testdata/episodes (ZorkGPT's layout, the
// test directories included: they are logs like any other).
func bundled(t testing.TB) []*replay.Episode {
	t.Helper()
	files, err := filepath.Glob("../testdata/episodes/*/episode_log.jsonl")
	if err != nil || len(files) == 0 {
		t.Fatalf("no bundled episodes: %v", err)
	}
	sort.Strings(files)
	var eps []*replay.Episode
	for _, f := range files {
		lg, err := replay.ReadFile(f, os.Stdin, replay.Options{})
		if err != nil {
			t.Fatal(err)
		}
		eps = append(eps, lg.Episodes...)
	}
	return eps
}

var defaultPolicies = []policy.Policy{
	{Name: policy.Score, Params: policy.DefaultParams()},
	{Name: policy.ScoreOrObjective, Params: policy.DefaultParams()},
}

// TestRevisitAgreesWithLog: the Phase 1B replay reproduces every
// location_penalty_applied of the bundled set (turn, location_id,
// recent_visits), and penalises no turn the log does not.
func TestRevisitAgreesWithLog(t *testing.T) {
	eps := bundled(t)
	withEvents, events := 0, 0
	for _, ep := range eps {
		a := Analyse(ep, DefaultOptions())
		rv := a.Revisit
		if rv.LoggedEvents == 0 {
			continue
		}
		withEvents++
		events += rv.LoggedEvents
		if !rv.Replayed || rv.Agree != rv.LoggedEvents || rv.DisagreementCount != 0 || rv.ConfidenceMismatches != 0 {
			t.Errorf("%s: %d events, %d agree, %d disagreements %+v, %d confidence mismatches",
				ep.Name(), rv.LoggedEvents, rv.Agree, rv.DisagreementCount, rv.Disagreements, rv.ConfidenceMismatches)
		}
	}
	if withEvents == 0 {
		t.Fatal("no bundled episode has location_penalty_applied")
	}
	t.Logf("%d episodes with %d location_penalty_applied events", withEvents, events)
}
