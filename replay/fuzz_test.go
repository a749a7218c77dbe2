package replay

import (
	"bytes"
	"os"
	"reflect"
	"testing"

	"github.com/lbanalyze/lbanalyze/policy"
)

// FuzzRead feeds the episode builder arbitrary bytes: it must never panic,
// and what it returns must hold together.
func FuzzRead(f *testing.F) {
	sample, err := os.ReadFile("../testdata/samples/episode-2025-06-09T20-04-36.jsonl")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(sample)
	small := write(f, plan{N: 12, Changes: map[int]int{3: 5}, Objectives: map[int][]string{4: {"x"}}, Exceptions: []int{6}, LoopBreak: &v2}.Episode())
	f.Add(small)
	f.Add(small[:len(small)/2])
	f.Add(bytes.ReplaceAll(small, []byte(`"turn": `), []byte(`"turn": -`)))
	f.Add([]byte(`{"event_type": "turn_completed", "turn": 199999, "score": NaN}` + "\n" + `{"extras": {"event_type": "turn_exception", "turn": 1}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		lg := Read(bytes.NewReader(data), "fuzz.jsonl", Options{})
		// In regions (what ReadFile does with a large file), from regions of
		// one byte to a region of the whole input: the same Log.
		if len(data) > 0 {
			region := 1 + int64(data[0])%int64(len(data))
			if got := readRegions(bytes.NewReader(data), int64(len(data)), "fuzz.jsonl", Options{}, region, 2); !reflect.DeepEqual(got, lg) {
				t.Fatalf("regions of %d bytes: differs from Read\n%s", region, firstDifference(got, lg))
			}
		}
		for _, ep := range lg.Episodes {
			if ep.N() < 1 || ep.N() > MaxTurn || ep.SkippedLines > lg.Lines || ep.MissingTurns > ep.N() {
				t.Fatalf("episode with %d turns, %d skipped of %d lines, %d missing", ep.N(), ep.SkippedLines, lg.Lines, ep.MissingTurns)
			}
			for _, p := range []policy.Policy{v1, v2} {
				o := Run(ep, p)
				if o.Length < 1 || o.Length > ep.N() || o.TurnsSaved != ep.N()-o.Length {
					t.Fatalf("%s: length %d, saved %d of %d turns", p, o.Length, o.TurnsSaved, ep.N())
				}
			}
			Check(ep, policy.DefaultParams())
		}
		if len(lg.Episodes) == 0 && len(lg.Rejected) == 0 {
			t.Fatal("neither an episode nor a reason")
		}
	})
}
