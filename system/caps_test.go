package system

import (
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/policy"
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
