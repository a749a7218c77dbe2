package tales

import (
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/realdata"
	"github.com/lbanalyze/lbanalyze/source"
)

// rollout is what a real rollout holds, worked out with python3 over each
// file, independently of this reader:
//
//	rows = [json.loads(l) for l in open(f)]
//	steps = len(rows); tokens = sum(r["Token Usage"] for r in rows)
//	scores = [r["Score"] for r in rows]; best = max([0] + scores)
//	restarts = [r["Step"] for r in rows if "-= Restarting =-" in r["Observation"]]
//	deaths = [r["Step"] for r in rows if "You have died" in r["Feedback"]]
type rollout struct {
	run, game                string
	steps, best, maxScore    int
	tokens                   int64
	restarts, deaths, scores []int
}

var rollouts = []rollout{
	{run: "tw-bench_LLMAgent_gpt-4o-mini_s20241001_c1000_t0.0_convFalseWalkthrough Agent", game: "JerichoEnvDetective",
		steps: 100, tokens: 303234, best: 100, maxScore: 360,
		restarts: []int{31, 60, 89}, deaths: []int{30, 59, 88},
		scores: []int{20, 20, 20, 20, 20, 30, 30, 30, 40, 50, 50, 60, 60, 60, 70, 70, 70, 80, 80, 80, 80, 80, 80, 80, 90, 90, 90, 100, 100, 100, 20, 20, 20, 20, 20, 30, 30, 30, 40, 50, 50, 60, 60, 60, 70, 70, 70, 80, 80, 80, 80, 80, 80, 80, 90, 90, 100, 100, 100, 20, 20, 20, 20, 20, 30, 30, 30, 40, 50, 50, 60, 60, 60, 70, 70, 70, 80, 80, 80, 80, 80, 80, 80, 90, 90, 100, 100, 100, 20, 20, 20, 20, 20, 30, 30, 30, 40, 50, 50, 60}},
	{run: "tw-bench_LLMAgent_gpt-4o-mini_s20241001_c1000_t0.0_convFalseWalkthrough Agent", game: "JerichoEnvZork1",
		steps: 100, tokens: 427473, best: 40, maxScore: 350,
		restarts: []int{33, 53, 73, 93}, deaths: []int{32, 52, 72, 92},
		scores: []int{0, 0, 0, 5, 5, 5, 5, 5, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 40, 40, 40, 40, 40, 40, 40, 30, 0, 0, 0, 5, 5, 5, 5, 5, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 5, 0, 0, 0, 5, 5, 5, 5, 5, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 5, 0, 0, 0, 5, 5, 5, 5, 5, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 5, 0, 0, 0, 5, 5, 5, 5, 5}},
	{run: "tw-bench_LLMAgent_gpt-4o-mini_s20241001_c10_t0.0_convFalse", game: "JerichoEnvDetective",
		steps: 200, tokens: 67068, best: 110, maxScore: 360,
		restarts: []int{5, 12, 20, 27, 33}, deaths: []int{4, 11, 19, 26, 32},
		scores: []int{10, 10, 20, 20, 10, 20, 20, 20, 30, 30, 30, 20, 20, 20, 30, 30, 30, 40, 40, 10, 10, 20, 20, 20, 30, 30, 10, 20, 20, 20, 30, 30, 20, 20, 30, 40, 40, 40, 40, 50, 50, 60, 60, 60, 60, 60, 60, 60, 60, 60, 70, 70, 70, 70, 80, 80, 80, 80, 90, 100, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110, 110}},
	{run: "tw-bench_LLMAgent_gpt-4o_s20241001_c10_t0.0_convFalse", game: "JerichoEnvDetective",
		steps: 200, tokens: 41523, best: 100, maxScore: 360,
		restarts: []int{5}, deaths: []int{4},
		scores: []int{10, 10, 20, 20, 20, 20, 30, 40, 50, 50, 50, 50, 50, 50, 50, 50, 50, 50, 50, 50, 60, 60, 60, 60, 70, 70, 70, 70, 80, 80, 90, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100}},
	{run: "tw-bench_LLMAgent_gpt-4o_s20241001_c5_t0.0_convFalse", game: "JerichoEnvDetective",
		steps: 200, tokens: 122897, best: 40, maxScore: 360,
		restarts: []int{5, 13, 20, 28, 35, 42, 49, 56, 63, 70, 78, 85, 92, 99, 107, 114, 122, 129, 136, 143, 150, 157, 165, 172, 179, 187, 194}, deaths: []int{4, 12, 19, 27, 34, 41, 48, 55, 62, 69, 77, 84, 91, 98, 106, 113, 121, 128, 135, 142, 149, 156, 164, 171, 178, 186, 193, 200},
		scores: []int{10, 10, 20, 20, 20, 20, 30, 30, 30, 30, 40, 40, 10, 10, 20, 20, 20, 30, 30, 10, 20, 20, 30, 30, 30, 40, 40, 10, 10, 20, 20, 20, 30, 30, 10, 10, 20, 20, 20, 30, 30, 10, 10, 20, 20, 20, 30, 30, 10, 10, 20, 20, 20, 30, 30, 10, 10, 20, 20, 20, 30, 30, 10, 10, 20, 20, 20, 30, 30, 10, 20, 20, 30, 30, 30, 40, 40, 10, 10, 20, 20, 20, 30, 30, 10, 10, 20, 20, 20, 30, 30, 10, 10, 20, 20, 20, 30, 30, 10, 20, 20, 30, 30, 30, 40, 40, 10, 10, 20, 20, 20, 30, 30, 10, 20, 20, 30, 30, 30, 40, 40, 10, 10, 20, 20, 20, 30, 30, 10, 10, 20, 20, 20, 30, 30, 10, 10, 20, 20, 20, 30, 30, 10, 10, 20, 20, 20, 30, 30, 10, 10, 20, 20, 20, 30, 30, 10, 20, 20, 30, 30, 30, 40, 40, 10, 10, 20, 20, 20, 30, 30, 10, 10, 20, 20, 20, 30, 30, 10, 20, 20, 30, 30, 30, 40, 40, 10, 10, 20, 20, 20, 30, 30, 10, 10, 20, 20, 20, 30, 30}},
}

// TestRealRunsAreUpstreams: the rollouts of ../shared/real/tales are the
// files of microsoft/tale-suite at commit 6430f6f (logs_gpt4o/…), byte for
// byte: each hashes to the git blob id that commit lists for it.
func TestRealRunsAreUpstreams(t *testing.T) {
	dir := realdata.Dir(t, "tales/logs")
	blobs := []string{"c60eca8ef82b2d1dca43951de0d298bfc6df18cb", "9b8d7eb38a4759cfcdde5d220e4c36dc1abd62d5",
		"b3303014ad7c152b500bf50ae81bbda3b85d6a74", "102c026c597283d8c3161d4fa9b0791b79a4fd2f", "910327a3a6cf2f22b7ed87b4d583b59c83aa6d96"}
	for i, r := range rollouts {
		data := realdata.Read(t, filepath.Join(dir, r.run, r.game, "a0_s20241001.jsonl"))
		h := sha1.New()
		fmt.Fprintf(h, "blob %d\x00", len(data))
		h.Write(data)
		if got := hex.EncodeToString(h.Sum(nil)); got != blobs[i] {
			t.Errorf("%s / %s: git blob %s, want %s", r.run, r.game, got, blobs[i])
		}
	}
}

func TestRealRollouts(t *testing.T) {
	dir := realdata.Dir(t, "tales/logs")
	for _, want := range rollouts {
		path := filepath.Join(dir, want.run, want.game, "a0_s20241001.jsonl")
		data := realdata.Read(t, path)
		if !Source.Claims(data[:min(len(data), source.HeadSize)]) {
			t.Errorf("%s: not claimed", want.game)
		}
		eps, res := source.ReadAll(Source, bytes.NewReader(data), path, source.Options{})
		if len(eps) != 1 || len(res.Rejected) > 0 || len(res.Problems) > 0 {
			t.Fatalf("%s: %d episodes, rejected %v, problems %v", path, len(eps), res.Rejected, res.Problems)
		}
		ep := eps[0]
		var scores, restarts, deaths []int
		var tokens int64
		for i, tu := range ep.Turns {
			scores = append(scores, int(tu.Score))
			tokens += tu.Tokens
			if tu.Restart {
				restarts = append(restarts, i+1)
			}
			if tu.Missing || tu.Action == "" || tu.ResponseHash == 0 {
				t.Errorf("%s: turn %d: %+v", want.game, i+1, tu)
			}
		}
		for _, d := range ep.Deaths {
			deaths = append(deaths, d.Turn)
		}
		if ep.N() != want.steps || tokens != want.tokens || !slices.Equal(scores, want.scores) ||
			!slices.Equal(restarts, want.restarts) || !slices.Equal(deaths, want.deaths) {
			t.Errorf("%s / %s:\n got %d steps, %d tokens, restarts %v, deaths %v, scores %v\nwant %d steps, %d tokens, restarts %v, deaths %v, scores %v",
				want.run, want.game, ep.N(), tokens, restarts, deaths, scores, want.steps, want.tokens, want.restarts, want.deaths, want.scores)
		}
		if got := ep.Credited(ep.N()); got != episode.Score(want.best) || ep.Fact("best_score") != itoa(want.best) || ep.Fact("max_score") != itoa(want.maxScore) {
			t.Errorf("%s: best %v (fact %q), max score %q; want %d, %d", want.game, got, ep.Fact("best_score"), ep.Fact("max_score"), want.best, want.maxScore)
		}
		if ep.Format != Format || ep.Scoring != episode.ScoredBest || ep.Fact("run") != want.run ||
			!ep.Signals.Has(episode.Tokens, episode.Restarts, episode.Responses) || ep.Signals.Has(episode.Objectives) || ep.Signals.Has(episode.Rooms) {
			t.Errorf("%s: format %q, scoring %v, run %q, signals %b", want.game, ep.Format, ep.Scoring, ep.Fact("run"), ep.Signals)
		}
		if id := runName(want.run) + " / " + want.game; ep.ID != id {
			t.Errorf("id %q, want %q", ep.ID, id)
		}
	}
}

func itoa(v int) string { return strconv.Itoa(v) }

func TestRunName(t *testing.T) {
	for _, c := range []struct{ dir, want string }{
		{"tw-bench_LLMAgent_gpt-4o_s20241001_c10_t0.0_convFalse", "gpt-4o c10"},
		{"tw-bench_LLMAgent_gpt-4o-mini_s20241001_c1000_t0.0_convFalseWalkthrough Agent", "gpt-4o-mini c1000 Walkthrough Agent"},
		// Settings away from the defaults are kept: a seed, a temperature, a conversation.
		{"tales_LLMAgent_gpt-4o_s7_c10_t0.05_convTrue", "gpt-4o s7 c10 t0.05 convTrue"},
		{"tales_ReactAgent_claude-3-5-sonnet_s20241001_cNone_t0.0_cotT0.0_cotN200_convFalse", "ReactAgent claude-3-5-sonnet cNone cotT0.0 cotN200"},
		{"tales_RandomAgent_s20241001", "RandomAgent"},
		{"tales_WalkthroughAgent", "WalkthroughAgent"},
		{"my runs", "my runs"},
	} {
		if got := runName(c.dir); got != c.want {
			t.Errorf("runName(%q) = %q, want %q", c.dir, got, c.want)
		}
	}
}

// step is one rollout line as pandas writes it: the 11 columns of the
// first versions, or with the 4 of the later ones.
func step(n, score int, obs, feedback string, tokens int, later bool) string {
	s := fmt.Sprintf(`{"Step":%d,"Score":%d,"Max Score":50,"Normalized Score":%g,"Moves":%d,"Observation":%q,"Action":"look","Feedback":%q,"Prompt":"## System\n…","Response":"look",`,
		n, score, float64(score)/50, n, obs, feedback)
	if later {
		return s + fmt.Sprintf(`"Thinking":null,"Token Usage":%d,"Prompt Tokens":%d,"Response Tokens":1,"Thinking Tokens":0}`, tokens, tokens-1) + "\n"
	}
	return s + fmt.Sprintf(`"Token Usage":%d}`, tokens) + "\n"
}

func TestBothVersions(t *testing.T) {
	for _, later := range []bool{false, true} {
		log := step(1, 0, "West of House", "Taken.", 100, later) +
			step(2, 10, "Taken.", "*** You have died ***", 110, later) +
			step(3, 0, "*** You have died ***\n\n-= Restarting =-\nWest of House", "Taken.", 120, later)
		if !Source.Claims([]byte(log)) {
			t.Fatalf("later %v: not claimed", later)
		}
		path := filepath.Join("logs", "tales_LLMAgent_gpt-4o_s20241001_c10_t0.0_convFalse", "JerichoEnvZork1", "a0_s20241001_steps3.jsonl")
		eps, res := source.ReadAll(Source, strings.NewReader(log), path, source.Options{})
		if len(eps) != 1 {
			t.Fatalf("later %v: %d episodes, %+v", later, len(eps), res)
		}
		ep := eps[0]
		got := []any{ep.ID, ep.N(), ep.Turns[2].Restart, ep.Turns[1].Restart, ep.Deaths, ep.MaxTurns, ep.End.Reason, ep.Credited(3), ep.Turns[0].Tokens + ep.Turns[1].Tokens + ep.Turns[2].Tokens}
		want := []any{"gpt-4o c10 / JerichoEnvZork1", 3, true, false, []episode.Death{{Turn: 2, Reason: "died"}}, 3, episode.EndMaxTurns, episode.Score(10), int64(330)}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("later %v:\n got %v\nwant %v", later, got, want)
		}
		// What a step did: the action, and its Feedback as the response
		// (docs/sources.md, "What a step did"); TALES marks no errors.
		if tu := ep.Turns[1]; tu.Action != "look" || tu.Response != "*** You have died ***" || ep.Turns[0].ResponseHash != ep.Turns[2].ResponseHash ||
			!ep.Signals.Has(episode.Responses, episode.ResponseTexts) || ep.Signals.Has(episode.Errors) {
			t.Errorf("later %v: step 2 did %q, responded %q; signals %v", later, tu.Action, tu.Response, ep.Signals.List())
		}
	}
}

func TestEnd(t *testing.T) {
	won := step(1, 20, "a", "b", 1, true) + step(2, 50, "b", "You won", 1, true)
	for _, c := range []struct {
		name, log, file string
		want            episode.EndReason
		note            string
	}{
		// Won with the highest score: the benchmark stops there.
		{"won", won, "a0_s1_steps100.jsonl", episode.EndGameOver, ""},
		{"budget spent", step(1, 0, "a", "b", 1, false) + step(2, 0, "b", "c", 1, false), "a0_s1_steps2.jsonl", episode.EndMaxTurns, ""},
		{"cut short", step(1, 0, "a", "b", 1, false), "a0_s1_steps2.jsonl", episode.EndNone, "ends at step 1 of a budget of 2"},
		{"no budget in the name", step(1, 0, "a", "b", 1, false), "a0_s1.jsonl", episode.EndMaxTurns, "does not give the step budget"},
		// A budget no run has is no budget, said: not one of 0 steps, nor the
		// budget an overflowing number wraps to.
		{"a budget of 0", step(1, 0, "a", "b", 1, false), "a0_s1_steps0.jsonl", episode.EndMaxTurns, "gives a step budget of 0, which no run has"},
		{"a budget past any int", step(1, 0, "a", "b", 1, false), "a0_s1_steps99999999999999999999999.jsonl", episode.EndMaxTurns,
			"gives a step budget of 99999999999999999999… (23 digits), which no run has (1 to 200000)"},
	} {
		eps, _ := source.ReadAll(Source, strings.NewReader(c.log), filepath.Join("run", "game", c.file), source.Options{})
		ep := eps[0]
		if ep.End.Reason != c.want || c.note != "" && !strings.Contains(strings.Join(ep.Notes, "; "), c.note) || c.note == "" && len(ep.Notes) > 0 {
			t.Errorf("%s: end %s, notes %q", c.name, ep.End.Reason, ep.Notes)
		}
	}
}

func TestClaims(t *testing.T) {
	line := step(1, 0, "West of House", "Taken.", 100, true)
	for _, c := range []struct {
		name string
		head string
		want bool
	}{
		{"a step", line, true},
		{"a step cut by the head, after its first columns", line[:80], true},
		{"a step cut inside its first columns", line[:60], false},
		{"keys of a step but no tokens", strings.Replace(line, `"Token Usage"`, `"Tokens"`, 1), false},
		{"ZorkGPT's log", `{"timestamp": "2025-11-04T09:35:24", "level": "INFO", "event_type": "turn_completed", "turn": 1, "score": 0}` + "\n", false},
		{"another JSONL", `{"step": 1, "score": 0}` + "\n", false},
		{"text", "Step 1: score 0\n", false},
	} {
		if got := Source.Claims([]byte(c.head)); got != c.want {
			t.Errorf("%s: Claims = %v, want %v", c.name, got, c.want)
		}
	}
}

// BenchmarkRead reads the real gpt-4o-mini Zork I rollout (1.4 MB, 100
// steps, prompts of up to 23 KB).
func BenchmarkRead(b *testing.B) {
	dir := realdata.Dir(b, "tales/logs")
	data := realdata.Read(b, filepath.Join(dir, rollouts[1].run, rollouts[1].game, "a0_s20241001.jsonl"))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		source.ReadAll(Source, bytes.NewReader(data), "a0_s20241001.jsonl", source.Options{})
	}
}

// TALES's score is "Score": a "score" or "SCORE" member beside it (after it,
// where a reader that folds case would take it) is not the score.
func TestKeysByCase(t *testing.T) {
	var log strings.Builder
	for n, score := range []int{0, 10, 10} {
		log.WriteString(strings.Replace(step(n+1, score, "West of House", "Taken.", 100, true), `"Max Score"`, `"score":99,"SCORE":98,"Max Score"`, 1))
	}
	eps, res := source.ReadAll(Source, strings.NewReader(log.String()), "a0_s20241001_steps3.jsonl", source.Options{})
	if len(eps) != 1 || !strings.Contains(log.String(), `"SCORE":98`) {
		t.Fatalf("%+v", res)
	}
	if ep := eps[0]; ep.N() != 3 || ep.Score(1) != 0 || ep.Score(2) != 10 || ep.Score(3) != 10 {
		t.Errorf("%d turns, scores %v %v %v", ep.N(), ep.Score(1), ep.Score(2), ep.Score(3))
	}
}
