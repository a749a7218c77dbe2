package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// episodeSummary is what these tests read of `episode --format json`.
type episodeSummary struct {
	ID      string `json:"episode_id"`
	Skipped int    `json:"skipped_lines"`
	Turns   int    `json:"turns"`
}

// episodeJSON runs `lbanalyze episode --format json` on paths (stdin for -)
// and returns the episodes and the standard error.
func episodeJSON(t *testing.T, stdin []byte, paths ...string) ([]episodeSummary, string) {
	t.Helper()
	var out, stderr bytes.Buffer
	if code := run(append([]string{"episode", "--format", "json"}, paths...), bytes.NewReader(stdin), &out, &stderr); code != 0 {
		t.Fatalf("episode: exit %d: %s", code, stderr.String())
	}
	var eps []episodeSummary
	if err := json.Unmarshal(out.Bytes(), &eps); err != nil {
		t.Fatal(err)
	}
	return eps, stderr.String()
}

// What `synth --out -` writes, `episode -` reads: one episode per id, no line
// skipped.
func TestSynthToEpisode(t *testing.T) {
	var logs, stderr bytes.Buffer
	if code := run([]string{"synth", "--seed", "5", "--episodes", "3", "--out", "-"}, nil, &logs, &stderr); code != 0 {
		t.Fatalf("synth: exit %d: %s", code, stderr.String())
	}
	eps, warnings := episodeJSON(t, logs.Bytes(), "-")
	if len(eps) != 3 || warnings != "" {
		t.Fatalf("%d episodes read, stderr %q", len(eps), warnings)
	}
	for _, e := range eps {
		if e.Skipped != 0 || e.Turns == 0 || !strings.HasPrefix(e.ID, "2025-") {
			t.Errorf("episode %+v", e)
		}
	}
}

// `lbanalyze episode` reads every committed episode; the only skipped line is
// the killed run's, named in testdata/episodes/README.md.
func TestEpisodeReadsTheBundledSet(t *testing.T) {
	paths, _ := filepath.Glob("../../testdata/episodes/2025-*/episode_log.jsonl")
	if len(paths) != 75 {
		t.Fatalf("%d episodes in testdata/episodes, want 75", len(paths))
	}
	eps, warnings := episodeJSON(t, nil, paths...)
	skipped, killed := 0, ""
	for _, e := range eps {
		skipped += e.Skipped
		if e.Skipped > 0 {
			killed = e.ID
		}
	}
	if len(eps) != 75 || skipped != 1 {
		t.Fatalf("%d episodes, %d skipped lines (want 75 and 1)", len(eps), skipped)
	}
	readme, err := os.ReadFile("../../testdata/episodes/README.md")
	if err != nil || !bytes.Contains(readme, []byte("The only bad line: the run of `"+strings.ReplaceAll(killed, ":", "-")+"`")) {
		t.Errorf("the README does not name %s's bad line (%v)", killed, err)
	}
	// The killed run is deliberate: said once, in a line of its own.
	want := "lbanalyze: note: 1 log ends in a truncated last line, skipped (a run killed while it wrote; the rest analysed): ../../testdata/episodes/" +
		strings.ReplaceAll(killed, ":", "-") + "/episode_log.jsonl:"
	if !strings.HasPrefix(warnings, want) || strings.Count(warnings, "\n") != 1 {
		t.Errorf("stderr should only say %s's truncated last line, in one line:\n%s", killed, warnings)
	}
}
