package tau2

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/metrics"
	"github.com/lbanalyze/lbanalyze/internal/realdata"
	"github.com/lbanalyze/lbanalyze/internal/testlogs"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/replay"
	"github.com/lbanalyze/lbanalyze/source"
)

// TestSample reads the hand-written sample (testdata/tau2/airline.json),
// every figure worked out from the file by hand:
//
//   - sim-solved: assistant messages 0, 2 and 4 are its 3 steps. Step 1 is
//     the greeting (0 dollars, no usage, at 10:00:01, 1 s after the start);
//     step 2 calls get_reservation (0.01 dollars, 1000+20 tokens, at 6.5 s);
//     step 3 calls update_reservation and think (0.025 dollars, 1200+40
//     tokens, at 12 s), and think's result is an error. 0 + 0.01 + 0.025 =
//     0.035, its agent_cost. Reward 1: its score is 0, 0, 1.
//   - sim-capped: the greeting and three calls of search (1, 10, 20, 30 s;
//     0, 0.01, 0.01, 0.01 dollars), ended by tau2's max_steps: a cap, reward 0.
//   - sim-broken: no message (infrastructure_error): nothing to replay.
func TestSample(t *testing.T) {
	eps, res := testlogs.ReadFile(t, Source{}, filepath.Join("..", "..", "testdata", "tau2", "airline.json"))
	if res.Cut != nil || len(res.Rejected) != 1 || !strings.Contains(res.Rejected[0].Reason, "sim-broken has no agent step") || res.Segments != 3 {
		t.Fatalf("result %+v, cut %v", res, res.Cut)
	}
	if len(eps) != 2 {
		t.Fatalf("%d episodes, want 2", len(eps))
	}
	solved, capped := eps[0], eps[1]
	type step struct {
		action  string
		score   episode.Score
		cost    float64
		tokens  int64
		elapsed float64
		errored bool
	}
	cases := []struct {
		ep    *episode.Episode
		id    string
		end   episode.EndReason
		steps []step
	}{
		{solved, "sim-solved", episode.EndGameOver, []step{
			{"Hi! How can I help you today?", 0, 0, 0, 1, false},
			{`get_reservation {"reservation_id":"ABC","verbose":true}`, 0, 0.01, 1020, 6.5, false},
			{"update_reservation {\"reservation_id\":\"ABC\",\"verbose\":true}\nthink {}", 1, 0.025, 1240, 12, true},
		}},
		{capped, "sim-capped", episode.EndCap, []step{
			{"Hi! How can I help you today?", 0, 0, 0, 1, false},
			{`search {"q":"x"}`, 0, 0.01, 505, 10, false},
			{`search {"q":"x"}`, 0, 0.01, 605, 20, false},
			{`search {"q":"x"}`, 0, 0.01, 705, 30, false},
		}},
	}
	for _, c := range cases {
		ep := c.ep
		if ep.ID != c.id || ep.End.Reason != c.end || ep.Judged != episode.ByResult || ep.N() != len(c.steps) {
			t.Errorf("%s: id %s, end %s, judged %d, %d turns", c.id, ep.ID, ep.End.Reason, ep.Judged, ep.N())
			continue
		}
		if !ep.Signals.Has(episode.Costs, episode.Tokens, episode.Times, episode.Errors, episode.Responses) {
			t.Errorf("%s: signals %v", c.id, ep.Signals.List())
		}
		if ep.Fact("model") != "example-model" || ep.Fact("domain") != "airline" {
			t.Errorf("%s: facts %+v", c.id, ep.Facts)
		}
		for i, w := range c.steps {
			got := ep.Turns[i]
			if got.Action != w.action || got.Score != w.score || math.Abs(got.Cost-w.cost) > 1e-12 || got.Tokens != w.tokens ||
				math.Abs(got.Elapsed-w.elapsed) > 1e-9 || got.Errored != w.errored {
				t.Errorf("%s step %d: %+v, want %+v", c.id, i+1, got, w)
			}
		}
	}
	// The same result repeated is the same response: capped's steps 2–4.
	if h := capped.Turns; h[1].ResponseHash != h[2].ResponseHash || h[1].ResponseHash == h[0].ResponseHash {
		t.Errorf("response hashes %x %x %x", h[0].ResponseHash, h[1].ResponseHash, h[2].ResponseHash)
	}
}

// TestShapes: the bare list of simulations and the summary object holding
// them (tau2's newer writers) read as the standard file does.
func TestShapes(t *testing.T) {
	sim := `{"id": "s1", "task_id": 7, "termination_reason": "user_stop", "reward_info": {"reward": 0.5},
	  "messages": [{"role": "assistant", "content": " hello ", "cost": 0.0}, {"role": "user", "content": "bye"}]}`
	for _, doc := range []string{
		"[" + sim + "]",
		`{"domain": "retail", "agent": "a", "model": "m1", "total_tasks": 1, "simulations": [` + sim + `]}`,
	} {
		head := []byte(doc)
		if !(Source{}).Claims(head) {
			t.Errorf("not claimed: %.40s", doc)
			continue
		}
		eps, res := source.ReadAll(Source{}, strings.NewReader(doc), "x.json", source.Options{})
		if len(eps) != 1 || res.Cut != nil {
			t.Fatalf("%.40s: %d episodes, %+v", doc, len(eps), res.Cut)
		}
		ep := eps[0]
		if ep.N() != 1 || ep.Turns[0].Action != "hello" || ep.FinalScore() != 0.5 || ep.Fact("task") != "7" || ep.Signals.Has(episode.Costs) || ep.Signals.Has(episode.Times) {
			t.Errorf("%.40s: %+v, signals %v", doc, ep.Turns, ep.Signals.List())
		}
	}
}

// TestBadInput: a file cut, broken or of the wrong types gives a message
// with its line, and the simulations before it are read.
func TestBadInput(t *testing.T) {
	good := `{"id": "ok", "task_id": "0", "reward_info": {"reward": 1}, "messages": [{"role": "assistant", "content": "a"}]}`
	cases := []struct {
		name, doc string
		eps       int
		cut       string // in the message of Result.Cut, "" none
		rejected  string
	}{
		{"cut", "[" + good + ",\n{\"id\": \"x\", \"mess", 1, "line 2: the document is cut", ""},
		{"syntax", "[" + good + ",\n\n{\"id\" \"x\"}]", 1, "line 3, byte", ""},
		{"wrong type", "[" + good + ",\n{\"id\": \"x\", \"task_id\": \"1\", \"messages\": 5}]", 1, "", "line 2: not a simulation"},
		{"no id", "[" + good + ",\n{\"task_id\": \"1\", \"messages\": []}]", 1, "", "without an id"},
		{"not a list", `{"simulations": 3}`, 0, "a number where an array was expected", ""},
		{"after the end", "[" + good + "] x", 1, "", ""},
	}
	for _, c := range cases {
		eps, res := source.ReadAll(Source{}, strings.NewReader(c.doc), "bad.json", source.Options{})
		if len(eps) != c.eps {
			t.Errorf("%s: %d episodes, want %d", c.name, len(eps), c.eps)
		}
		switch {
		case c.cut == "" && c.name != "after the end" && res.Cut != nil:
			t.Errorf("%s: cut %q", c.name, res.Cut.Msg)
		case c.cut != "" && (res.Cut == nil || !strings.Contains(res.Cut.Msg, c.cut)):
			t.Errorf("%s: cut %+v, want %q", c.name, res.Cut, c.cut)
		case c.name == "after the end" && res.Cut == nil:
			t.Errorf("%s: data after the document not said", c.name)
		}
		if c.rejected != "" && (len(res.Rejected) != 1 || !strings.Contains(res.Rejected[0].Reason, c.rejected)) {
			t.Errorf("%s: rejected %+v, want %q", c.name, res.Rejected, c.rejected)
		}
	}
}

// TestLongValue: a value past the bound is refused where it is, not held
// (the bound counts whole reads of the decoder: a value is refused once it
// needs a read past it).
func TestLongValue(t *testing.T) {
	doc := `[{"id": "a", "task_id": "0", "messages": [{"role": "assistant", "content": "` + strings.Repeat("x", 1<<20) + `"}]}]`
	d := source.NewDocument(strings.NewReader(doc), 64<<10)
	err := d.Array(func() error { _, err := d.Value(); return err })
	if err == nil || !strings.Contains(err.Error(), "a value longer than 65536 bytes") {
		t.Errorf("error %v", err)
	}
}

// TestReal reads every simulation of τ²-bench's leaderboard runs
// (shared/external/tau2) and checks each against the file read on its own
// by encoding/json: its id, its steps (the messages of role assistant), its
// result (reward_info.reward), and its recorded dollars, which sum to its
// agent_cost to 1e-6.
func TestReal(t *testing.T) {
	files := testlogs.Tau2Runs(t)
	total, costed := 0, 0
	for _, f := range files {
		eps, res := testlogs.ReadFile(t, Source{}, f)
		if res.Cut != nil {
			t.Errorf("%s: %s", f, res.Cut.Msg)
		}
		sims := simulations(t, f)
		byID := map[string]*episode.Episode{}
		for _, ep := range eps {
			byID[ep.ID] = ep
		}
		for _, s := range sims {
			total++
			ep := byID[s.ID]
			if len(s.assistant) == 0 {
				if ep != nil {
					t.Errorf("%s: %s has no step but is read", f, s.ID)
				}
				continue
			}
			if ep == nil {
				t.Errorf("%s: %s not read", f, s.ID)
				continue
			}
			if ep.N() != len(s.assistant) {
				t.Errorf("%s: %s: %d turns, %d assistant messages", f, s.ID, ep.N(), len(s.assistant))
			}
			if r, ok := ep.Result(); s.reward == nil && ok || s.reward != nil && (!ok || float64(r) != *s.reward) {
				t.Errorf("%s: %s: result %v %v, reward %v", f, s.ID, r, ok, s.reward)
			}
			if ep.Signals.Has(episode.Costs) {
				costed++
				sum := 0.0
				for _, tu := range ep.Turns {
					sum += tu.Cost
				}
				if s.agentCost == nil || math.Abs(sum-*s.agentCost) > 1e-6 {
					t.Errorf("%s: %s: steps' dollars %v, agent_cost %v", f, s.ID, sum, s.agentCost)
				}
			} else if s.agentCost != nil && *s.agentCost > 0 {
				t.Errorf("%s: %s: agent_cost %v, but no recorded dollars", f, s.ID, *s.agentCost)
			}
		}
	}
	if total != 677 {
		t.Errorf("%d simulations, the README counts 677", total)
	}
	t.Logf("%d simulations in %d files, %d with recorded dollars", total, len(files), costed)
}

type realSim struct {
	ID        string
	assistant []int
	reward    *float64
	agentCost *float64
}

// simulations reads a results file with encoding/json, whole.
func simulations(t *testing.T, path string) []realSim {
	type sim struct {
		ID         string   `json:"id"`
		AgentCost  *float64 `json:"agent_cost"`
		RewardInfo *struct {
			Reward *float64 `json:"reward"`
		} `json:"reward_info"`
		Messages []struct {
			Role string `json:"role"`
		} `json:"messages"`
	}
	list := testlogs.Tau2Simulations[sim](t, path)
	var out []realSim
	for _, s := range list {
		r := realSim{ID: s.ID, agentCost: s.AgentCost}
		if s.RewardInfo != nil {
			r.reward = s.RewardInfo.Reward
		}
		for i, m := range s.Messages {
			if m.Role == "assistant" {
				r.assistant = append(r.assistant, i)
			}
		}
		out = append(out, r)
	}
	return out
}

// TestStepCap replays steps:max=N on the sample (TestSample's figures): a
// stop's length is N, its cost saved the recorded dollars of the steps
// after N with no price given, and it is premature exactly when the run
// was solved and took more than N steps.
//
//   - sim-solved (3 steps, reward 1, ended by the user): max=2 stops at 2,
//     saves step 3's 0.025 dollars, and loses the solve; max=3 does not
//     stop (the run took 3 steps and asked for no more).
//   - sim-capped (4 steps, reward 0, ended by tau2's max_steps: cut): max=2
//     stops at 2 and saves 0.01 + 0.01, truly stuck; max=4 stops at 4, where
//     the run's own cap did, saving nothing; max=5 would have let it go on
//     past the log: censored.
func TestStepCap(t *testing.T) {
	eps, _ := testlogs.ReadFile(t, Source{}, filepath.Join("..", "..", "testdata", "tau2", "airline.json"))
	cases := []struct {
		ep                     int
		max                    int
		stop, length           int
		saved                  float64
		premature, stuck, cens bool
	}{
		{0, 2, 2, 2, 0.025, true, false, false},
		{0, 3, 0, 3, 0, false, false, false},
		{1, 2, 2, 2, 0.02, false, true, false},
		{1, 4, 4, 4, 0, false, true, false},
		{1, 5, 0, 4, 0, false, false, true},
	}
	for _, c := range cases {
		ep := eps[c.ep]
		p, err := policy.Parse(fmt.Sprintf("steps:max=%d", c.max), nil)
		if err != nil {
			t.Fatal(err)
		}
		o := replay.Run(ep, p)
		saved, ok := metrics.Costs{}.For(ep).CostSaved(&o)
		if o.TerminationTurn != c.stop || o.Length != c.length || !ok || math.Abs(saved-c.saved) > 1e-12 ||
			o.FalseTerminationCandidate() != c.premature || o.TrulyStuck() != c.stuck || o.Censored != c.cens || o.Unknown() {
			t.Errorf("%s under %s: stop %d, length %d, cost saved %v (%v), premature %v, stuck %v, censored %v, unknown %v",
				ep.ID, p, o.TerminationTurn, o.Length, saved, ok, o.FalseTerminationCandidate(), o.TrulyStuck(), o.Censored, o.Unknown())
		}
	}
}

// TestStepCapReal: on every simulation of the leaderboard runs with
// recorded dollars, steps:max=N at the median of their steps is premature
// exactly when the simulation was solved (reward 1) and took more than N
// steps, its length min(N, steps), and its cost saved the dollars of the
// steps after N.
func TestStepCapReal(t *testing.T) {
	dir := realdata.External(t, "tau2")
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*.json"))
	const n = 18
	p, _ := policy.Parse(fmt.Sprintf("steps:max=%d", n), nil)
	checked := 0
	for _, f := range files {
		eps, _ := testlogs.ReadFile(t, Source{}, f)
		for _, ep := range eps {
			o := replay.Run(ep, p)
			r, known := ep.Result()
			want := 0.0
			for i := n; i < ep.N(); i++ {
				want += ep.Turns[i].Cost
			}
			saved, _ := metrics.Costs{}.For(ep).CostSaved(&o)
			cut := ep.End.Reason == episode.EndCap
			stops := ep.N() > n || cut && ep.N() == n
			if o.Length != min(n, ep.N()) || o.Terminated() != stops || o.FalseTerminationCandidate() != (known && r > 0 && ep.N() > n) ||
				ep.Signals.Has(episode.Costs) && math.Abs(saved-want) > 1e-9 {
				t.Errorf("%s: %d steps, result %v %v: length %d, stopped %v, premature %v, cost saved %v (want %v)",
					ep.ID, ep.N(), r, known, o.Length, o.Terminated(), o.FalseTerminationCandidate(), saved, want)
			}
			checked++
		}
	}
	t.Logf("%d simulations under %s", checked, p)
}

// A simulation of more agent steps than a log may have is read to
// source.MaxTurn, said in a note; token counts that are negative or past
// source.MaxTokens are not counted, so no sum wraps (docs/bad-input.md).
func TestBounds(t *testing.T) {
	var b strings.Builder
	b.WriteString(`[{"id":"long","task_id":"1","reward_info":{"reward":1},"termination_reason":"user_stop","messages":[`)
	for i := range source.MaxTurn + 5 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"role":"assistant","content":"a"}`)
	}
	b.WriteString(`]},{"id":"wrap","task_id":"2","reward_info":{"reward":0},"termination_reason":"user_stop","messages":[` +
		`{"role":"assistant","content":"a","usage":{"prompt_tokens":-5,"completion_tokens":9223372036854775807}},` +
		`{"role":"assistant","content":"b","usage":{"prompt_tokens":9223372036854775807,"completion_tokens":9223372036854775807}},` +
		`{"role":"assistant","content":"c","usage":{"prompt_tokens":3,"completion_tokens":4}}]}]`)
	eps, _ := source.ReadAll(Source{}, strings.NewReader(b.String()), "bounds.json", source.Options{})
	if len(eps) != 2 {
		t.Fatalf("%d episodes, want 2", len(eps))
	}
	if n := eps[0].N(); n != source.MaxTurn || !slices.ContainsFunc(eps[0].Notes, func(s string) bool { return strings.Contains(s, "not read") }) {
		t.Errorf("long: %d turns, notes %q; want %d and a note", n, eps[0].Notes, source.MaxTurn)
	}
	w := eps[1]
	if got := []int64{w.Turns[0].Tokens, w.Turns[1].Tokens, w.Turns[2].Tokens}; !slices.Equal(got, []int64{0, 0, 7}) {
		t.Errorf("wrap: tokens %v, want [0 0 7] (3+4; the others no count)", got)
	}
	if !slices.ContainsFunc(w.Notes, func(s string) bool { return strings.HasPrefix(s, "2 messages give") }) {
		t.Errorf("wrap: notes %q, want one counting the 2 messages", w.Notes)
	}
}

// A step timed before the simulation's start_time is bad input
// (docs/bad-input.md): said in a note naming the step, its time not used,
// the rest read. Worked by hand: start_time 10:00:05; the agent's greeting
// (messages[0]) at 10:00:03 would be at −2 s: no time; its reply
// (messages[2]) at 10:00:09 is at 4 s. One of the two steps is untimed, so
// the simulation's times are not known.
func TestStepBeforeTheStart(t *testing.T) {
	doc := `[{"id": "s", "task_id": "0", "start_time": "2025-01-01T10:00:05", "reward_info": {"reward": 1}, "messages": [` +
		`{"role": "assistant", "content": "hi", "timestamp": "2025-01-01T10:00:03"},` +
		`{"role": "user", "content": "help", "timestamp": "2025-01-01T10:00:06"},` +
		`{"role": "assistant", "content": "done", "timestamp": "2025-01-01T10:00:09"}]}]`
	testlogs.EarlyStep(t, Source{}, doc, "early.json",
		"agent steps timed before the simulation's start_time 2025-01-01T10:00:05: 1, the first step 1 (messages[0], at 2025-01-01T10:00:03)")
}
