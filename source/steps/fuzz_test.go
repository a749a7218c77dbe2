package steps

import (
	"bytes"
	"os"
	"testing"

	"github.com/lbanalyze/lbanalyze/source"
)

// FuzzRead feeds the per-step reader arbitrary bytes through a field map
// with every optional field, nested keys among them: it must never panic,
// and what it returns must hold together.
func FuzzRead(f *testing.F) {
	harness, err := os.ReadFile("../../testdata/steps/harness.jsonl")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(harness)
	f.Add(harness[:len(harness)/2])
	f.Add([]byte(`{"step": 0, "score": 5, "obs": {"room": "Hall", "text": "-= Restarting =-"}, "usage": {"tokens": 12}}` + "\n" +
		`{"step": 1, "score": NaN, "obs": {"room": 7}, "usage": {"tokens": -1}, "episode": "b"}` + "\n"))
	fields, err := ParseFields("turn=step,score=score,action=act,room=obs.room,tokens=usage.tokens,restart=obs.text,episode=episode")
	if err != nil {
		f.Fatal(err)
	}
	fields.RestartMarker = "-= Restarting =-"
	f.Fuzz(func(t *testing.T, data []byte) {
		eps, res := source.ReadAll(Source{Fields: fields}, bytes.NewReader(data), "fuzz.jsonl", source.Options{})
		for _, ep := range eps {
			if ep.N() < 1 || ep.SkippedLines > res.Lines {
				t.Fatalf("episode of %d turns, %d skipped of %d lines", ep.N(), ep.SkippedLines, res.Lines)
			}
		}
		if len(eps) == 0 && len(res.Rejected) == 0 && len(bytes.TrimSpace(data)) > 0 {
			t.Fatal("neither an episode nor a reason")
		}
	})
}
