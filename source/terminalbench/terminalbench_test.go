package terminalbench

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/realdata"
	"github.com/lbanalyze/lbanalyze/internal/testlogs"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/replay"
	"github.com/lbanalyze/lbanalyze/source"
)

func readDir(t *testing.T, dir string) ([]*episode.Episode, *source.Result) {
	t.Helper()
	if !(Dir{}).ClaimsDir(dir) {
		t.Fatalf("%s is not claimed", dir)
	}
	entries, _ := os.ReadDir(dir)
	if !slices.ContainsFunc(entries, func(e os.DirEntry) bool { return (Dir{}).Marks(e.Name()) }) {
		t.Fatalf("%s is claimed, but Marks takes none of its entries: a walk would not ask", dir)
	}
	var eps []*episode.Episode
	res := Dir{}.ReadDir(dir, source.Options{}, func(ep *episode.Episode) { eps = append(eps, ep) })
	return eps, res
}

// TestSample reads the hand-written run (testdata/terminal-bench/example-run),
// worked out by hand: fix-permissions ran its agent 10:00:05 to 10:01:35,
// 90 s, three ticks of 30 s, and was resolved, with 1200 + 300 tokens;
// build-kernel ran 900 s, 30 ticks, to its time cap, unresolved;
// hello-world's record has no times, its trial directory's results.json
// gives 45 s (two ticks, the second ending at 45 s), and its tests gave no
// verdict (is_resolved null): an unknown result, named by its uuid.
func TestSample(t *testing.T) {
	eps, res := readDir(t, filepath.Join("..", "..", "testdata", "terminal-bench", "example-run"))
	if res.Cut != nil || len(res.Rejected) > 0 || len(eps) != 3 {
		t.Fatalf("%d episodes, %+v", len(eps), res)
	}
	cases := []struct {
		id       string
		ticks    int
		last     float64
		judged   episode.Judged
		result   episode.Score
		end      episode.EndReason
		tokens   int64
		hasToken bool
	}{
		{"00000000-0000-4000-8000-000000000001", 3, 90, episode.ByResult, 1, episode.EndGameOver, 1500, true},
		{"00000000-0000-4000-8000-000000000002", 30, 900, episode.ByResult, 0, episode.EndCap, 0, false},
		{"00000000-0000-4000-8000-000000000003", 2, 45, episode.ByUnknownResult, 0, episode.EndGameOver, 0, false},
	}
	for i, c := range cases {
		ep := eps[i]
		if ep.ID != c.id || ep.N() != c.ticks || ep.Turns[ep.N()-1].Elapsed != c.last || ep.Judged != c.judged || ep.FinalScore() != c.result ||
			ep.End.Reason != c.end || ep.Turns[ep.N()-1].Tokens != c.tokens || ep.Signals.Has(episode.Tokens) != c.hasToken {
			t.Errorf("%s: %d ticks, last at %v, judged %d, result %v, end %s, tokens %d", ep.ID, ep.N(), ep.Turns[ep.N()-1].Elapsed, ep.Judged, ep.FinalScore(), ep.End.Reason, ep.Turns[ep.N()-1].Tokens)
		}
		if ep.Tick != Tick || ep.Have().Has(episode.Steps) || !ep.Signals.Has(episode.Times) || ep.Turns[0].Elapsed != 30 {
			t.Errorf("%s: tick %v, signals %v", ep.ID, ep.Tick, ep.Have().List())
		}
		if ep.Fact("model") != "example-model" || ep.Fact("agent") != "example-agent" {
			t.Errorf("%s: facts %+v", ep.ID, ep.Facts)
		}
	}
}

// TestBadRecords: a record of the wrong types or without an id is named by
// its file and line, and the others read; a cut file says where.
func TestBadRecords(t *testing.T) {
	good := `{"id": "a", "trial_name": "t.1-of-1.r", "is_resolved": false, "failure_mode": "unset"}`
	doc := "{\"results\": [" + good + ",\n{\"trial_name\": 5, \"is_resolved\": true},\n{\"is_resolved\": true},\n" + good
	eps, res := source.ReadAll(Source{}, strings.NewReader(doc), "r.json", source.Options{})
	if len(eps) != 2 || len(res.Rejected) != 2 || !strings.Contains(res.Rejected[0].Reason, "r.json:2: not a trial's record") ||
		!strings.Contains(res.Rejected[1].Reason, "r.json:3: a trial without an id") || res.Cut == nil || !strings.Contains(res.Cut.Msg, "cut") {
		t.Errorf("%d episodes, %+v, cut %+v", len(eps), res.Rejected, res.Cut)
	}
	if ep := eps[0]; ep.N() != 1 || ep.Signals.Has(episode.Times) || len(ep.Notes) == 0 {
		t.Errorf("an untimed trial: %d ticks, signals %v, notes %q", ep.N(), ep.Signals.List(), ep.Notes)
	}
}

// TestReal reads every run of Terminal-Bench's leaderboard
// (shared/external/terminal-bench): one episode a record of a run's
// results, 5,200 in all, each solved exactly when its record's is_resolved
// is true (read on its own by encoding/json), and unknown when it is null.
func TestReal(t *testing.T) {
	root := realdata.External(t, "terminal-bench")
	total, timed := 0, 0
	filepath.WalkDir(root, func(p string, e os.DirEntry, err error) error {
		if err != nil || !e.IsDir() || !(Dir{}).ClaimsDir(p) {
			return err
		}
		eps, res := readDir(t, p)
		if res.Cut != nil || len(res.Rejected) > 0 {
			t.Errorf("%s: %+v", p, res)
		}
		want := map[string]*bool{}
		for _, f := range runFiles(p) {
			data, _ := os.ReadFile(f)
			var run struct {
				Results []struct {
					ID         *string `json:"id"`
					UUID       *string `json:"uuid"`
					IsResolved *bool   `json:"is_resolved"`
				} `json:"results"`
			}
			if err := json.Unmarshal(data, &run); err != nil {
				t.Fatal(err)
			}
			for _, r := range run.Results {
				id := r.ID
				if id == nil {
					id = r.UUID
				}
				want[*id] = r.IsResolved
			}
		}
		if len(eps) != len(want) {
			t.Errorf("%s: %d episodes, %d records", p, len(eps), len(want))
		}
		for _, ep := range eps {
			total++
			timed += b2i(ep.Signals.Has(episode.Times))
			r, ok := ep.Result()
			w, found := want[ep.ID]
			if !found || (w == nil) == ok || w != nil && (r == 1) != *w {
				t.Errorf("%s: %s: result %v %v, is_resolved %v", p, ep.ID, r, ok, w)
			}
		}
		return filepath.SkipDir
	})
	if total != 5200 {
		t.Errorf("%d trials, the README counts 5,200", total)
	}
	t.Logf("%d trials, %d timed", total, timed)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// FuzzRead: whatever the bytes, reading never panics and every episode has
// a tick and an id.
func FuzzRead(f *testing.F) {
	testlogs.Seed(f, filepath.Join("..", "..", "testdata", "terminal-bench", "example-run", "results.json"))
	f.Add([]byte(`{"results": [{"id": "x", "agent_started_at": "2026-01-01T00:00:00Z", "agent_ended_at": "2026-01-01T23:59:59Z"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		eps, res := testlogs.Fuzzed(t, Source{}, data, "-")
		if len(eps)+len(res.Rejected) > res.Segments {
			t.Fatalf("%d episodes and %d rejected of %d records", len(eps), len(res.Rejected), res.Segments)
		}
		for _, ep := range eps {
			if ep.N() > maxAgentTime/Tick+1 {
				t.Fatalf("episode %q of %d ticks", ep.ID, ep.N())
			}
		}
	})
}

// TestTimeCap replays time caps on the sample (TestSample's figures):
// fix-permissions ran 90 s in three ticks and was resolved, so time:max=60
// stops it after the tick ending at 60 s, saving 30 s and losing the solve;
// build-kernel ran to its own timeout at 900 s, unresolved, so time:max=600
// stops it after the 20th tick, truly stuck, saving 300 s, and time:max=1000
// would have let it run past its log: censored. A step cap is not replayed on
// ticks.
func TestTimeCap(t *testing.T) {
	eps, _ := readDir(t, filepath.Join("..", "..", "testdata", "terminal-bench", "example-run"))
	cases := []struct {
		ep                       int
		spec                     string
		stop                     int
		seconds                  float64
		premature, stuck, censor bool
	}{
		{0, "time:max=60", 2, 30, true, false, false},
		{1, "time:max=600", 20, 300, false, true, false},
		{1, "time:max=1000", 0, 0, false, false, true},
	}
	for _, c := range cases {
		p, err := policy.Parse(c.spec, nil)
		if err != nil {
			t.Fatal(err)
		}
		o := replay.Run(eps[c.ep], p)
		if o.TerminationTurn != c.stop || o.SecondsSaved != c.seconds || o.FalseTerminationCandidate() != c.premature ||
			o.TrulyStuck() != c.stuck || o.Censored != c.censor {
			t.Errorf("%s under %s: stop %d, %v s saved, premature %v, stuck %v, censored %v", eps[c.ep].ID, p,
				o.TerminationTurn, o.SecondsSaved, o.FalseTerminationCandidate(), o.TrulyStuck(), o.Censored)
		}
	}
	steps, _ := policy.Parse("steps:max=2", nil)
	if lack := replay.Lacking(eps[0], steps); len(lack) != 1 || lack[0] != episode.Steps {
		t.Errorf("steps on ticks lacks %v", lack)
	}
}

// TestAgentTime: a trial's ticks by its agent's times. By hand: 70 s of
// agent are ceil(70/30) = 3 ticks ending at 30, 60 and 70 s; a trial that
// began with no agent_started_at ran 0 s, one tick at 0 s, timed; a record
// of no times is one tick without Times.
func TestAgentTime(t *testing.T) {
	for _, c := range []struct {
		name, times string
		elapsed     []float64
		timed       bool
		note        string
	}{
		{"ran", `"agent_started_at": "2026-01-01T00:00:00Z", "agent_ended_at": "2026-01-01T00:01:10Z"`, []float64{30, 60, 70}, true, ""},
		{"never ran", `"trial_started_at": "2026-01-01T00:00:00Z"`, []float64{0}, true, "its agent never did"},
		{"no times", `"trial_name": "t"`, []float64{0}, false, "the agent's time is not known"},
	} {
		doc := `{"results": [{"id": "a", "is_resolved": true, "failure_mode": "unset", ` + c.times + `}]}`
		eps, _ := source.ReadAll(Source{}, strings.NewReader(doc), "r.json", source.Options{})
		if len(eps) != 1 {
			t.Fatalf("%s: %d episodes", c.name, len(eps))
		}
		ep := eps[0]
		var elapsed []float64
		for _, tu := range ep.Turns {
			elapsed = append(elapsed, tu.Elapsed)
		}
		notes := strings.Join(ep.Notes, "; ")
		if !slices.Equal(elapsed, c.elapsed) || ep.Signals.Has(episode.Times) != c.timed || (c.note == "") != (notes == "") || !strings.Contains(notes, c.note) {
			t.Errorf("%s: ticks ending %v, Times %v, notes %q; want %v, %v, %q", c.name, elapsed, ep.Signals.Has(episode.Times), notes, c.elapsed, c.timed, c.note)
		}
	}
}
