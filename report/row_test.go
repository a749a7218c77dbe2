package report

import (
	"bytes"
	"testing"

	"github.com/lbanalyze/lbanalyze/internal/metrics"
	"github.com/lbanalyze/lbanalyze/internal/textout"
	"github.com/lbanalyze/lbanalyze/policy"
)

// A dataset of compacted episodes (their rows only) writes the bytes of one
// of the episodes whole, in every format, whole and as a summary: over the
// bundled episodes, priced, with a gain horizon, under the
// specification's two policies and under two that stop often.
func TestCompactedDatasetWritesTheSame(t *testing.T) {
	opts := Options{Costs: metrics.Costs{CallsPerTurn: 4, CostPerCall: 0.01}, GainHorizon: 30}
	eager := policy.Policy{Name: policy.Score}.WithTimer(policy.Timer{MaxTurnsStuck: 5, CheckInterval: 1})
	for k, pair := range [][]policy.Policy{{score, sor}, {eager, sor.WithTimer(policy.Timer{MaxTurnsStuck: 8, CheckInterval: 2})}} {
		var whole, compacted []Episode
		for _, ep := range bundledEpisodes(t) {
			e := Analyse(ep, pair, policy.DefaultTimer(), opts)
			whole, compacted = append(whole, e.Summarised()), append(compacted, e.Compacted())
		}
		if compacted[0].analysis != nil {
			t.Fatal("a compacted episode holds its analysis")
		}
		a, b := NewDataset(pair[0], pair[1], opts, whole, nil, nil), NewDataset(pair[0], pair[1], opts, compacted, nil, nil)
		rescued, still, fresh := a.Review()
		if n, _, _ := a.Censored(); (k == 0 && n == 0) || len(rescued)+len(still)+len(fresh) == 0 {
			t.Errorf("%s: %d censored, %d to review: the set shows less than it should", pair[0], n, len(rescued)+len(still)+len(fresh))
		}
		for _, format := range textout.Formats {
			for _, summary := range []bool{false, true} {
				if summary && format == "csv" {
					continue
				}
				var want, got bytes.Buffer
				if err := WriteDataset(&want, format, a, summary, nil); err != nil {
					t.Fatal(err)
				}
				if err := WriteDataset(&got, format, b, summary, nil); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(want.Bytes(), got.Bytes()) {
					t.Errorf("%s against %s, %s (summary %v): compacted, %d bytes differ from the whole's %d", pair[0], pair[1], format, summary, got.Len(), want.Len())
				}
			}
		}
	}
}
