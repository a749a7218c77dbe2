// Package testlogs holds what the tests of several packages do alike with
// logs: render synthetic ZorkGPT logs, read a sample a source must claim,
// seed a fuzz test with files, read fuzzed bytes holding every episode to a
// step and an id, write a test's file, hold a step timed before the start,
// list and read tau2 results files, build a ticked trial, and name the two
// rules ZorkGPT shipped. It imports no source of its own (nor corpus, which
// imports them all), so that every source's tests can use it.
package testlogs

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/realdata"
	"github.com/lbanalyze/lbanalyze/internal/synth"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/source"
)

// The two rules ZorkGPT shipped (v1's and v2's), at their default settings.
var (
	Score            = policy.Policy{Name: policy.Score}
	ScoreOrObjective = policy.Policy{Name: policy.ScoreOrObjective}
)

// WriteFile writes body to the file name in dir, and is its path.
func WriteFile(t testing.TB, dir, name, body string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// Write renders episodes one after another, as one ZorkGPT log.
func Write(t testing.TB, eps ...*synth.Episode) []byte {
	t.Helper()
	var buf bytes.Buffer
	for _, e := range eps {
		if _, err := synth.Write(&buf, e); err != nil {
			t.Fatal(err)
		}
	}
	return buf.Bytes()
}

// ReadFile reads the log at path with src, which must claim it.
func ReadFile(t testing.TB, src source.Source, path string) ([]*episode.Episode, *source.Result) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !src.Claims(data[:min(len(data), source.HeadSize)]) {
		t.Fatalf("%s is not claimed", path)
	}
	return source.ReadAll(src, bytes.NewReader(data), path, source.Options{})
}

// Seed adds the bytes of each file at paths to f's seed corpus.
func Seed(f *testing.F, paths ...string) {
	f.Helper()
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
}

// Fuzzed reads data, whatever the bytes, as src would a file of that name:
// it never panics, and every episode read has a step and an id. It returns
// what it read for a source's own checks.
func Fuzzed(t testing.TB, src source.Source, data []byte, name string) ([]*episode.Episode, *source.Result) {
	t.Helper()
	_ = src.Claims(data[:min(len(data), source.HeadSize)])
	eps, res := source.ReadAll(src, bytes.NewReader(data), name, source.Options{})
	for _, ep := range eps {
		if ep.N() == 0 || ep.ID == "" {
			t.Fatalf("episode %q of %d turns", ep.ID, ep.N())
		}
	}
	return eps, res
}

// Tau2Runs are the results files of τ²-bench's leaderboard runs
// (shared/external/tau2), its .earlier- versions of a run left out; the
// test skips, saying so, when they are absent.
func Tau2Runs(t testing.TB) []string {
	t.Helper()
	dir := realdata.External(t, "tau2")
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*.json"))
	return slices.DeleteFunc(files, func(f string) bool { return strings.Contains(f, ".earlier-") })
}

// Tau2Simulations are the simulations of a tau2 results file, the bare list
// or the summary object's, each read into a T whole by encoding/json: a
// reading independent of the source's own.
func Tau2Simulations[T any](t testing.TB, path string) []T {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var list []T
	if len(data) > 0 && data[0] == '[' {
		err = json.Unmarshal(data, &list)
	} else {
		var doc struct {
			Simulations []T `json:"simulations"`
		}
		err = json.Unmarshal(data, &doc)
		list = doc.Simulations
	}
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return list
}

// Trial is a terminal-bench run judged by its result (the format is
// terminalbench.Format, which testlogs does not import): ticks of 30 s
// until d seconds, the last one shorter, at least one; ending as end says,
// solved when solved.
func Trial(id string, d float64, end episode.EndReason, solved bool) *episode.Episode {
	n := max(1, int(math.Ceil(d/30)))
	ep := &episode.Episode{ID: id, Format: "terminal-bench", Tick: 30, Signals: episode.Signals(episode.Times),
		Turns: make([]episode.Turn, n), End: episode.End{Reason: end, Turn: n}}
	for i := range ep.Turns {
		ep.Turns[i].Elapsed = min(float64(30*(i+1)), d)
	}
	r := episode.Score(0)
	if solved {
		r = 1
	}
	ep.SetResult(&r)
	return ep
}

// EarlyStep reads doc, named name, with src: one run whose two agent steps
// are timed at −2 s and 4 s from its start. The first's time is not used,
// so the run's times are unknown, with a note beginning note
// (docs/bad-input.md, "Every case"). It is the run.
func EarlyStep(t testing.TB, src source.Source, doc, name, note string) *episode.Episode {
	t.Helper()
	eps, _ := source.ReadAll(src, strings.NewReader(doc), name, source.Options{})
	if len(eps) != 1 || eps[0].N() != 2 {
		t.Fatalf("%d episodes, %+v", len(eps), eps)
	}
	ep := eps[0]
	if ep.Turns[0].Elapsed != 0 || ep.Turns[1].Elapsed != 4 {
		t.Errorf("times %v and %v s, want 0 (not used) and 4", ep.Turns[0].Elapsed, ep.Turns[1].Elapsed)
	}
	if ep.Signals.Has(episode.Times) || !slices.ContainsFunc(ep.Notes, func(n string) bool { return strings.HasPrefix(n, note) }) {
		t.Errorf("signals %v, notes %q; want no times and a note beginning %q", ep.Signals.List(), ep.Notes, note)
	}
	return ep
}
