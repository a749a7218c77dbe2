package zorkgpt

import (
	"bytes"
	"testing"

	"github.com/lbanalyze/lbanalyze/internal/testlogs"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/replay"
	"github.com/lbanalyze/lbanalyze/source"
)

// FuzzRead feeds the episode builder arbitrary bytes: it must never panic,
// and what it returns must hold together.
func FuzzRead(f *testing.F) {
	testlogs.Seed(f, "../../testdata/samples/episode-e3a.jsonl")
	small := testlogs.Write(f, plan{N: 12, Changes: map[int]int{3: 5}, Objectives: map[int][]string{4: {"x"}}, Exceptions: []int{6}, LoopBreak: &v2}.Episode())
	f.Add(small)
	f.Add(small[:len(small)/2])
	f.Add(bytes.ReplaceAll(small, []byte(`"turn": `), []byte(`"turn": -`)))
	f.Add([]byte(`{"event_type": "turn_completed", "turn": 199999, "score": NaN}` + "\n" + `{"extras": {"event_type": "turn_exception", "turn": 1}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		lg := Read(bytes.NewReader(data), "fuzz.jsonl", Options{})
		for _, ep := range lg.Episodes {
			if ep.N() < 1 || ep.N() > source.MaxTurn || ep.SkippedLines > lg.Lines || ep.MissingTurns > ep.N() {
				t.Fatalf("episode with %d turns, %d skipped of %d lines, %d missing", ep.N(), ep.SkippedLines, lg.Lines, ep.MissingTurns)
			}
			for _, p := range []policy.Policy{v1, v2} {
				o := replay.Run(ep, p)
				if o.Length < 1 || o.Length > ep.N() || o.TurnsSaved != ep.N()-o.Length {
					t.Fatalf("%s: length %d, saved %d of %d turns", p, o.Length, o.TurnsSaved, ep.N())
				}
			}
			replay.Check(ep, policy.DefaultTimer(), replay.Recorder{Rules: []policy.Name{policy.Score, policy.ScoreOrObjective},
				Accepts: func(w, i int) bool { return w >= i }})
		}
		if len(lg.Episodes) == 0 && len(lg.Rejected) == 0 {
			t.Fatal("neither an episode nor a reason")
		}
	})
}
