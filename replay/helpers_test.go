package replay

import (
	"bytes"
	"os"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/synth"
	"github.com/lbanalyze/lbanalyze/internal/testlogs"
	"github.com/lbanalyze/lbanalyze/source"
	"github.com/lbanalyze/lbanalyze/source/zorkgpt"
)

var v1, v2 = testlogs.Score, testlogs.ScoreOrObjective

// plan is a test episode: see synth.Steps.
type plan = synth.Steps

// one reads a ZorkGPT log that must hold exactly one episode.
func one(t testing.TB, data []byte) *episode.Episode {
	t.Helper()
	eps, res := source.ReadAll(zorkgpt.Source{}, bytes.NewReader(data), "test.jsonl", source.Options{})
	if len(eps) != 1 {
		t.Fatalf("got %d episodes (rejected %v), want 1", len(eps), res.Rejected)
	}
	return eps[0]
}

// readFile reads the episodes of a ZorkGPT log file.
func readFile(t testing.TB, path string) []*episode.Episode {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	eps, _ := source.ReadAll(zorkgpt.Source{}, bytes.NewReader(data), path, source.Options{})
	return eps
}
