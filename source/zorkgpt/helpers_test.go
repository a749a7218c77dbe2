package zorkgpt

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/synth"
	"github.com/lbanalyze/lbanalyze/internal/testlogs"
	"github.com/lbanalyze/lbanalyze/source"
)

var v1, v2 = testlogs.Score, testlogs.ScoreOrObjective

// plan is a test episode: see synth.Steps.
type plan = synth.Steps

// Log is what one file yields: its episodes and the rest of the Result.
type Log struct {
	*source.Result
	Episodes []*episode.Episode
}

// Options tune reading.
type Options = source.Options

// Read reads a whole log.
func Read(r io.Reader, name string, opt Options) *Log {
	eps, res := source.ReadAll(Source{}, r, name, opt)
	return &Log{Result: res, Episodes: eps}
}

func read(t testing.TB, data []byte) *Log {
	t.Helper()
	return Read(bytes.NewReader(data), "test.jsonl", Options{})
}

// one reads data and requires exactly one episode.
func one(t testing.TB, data []byte) *episode.Episode {
	t.Helper()
	lg := read(t, data)
	if len(lg.Episodes) != 1 {
		t.Fatalf("got %d episodes (rejected %v), want 1", len(lg.Episodes), lg.Rejected)
	}
	return lg.Episodes[0]
}

func problems(ep *episode.Episode) string {
	var s []string
	for _, p := range ep.Problems {
		s = append(s, p.String())
	}
	return strings.Join(s, "\n")
}

// readFile reads a whole log file.
func readFile(path string, stdin io.Reader, opt Options) (*Log, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, path, opt), nil
}

func eraOf(ep *episode.Episode) string       { return ep.Fact("era") }
func loopBreakOf(ep *episode.Episode) string { return ep.Fact("recorded_loop_break") }
