package system

import (
	"fmt"
	"strings"

	"github.com/lbanalyze/lbanalyze/policy"
)

// Harness is a benchmark harness or an agent loop of the user's own with no
// stop rule of its own (TALES, or JSONL read through a field map): it runs
// any policy that needs only the score per step, in words and settings added
// to its step loop (docs/sources.md, "Which system ran a log"). It makes one
// LLM call a step, and shows its agent no countdown.
var Harness = &System{Name: "your harness", Formats: []string{"jsonl", "csv", "tales", "balrog"},
	File: "your harness's configuration", Lang: "toml", Block: func(p policy.Policy) (string, error) { return harnessBlock(p, false) },
	Note: "stop the run in its step loop as the rule says", Now: none, Adds: policy.Increase, CallsPerTurn: 1,
	Offered: []policy.Name{policy.Score, policy.Increase}, Shows: Shows{EndUnrecorded: true}}

// realHarness is Harness for logs with scores that are not whole (summed
// rewards, a normalised score): its rule's words say min_delta whatever its
// value, since a rise of 0.5 is no progress under the default of 1. OfAll
// gives it for such logs.
var realHarness = func() *System {
	s := *Harness
	s.Block = func(p policy.Policy) (string, error) { return harnessBlock(p, true) }
	s.Shows.RealScores = true
	return &s
}()

// harnessRules are the rules a harness can run on a score per step, each in
// one sentence in the words of its step loop.
var harnessRules = map[policy.Name]func(p policy.Policy, real bool) string{
	policy.Score:    func(p policy.Policy, real bool) string { return scoreRule(p, false, real) },
	policy.Increase: func(p policy.Policy, real bool) string { return scoreRule(p, true, real) },
	policy.Patience: func(p policy.Policy, real bool) string {
		return scoreRule(p, p.Get(policy.ScoreMode) == policy.ScoreIncrease, real)
	},
	policy.None: func(policy.Policy, bool) string { return "Never stop the run before its budget: no stop rule." },
	// zorkburr's counter after step t−1 or after step t has reached W
	// (docs/zorkgpt2.md, "The stuck rule").
	policy.Zorkburr: func(p policy.Policy, _ bool) string {
		return fmt.Sprintf("At each step t that is a multiple of %d, stop the run if its score has not changed (up or down) in the last %d steps "+
			"(t-%d+1 to t), or in the %d steps before step t; the score before step 1 counts as 0, so a move during step 1 counts.",
			p.CheckInterval(), p.MaxTurnsStuck(), p.MaxTurnsStuck(), p.MaxTurnsStuck())
	},
}

// harnessBlock is the block that makes a harness run p: the rule in one
// sentence and its settings, to paste into the harness's configuration and
// enforce in its step loop. The countdown warning is left out: a harness
// shows the agent none, and the stop does not depend on it. The error says
// why a harness cannot run p on a score alone: p needs another signal (as
// patience does with objectives or rooms on), or has no rule in its words.
// real: the logs have scores that are not whole.
func harnessBlock(p policy.Policy, real bool) (string, error) {
	rule := harnessRules[p.Name]
	if rule == nil || p.Needs() != 0 {
		return "", fmt.Errorf("%s needs more than a score per step, which a harness's log does not give", p)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Stop rule (lbanalyze: %s), checked after every step:\n", p)
	for _, l := range wrap(rule(p, real), 86) {
		b.WriteString("#   " + l + "\n")
	}
	fmt.Fprintf(&b, "stop_rule = %q\n", p.Name)
	for _, s := range p.Kind().Settings {
		if s == policy.WarningThreshold {
			continue
		}
		v := p.Get(s)
		if s.Names != nil && v >= 0 && v < len(s.Names) {
			fmt.Fprintf(&b, "%s = %q\n", s.Key, s.Names[v])
			continue
		}
		fmt.Fprintf(&b, "%s = %s\n", s.Key, s.Format(v))
	}
	return b.String(), nil
}

// scoreRule words the score tracking every harness policy shares: in mode
// increase only a rise above the tracked score is progress; a move smaller
// than min_delta is not progress and leaves the tracked score where it was.
// On whole scores a min_delta up to 1 counts any move; on real ones (real)
// the words say what it is unless it is 0.
func scoreRule(p policy.Policy, increase, real bool) string {
	moved := "changed (up or down)"
	d := p.Get(policy.MinDelta)
	sized := p.Has(policy.MinDelta) && d > 0 && (real || d > policy.MinDelta.Default)
	switch delta := policy.MinDelta.Format(d); {
	case increase && sized:
		moved = fmt.Sprintf("risen by at least %s above the score of its last rise", delta)
	case increase:
		moved = "risen above its best so far"
	case sized:
		moved = fmt.Sprintf("moved by at least %s, up or down, from the score of its last move", delta)
	}
	from := ""
	if m := p.Get(policy.MinTurns); m > 0 {
		from = fmt.Sprintf(" from step %d on", m)
	}
	return fmt.Sprintf("At each step t that is a multiple of %d%s, stop the run if its score has not %s in the last %d steps (t-%d+1 to t); "+
		"the score after step 1 is the first one compared, so a move during step 1 does not count.",
		p.CheckInterval(), from, moved, p.MaxTurnsStuck(), p.MaxTurnsStuck())
}

// wrap cuts text into lines of at most width bytes at spaces.
func wrap(text string, width int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(text) {
		if line != "" && len(line)+1+len(w) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	return append(lines, line)
}
