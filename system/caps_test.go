package system

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/internal/testlogs"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/replay"
	"github.com/lbanalyze/lbanalyze/source"
	"github.com/lbanalyze/lbanalyze/source/miniswe"
	"github.com/lbanalyze/lbanalyze/source/tau2"
)

// TestCapBlocks: each harness sets a cap in its own key, in the cap's units
// (tau2's counting the conversation's every step: twice the agent's; Inspect's
// message_limit two messages a step), and says why it cannot run a rule it has
// no key for.
func TestCapBlocks(t *testing.T) {
	cases := []struct {
		sys  *System
		spec string
		want []string
	}{
		{MiniSweAgent, "steps:max=40", []string{"agent:\n  step_limit: 40\n"}},
		{MiniSweAgent, "cost:max=0.5", []string{"agent:\n  cost_limit: 0.5\n"}},
		{MiniSweAgent, "time:max=900", []string{"agent:\n  wall_time_limit_seconds: 900\n"}},
		{Tau2, "steps:max=30", []string{"tau2 run … --max-steps 60\n", "# 30 agent steps"}},
		{TerminalBench, "time:max=600", []string{"tb run … --global-agent-timeout-sec 600\n"}},
		{Agents, "cost:max=0.5", []string{"cost_limit: 0.5", "max_budget_per_task = 0.5", "Inspect (eval): cost_limit=0.5"}},
		{Agents, "steps:max=25", []string{"step_limit: 25", "max_iterations = 25", "message_limit=50"}},
	}
	for _, c := range cases {
		p, err := policy.Parse(c.spec, nil)
		if err != nil {
			t.Fatal(err)
		}
		b, err := c.sys.Block(p)
		if err != nil {
			t.Errorf("%s, %s: %v", c.sys.Name, c.spec, err)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(b, w) {
				t.Errorf("%s, %s: block\n%s\nlacks %q", c.sys.Name, c.spec, b, w)
			}
		}
	}
	p, _ := policy.Parse("tokens:max=1000", nil)
	if _, err := Tau2.Block(p); err == nil || !strings.Contains(err.Error(), "tau2-bench cannot run tokens without a code change") {
		t.Errorf("tau2, tokens: %v", err)
	}
}

// What a harness runs today is its own caps as they ran (own-cap), in its
// block the run as it is, replayed on logs of each format written by hand.
// Worked by hand: a tau2 simulation its error cap ended (too_many_errors)
// after 3 agent steps, reward 0, and one its step cap ended (max_steps)
// after 2, reward 0, stop under own-cap at their last step, 3 and 2, and
// are judged (truly stuck, not censored); under no cap (none) they run on
// and, their logs cut by the cap, are censored. A simulation the user ended
// (user_stop, reward 1, 2 steps) is stopped by neither and censored by
// neither. A mini-swe-agent run its limits ended (LimitsExceeded, 2 steps,
// not resolved) stops at 2 under own-cap, truly stuck; censored under none.
func TestOwnCapNow(t *testing.T) {
	step := `{"role": "assistant", "content": "a"}`
	sim := func(id, end string, reward, steps int) string {
		return fmt.Sprintf(`{"id": %q, "task_id": "1", "termination_reason": %q, "reward_info": {"reward": %d}, "messages": [%s]}`,
			id, end, reward, strings.TrimSuffix(strings.Repeat(step+",", steps), ","))
	}
	tauDoc := "[" + sim("errors", "too_many_errors", 0, 3) + "," + sim("steps", "max_steps", 0, 2) + "," + sim("solved", "user_stop", 1, 2) + "]"
	mini := `{"info": {"exit_status": "LimitsExceeded", "submission": ""}, "messages": [` +
		`{"role": "system", "content": "s"}, {"role": "user", "content": "u"},` +
		`{"role": "assistant", "content": "x\n` + "```bash\\nls\\n```" + `"}, {"role": "user", "content": "o"},` +
		`{"role": "assistant", "content": "y\n` + "```bash\\nls\\n```" + `"}, {"role": "user", "content": "o"}],` +
		`"trajectory_format": "mini-swe-agent-1", "instance_id": "limits"}`
	type want struct {
		stop          int
		stuck, censor bool
	}
	cases := []struct {
		sys       *System
		src       source.Source
		doc, name string
		now, none map[string]want
	}{
		{Tau2, tau2.Source{}, tauDoc, "results.json",
			map[string]want{"errors": {3, true, false}, "steps": {2, true, false}, "solved": {0, false, false}},
			map[string]want{"errors": {0, false, true}, "steps": {0, false, true}, "solved": {0, false, false}}},
		{MiniSweAgent, miniswe.Source{}, mini, "limits.traj.json",
			map[string]want{"limits": {2, true, false}}, map[string]want{"limits": {0, false, true}}},
	}
	for _, c := range cases {
		if c.sys.Now.Name != policy.OwnCap || c.sys.Stops() {
			t.Errorf("%s: now %s, stops %v; want own-cap, a rule to add", c.sys.Name, c.sys.Now, c.sys.Stops())
		}
		eps, res := source.ReadAll(c.src, strings.NewReader(c.doc), c.name, source.Options{})
		if res.Cut != nil || len(eps) != len(c.now) {
			t.Fatalf("%s: %d episodes, %v", c.sys.Name, len(eps), res.Cut)
		}
		for _, ep := range eps {
			for p, w := range map[policy.Policy]want{c.sys.Now: c.now[ep.ID], none: c.none[ep.ID]} {
				o := replay.Run(ep, p)
				if o.TerminationTurn != w.stop || o.TrulyStuck() != w.stuck || o.Censored != w.censor {
					t.Errorf("%s %s under %s: stop %d, truly stuck %v, censored %v; want %+v", c.sys.Name, ep.ID, p,
						o.TerminationTurn, o.TrulyStuck(), o.Censored, w)
				}
			}
		}
	}
}

// Each harness's block for own-cap is the run as it is: tau2 at its
// defaults (src/tau2/config.py: DEFAULT_MAX_STEPS 200, DEFAULT_MAX_ERRORS
// 10), mini-swe-agent's config kept, Terminal-Bench without the flag.
func TestOwnCapBlocks(t *testing.T) {
	for sys, want := range map[*System]string{
		Tau2:          "tau2 run … --max-steps 200 --max-errors 10\n",
		MiniSweAgent:  "# keep your config as it is",
		TerminalBench: "without --global-agent-timeout-sec",
	} {
		if b, err := sys.Block(sys.Now); err != nil || !strings.Contains(b, want) {
			t.Errorf("%s, own-cap: %q, %v; want %q", sys.Name, b, err, want)
		}
	}
}

// On τ²-bench's leaderboard runs (shared/external/tau2), own-cap stops
// exactly the simulations whose termination_reason, read on its own by
// encoding/json, is max_steps or too_many_errors, each on its last step,
// and leaves none censored.
func TestOwnCapOnTau2(t *testing.T) {
	runs, stops := 0, 0
	for _, f := range testlogs.Tau2Runs(t) {
		reasons := terminationReasons(t, f)
		eps, _ := testlogs.ReadFile(t, tau2.Source{}, f)
		for _, ep := range eps {
			runs++
			o := replay.Run(ep, Tau2.Now)
			r := reasons[ep.ID]
			capped := r == "max_steps" || r == "too_many_errors"
			if o.Censored || o.Terminated() != capped || capped && o.TerminationTurn != ep.N() {
				t.Errorf("%s: %s (%s): stop %d of %d, censored %v", f, ep.ID, r, o.TerminationTurn, ep.N(), o.Censored)
			}
			if o.Terminated() {
				stops++
			}
		}
	}
	// encoding/json counts 6: gpt-oss-120b's 5 max_steps and 1 too_many_errors.
	if stops != 6 {
		t.Errorf("%d of %d simulations stopped by own-cap, want 6", stops, runs)
	}
}

// terminationReasons are the termination_reason of each simulation of a
// tau2 results file, by id, read whole by encoding/json.
func terminationReasons(t *testing.T, path string) map[string]string {
	type sim struct {
		ID     string `json:"id"`
		Reason string `json:"termination_reason"`
	}
	list := testlogs.Tau2Simulations[sim](t, path)
	reasons := map[string]string{}
	for _, s := range list {
		reasons[s.ID] = s.Reason
	}
	return reasons
}
