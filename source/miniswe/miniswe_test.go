package miniswe

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cespare/xxhash/v2"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/testlogs"
	"github.com/lbanalyze/lbanalyze/source"
)

func sample(name string) string { return filepath.Join("..", "..", "testdata", "mini-swe-agent", name) }

func read(t *testing.T, s Source, name string) *episode.Episode {
	t.Helper()
	data, err := os.ReadFile(sample(name))
	if err != nil {
		t.Fatal(err)
	}
	if !s.Claims(data[:min(len(data), source.HeadSize)]) {
		t.Fatalf("%s is not claimed", name)
	}
	eps, res := source.ReadAll(s, bytes.NewReader(data), name, source.Options{})
	if len(eps) != 1 || res.Cut != nil || len(res.Rejected) > 0 {
		t.Fatalf("%s: %d episodes, %+v", name, len(eps), res)
	}
	return eps[0]
}

// TestSamples reads the hand-written trajectories
// (testdata/mini-swe-agent), worked out by hand. example__repo-1 (format
// 1.1) made 3 model calls, their commands in extra.actions, 0.01, 0.02 and
// 0.03 dollars; the second's command returned 1; it submitted, and the
// report resolves it. example__repo-2 (format 1, no extra) ran pytest -x
// twice, each returning 1 (as its observation's text shows), recorded no
// dollars, and hit its limits: nothing submitted, so not resolved, with or
// without the report.
func TestSamples(t *testing.T) {
	outcomes, err := LoadOutcomes(sample("report.json"))
	if err != nil {
		t.Fatal(err)
	}
	if r, ok := outcomes["example__repo-3"]; !ok || r != nil || len(outcomes) != 3 {
		t.Errorf("outcomes %v", outcomes)
	}
	one := read(t, Source{}, "example__repo-1.traj.json")
	want := []struct {
		action  string
		cost    float64
		errored bool
	}{{"ls -la", 0.01, false}, {"sed -i 's/a/b/' x.py", 0.02, true}, {"echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT", 0.03, false}}
	if one.ID != "example__repo-1" || one.N() != 3 || one.Judged != episode.ByUnknownResult || one.End.Reason != episode.EndGameOver ||
		!one.Signals.Has(episode.Costs, episode.Errors) || one.Fact("model") != "example-model" {
		t.Fatalf("repo-1: %q, %d steps, judged %d, end %s, signals %v", one.ID, one.N(), one.Judged, one.End.Reason, one.Signals.List())
	}
	for i, w := range want {
		if tu := one.Turns[i]; tu.Action != w.action || math.Abs(tu.Cost-w.cost) > 1e-12 || tu.Errored != w.errored {
			t.Errorf("repo-1 step %d: %+v, want %+v", i+1, tu, w)
		}
	}
	if judged := read(t, Source{Outcomes: outcomes}, "example__repo-1.traj.json"); judged.Judged != episode.ByResult || judged.FinalScore() != 1 {
		t.Errorf("repo-1 with the report: judged %d, result %v", judged.Judged, judged.FinalScore())
	}
	for _, s := range []Source{{}, {Outcomes: outcomes}} {
		two := read(t, s, "example__repo-2.traj.json")
		if two.N() != 2 || two.Turns[0].Action != "pytest -x" || two.Turns[0].Action != two.Turns[1].Action || !two.Turns[1].Errored ||
			two.Turns[0].ResponseHash != two.Turns[1].ResponseHash || two.Signals.Has(episode.Costs) || two.End.Reason != episode.EndCap ||
			two.Judged != episode.ByResult || two.FinalScore() != 0 {
			t.Errorf("repo-2: %+v, end %s, judged %d, signals %v", two.Turns, two.End.Reason, two.Judged, two.Signals.List())
		}
	}
}

// TestBadReport: a file that is no evaluation report is refused, saying so.
func TestBadReport(t *testing.T) {
	if _, err := LoadOutcomes(sample("example__repo-1.traj.json")); err == nil || !strings.Contains(err.Error(), "not a SWE-bench evaluation report") {
		t.Errorf("error %v", err)
	}
}

// FuzzRead: whatever the bytes, reading never panics and an episode read
// has a step and an id.
func FuzzRead(f *testing.F) {
	testlogs.Seed(f, sample("example__repo-1.traj.json"), sample("example__repo-2.traj.json"))
	f.Fuzz(func(t *testing.T, data []byte) {
		testlogs.Fuzzed(t, Source{}, data, "x.traj.json")
	})
}

// TestChain checks chain against its definition: the observations' hash is
// that of the hash so far as %x writes it, a newline and the observation.
func TestChain(t *testing.T) {
	for _, c := range []struct {
		h   uint64
		obs string
	}{{0, ""}, {0, "ok"}, {0xf, "<returncode>1</returncode>\n"}, {1<<64 - 1, "é\x00"}, {0x0123456789abcdef, strings.Repeat("x", 5000)}} {
		if got, want := chain(c.h, c.obs), xxhash.Sum64String(fmt.Sprintf("%x\n%s", c.h, c.obs)); got != want {
			t.Errorf("chain(%x, %.20q) = %x, want %x", c.h, c.obs, got, want)
		}
	}
}
