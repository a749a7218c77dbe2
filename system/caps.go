package system

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/lbanalyze/lbanalyze/internal/metrics"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/source/atif"
	"github.com/lbanalyze/lbanalyze/source/miniswe"
	"github.com/lbanalyze/lbanalyze/source/tau2"
	"github.com/lbanalyze/lbanalyze/source/terminalbench"
)

// The systems of runs judged by their result (docs/semantics.md, "6.4 Runs
// judged by their result"): coding, terminal and tool agents' harnesses,
// whose stop rules are caps in their own keys (docs/policies.md, "Caps").
// Each is one entry: the caps it takes, and the block in its own words; a
// rule it has no key for needs a code change in its loop.

// capKeys is how a harness sets a cap: its key for each cap it has, written
// by write with the cap's value in the cap's units.
type capKeys struct {
	harness string
	keys    map[policy.Name]string
	write   func(key, value string) string
	// off is the block of no cap at all ("none"); "" when it has no way
	// to say it.
	off string
	// own is the block of its own default cap as it ran (policy.OwnCap);
	// "" when it has none.
	own string
}

// block is the block that sets p, or why the harness cannot run it.
func (c capKeys) block(p policy.Policy) (string, error) {
	if p.Name == policy.OwnCap && c.own != "" {
		return c.own, nil
	}
	key, ok := c.keys[p.Name]
	if !ok && p.Name != policy.None {
		return "", cannot(c.harness, p, nil, "its step loop would need %s: %s")
	}
	v := capValue(p)
	if p.Name == policy.None || v == "0" {
		if c.off == "" {
			return "", cannot(c.harness, p, nil, "it has no setting for no cap (%s: %s); set its cap above any run's")
		}
		return c.off, nil
	}
	return c.write(key, v), nil
}

// capValue is a cap's max as its harness takes it: a whole number, dollars
// with their decimals; "0" off.
func capValue(p policy.Policy) string {
	for _, s := range []*policy.Setting{policy.MaxSteps, policy.MaxTokens, policy.MaxCost, policy.MaxSeconds} {
		if p.Has(s) {
			return s.Format(p.Get(s))
		}
	}
	return "0"
}

// capSystem is the entry of a harness whose caps are keys: its logs'
// formats, the caps offered when none is asked for (steps and cost, or
// time alone), and what else must hold. What it runs now is its own cap as
// it ran where it has a block for it, else no cap.
func capSystem(name string, formats []string, keys capKeys, file, lang, note string, offered ...policy.Name) *System {
	now := none
	if keys.own != "" {
		now = policy.Policy{Name: policy.OwnCap}
	}
	return &System{Name: name, Formats: formats, File: file, Lang: lang, Block: keys.block, Note: note, Now: now,
		Adds: offered[0], CallsPerTurn: 1, Offered: offered, Shows: Shows{Applies: metrics.Applies{RealScores: true}}}
}

// MiniSweAgent is mini-swe-agent: its agent config's step_limit, cost_limit
// and wall_time_limit_seconds, checked before each model call. What it runs
// today is its config as it ran (policy.OwnCap): a run whose limits ended it
// (LimitsExceeded, TimeExceeded) is judged by its result, not censored.
var MiniSweAgent = capSystem("mini-swe-agent", []string{miniswe.Format}, capKeys{harness: "mini-swe-agent",
	keys:  map[policy.Name]string{policy.Steps: "step_limit", policy.Cost: "cost_limit", policy.Time: "wall_time_limit_seconds"},
	write: func(k, v string) string { return "agent:\n  " + k + ": " + v + "\n" },
	off:   "agent:\n  step_limit: 0\n  cost_limit: 0\n",
	own:   "# keep your config as it is: its step_limit, cost_limit and wall_time_limit_seconds as they ran (swebench.yaml: 250 steps, $3)\n"},
	"your mini-swe-agent config (YAML)", "yaml", "mini-swe-agent checks it before each model call, as the replay does; a run it stops ends LimitsExceeded, with nothing submitted",
	policy.Cost, policy.Steps)

// Tau2 is τ²-bench's runner: tau2 run --max-steps, which counts the
// orchestrator's steps (the agent's, the user's and each batch of tool
// results alike), so that the agent's N steps are about 2N of its own. What
// it runs today is its defaults, --max-steps 200 and --max-errors 10
// (policy.OwnCap): a simulation they ended (max_steps, too_many_errors) is
// judged by its result, not censored.
var Tau2 = capSystem("tau2-bench", []string{tau2.Format}, capKeys{harness: "tau2-bench",
	keys: map[policy.Name]string{policy.Steps: "--max-steps"},
	write: func(k, v string) string {
		n, _ := strconv.Atoi(v)
		return fmt.Sprintf("# %s agent steps: tau2 counts the user's and the tools' steps too, about one each an agent step\ntau2 run … %s %d\n", v, k, 2*n)
	},
	own: "# tau2's own caps at their defaults (src/tau2/config.py)\ntau2 run … --max-steps 200 --max-errors 10\n"},
	"the tau2 run command line", "sh", "tau2's cap counts every step of the conversation, so twice the agent's steps is the nearest; the replay counts the agent's",
	policy.Steps)

// TerminalBench is Terminal-Bench's harness: tb run's agent timeout, a hard
// kill at the time given. What it runs today is each task's own timeout
// (max_agent_timeout_sec, which the leaderboard's logs do not give), replayed
// where a trial's log says it fired (policy.OwnCap): a trial it ended is
// judged by its result, not censored by its own cap.
var TerminalBench = capSystem("Terminal-Bench", []string{terminalbench.Format}, capKeys{harness: "Terminal-Bench",
	keys:  map[policy.Name]string{policy.Time: "--global-agent-timeout-sec"},
	write: func(k, v string) string { return "tb run … " + k + " " + v + "\n" },
	own:   "tb run …  # without --global-agent-timeout-sec: each task's own max_agent_timeout_sec\n"},
	"the tb run command line", "sh", "it replaces each task's own max_agent_timeout_sec; the agent is killed mid-command, up to one step (30 s, the replay's tick) sooner than the replay stops it",
	policy.Time)

// Agents are the agents that write ATIF trajectories (Harbor's agents,
// OpenHands, Inspect, mini-swe-agent): the cap in each one's own key.
var Agents = capSystem("your agent", []string{atif.Format}, capKeys{harness: "your agent",
	keys:  map[policy.Name]string{policy.Steps: "steps", policy.Tokens: "tokens", policy.Cost: "cost", policy.Time: "time"},
	write: agentKeys},
	"your agent's config", "text", "each line is one harness's key for the cap: keep the one of the harness that ran the trajectories",
	policy.Cost, policy.Steps)

// agentKeys is the cap keyed key (Agents' keys) of value v in the keys of
// the harnesses that write ATIF. Inspect's message_limit counts messages,
// the agent's and the tools', about two a step.
func agentKeys(key, v string) string {
	n, _ := strconv.Atoi(v)
	lines := map[string][]string{
		"steps": {"mini-swe-agent (YAML): agent: {step_limit: " + v + "}", "OpenHands (config.toml, [core]): max_iterations = " + v,
			fmt.Sprintf("Inspect (eval): message_limit=%d", 2*n)},
		"tokens": {"Inspect (eval): token_limit=" + v},
		"cost":   {"mini-swe-agent (YAML): agent: {cost_limit: " + v + "}", "OpenHands (config.toml, [core]): max_budget_per_task = " + v, "Inspect (eval): cost_limit=" + v},
		"time":   {"mini-swe-agent (YAML): agent: {wall_time_limit_seconds: " + v + "}", "Inspect (eval): time_limit=" + v},
	}
	return strings.Join(lines[key], "\n") + "\n"
}
