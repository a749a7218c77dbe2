package atif

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/testlogs"
	"github.com/lbanalyze/lbanalyze/source"
)

// TestVersions reads the samples of each schema version
// (testdata/atif/<version>/trial), the same run worked out by hand: its
// agent steps, the 3rd to 5th, call bash with the same arguments twice
// (keys written in either order: one canonical action) and then answer;
// 100+10, 200+20 and 250+5 tokens (cached tokens are among the prompt's);
// 0.001, 0.002 and 0.0005 dollars; ending 2, 5 and 6 s after the first
// step. Each result comes from another place.
func TestVersions(t *testing.T) {
	cases := []struct {
		version string
		id      string
		judged  episode.Judged
		result  episode.Score
		end     episode.EndReason
		task    string
	}{
		{"v1.2", "session-ATIF-v1.2", episode.ByResult, 1, episode.EndGameOver, ""},           // verifier/reward.txt
		{"v1.3", "session-ATIF-v1.3", episode.ByResult, 0, episode.EndGameOver, ""},           // verifier/reward.txt
		{"v1.4", "session-ATIF-v1.4", episode.ByResult, 0.5, episode.EndGameOver, ""},         // verifier/reward.json
		{"v1.5", "session-ATIF-v1.5", episode.ByResult, 1, episode.EndGameOver, "list-files"}, // result.json
		{"v1.6", "session-ATIF-v1.6", episode.ByResult, 0, episode.EndCap, "list-files"},      // result.json, AgentTimeoutError
		{"v1.7", "session-ATIF-v1.7", episode.ByUnknownResult, 0, episode.EndNone, ""},        // no result beside it
	}
	actions := []string{`bash {"duration":1,"keystrokes":"ls\n"}`, `bash {"duration":1,"keystrokes":"ls\n"}`, "The file is a.txt."}
	tokens := []int64{110, 220, 255}
	costs := []float64{0.001, 0.002, 0.0005}
	elapsed := []float64{2, 5, 6}
	for _, c := range cases {
		eps, res := testlogs.ReadFile(t, Source{}, filepath.Join("..", "..", "testdata", "atif", c.version, "trial", "agent", "trajectory.json"))
		if len(eps) != 1 || res.Cut != nil || len(res.Rejected) > 0 {
			t.Fatalf("%s: %d episodes, %+v", c.version, len(eps), res)
		}
		ep := eps[0]
		if ep.ID != c.id || ep.Judged != c.judged || ep.FinalScore() != c.result || ep.End.Reason != c.end || ep.Fact("task") != c.task ||
			ep.Fact("model") != "example-model" || ep.Fact("schema_version") != "ATIF-"+c.version {
			t.Errorf("%s: id %q, judged %d, result %v, end %s, facts %+v", c.version, ep.ID, ep.Judged, ep.FinalScore(), ep.End.Reason, ep.Facts)
		}
		if !ep.Signals.Has(episode.Tokens, episode.Costs, episode.Times, episode.Responses) || ep.N() != 3 {
			t.Errorf("%s: %d turns, signals %v", c.version, ep.N(), ep.Signals.List())
			continue
		}
		for i, tu := range ep.Turns {
			if tu.Action != actions[i] || tu.Tokens != tokens[i] || math.Abs(tu.Cost-costs[i]) > 1e-12 || tu.Elapsed != elapsed[i] {
				t.Errorf("%s step %d: %q, %d tokens, %v dollars, at %v s", c.version, i+1, tu.Action, tu.Tokens, tu.Cost, tu.Elapsed)
			}
		}
		if h := ep.Turns; h[0].ResponseHash != h[1].ResponseHash || h[1].ResponseHash == h[2].ResponseHash {
			t.Errorf("%s: response hashes %x %x %x", c.version, h[0].ResponseHash, h[1].ResponseHash, h[2].ResponseHash)
		}
	}
}

// TestBadSteps: a step of the wrong types is named by its line and
// skipped, the others read; a trajectory without an agent step is
// rejected, saying why; one cut says where.
func TestBadSteps(t *testing.T) {
	doc := "{\"schema_version\": \"ATIF-v1.4\", \"session_id\": \"s\", \"steps\": [\n{\"source\": \"agent\", \"message\": \"a\"},\n{\"source\": 7},\n{\"source\": \"agent\", \"message\": \"b\"}]}"
	eps, _ := source.ReadAll(Source{}, strings.NewReader(doc), "t.json", source.Options{})
	if len(eps) != 1 || eps[0].N() != 2 || eps[0].SkippedLines != 1 || len(eps[0].Problems) != 1 || eps[0].Problems[0].Line != 3 {
		t.Fatalf("%d episodes, %+v", len(eps), eps)
	}
	_, res := source.ReadAll(Source{}, strings.NewReader(`{"schema_version": "ATIF-v1.4", "steps": [{"source": "user", "message": "hi"}]}`), "t.json", source.Options{})
	if len(res.Rejected) != 1 || !strings.Contains(res.Rejected[0].Reason, "no step of source agent") {
		t.Errorf("rejected %+v", res.Rejected)
	}
	eps, res = source.ReadAll(Source{}, strings.NewReader("{\"schema_version\": \"ATIF-v1.4\", \"steps\": [{\"source\": \"agent\", \"message\": \"a\"},\n{\"sou"), "t.json", source.Options{})
	if len(eps) != 1 || res.Cut == nil || !strings.Contains(res.Cut.Msg, "line 2") {
		t.Errorf("%d episodes, cut %+v", len(eps), res.Cut)
	}
}

// A step timed before the first is bad input (docs/bad-input.md): named by
// its line, its time not used, the rest read. Worked by hand: the user's step
// at 10:00:05 is the start; the agent's at 10:00:03 (line 3) would be at
// −2 s: no time, a problem; the agent's at 10:00:09 is at 4 s. One of the two
// agent steps is untimed, so the trajectory's times are not known.
func TestStepBeforeTheStart(t *testing.T) {
	doc := "{\"schema_version\": \"ATIF-v1.4\", \"session_id\": \"s\", \"steps\": [\n" +
		"{\"source\": \"user\", \"message\": \"go\", \"timestamp\": \"2025-01-01T10:00:05Z\"},\n" +
		"{\"source\": \"agent\", \"message\": \"a\", \"timestamp\": \"2025-01-01T10:00:03Z\"},\n" +
		"{\"source\": \"agent\", \"message\": \"b\", \"timestamp\": \"2025-01-01T10:00:09Z\"}]}"
	ep := testlogs.EarlyStep(t, Source{}, doc, "t.json", "1 of the 2 agent steps")
	if len(ep.Problems) != 1 || ep.Problems[0].Line != 3 || ep.Problems[0].Skipped || ep.SkippedLines != 0 ||
		!strings.Contains(ep.Problems[0].Msg, "before the first step") {
		t.Errorf("problems %+v, %d lines skipped; want one at line 3, nothing skipped", ep.Problems, ep.SkippedLines)
	}
}

// TestPublic reads public ATIF trajectories fetched outside the repository
// (LBANALYZE_ATIF: a directory of Harbor jobs, such as
// refreshdotdev/harbor-trajectories' jobs/): every trajectory.json with an
// agent step is read whole, with no problem, and judged when its trial has a
// verifier result.
func TestPublic(t *testing.T) {
	dir := os.Getenv("LBANALYZE_ATIF")
	if dir == "" {
		t.Skip("LBANALYZE_ATIF names no directory of public ATIF trajectories: skipped")
	}
	read, judged := 0, 0
	filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err != nil || e.Name() != "trajectory.json" {
			return err
		}
		eps, res := testlogs.ReadFile(t, Source{}, p)
		if res.Cut != nil || len(eps) == 1 && eps[0].ProblemCount > 0 {
			t.Errorf("%s: cut %+v, %d problems", p, res.Cut, eps[0].ProblemCount)
		}
		for _, ep := range eps {
			read++
			if _, ok := ep.Result(); ok {
				judged++
			}
		}
		return nil
	})
	if read == 0 {
		t.Errorf("no trajectory read under %s", dir)
	}
	t.Logf("%d trajectories read, %d judged", read, judged)
}

// FuzzRead: whatever the bytes, reading never panics and an episode read
// has an agent step and an id.
func FuzzRead(f *testing.F) {
	for _, v := range []string{"v1.2", "v1.6", "v1.7"} {
		testlogs.Seed(f, filepath.Join("..", "..", "testdata", "atif", v, "trial", "agent", "trajectory.json"))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		testlogs.Fuzzed(t, Source{}, data, "-")
	})
}
