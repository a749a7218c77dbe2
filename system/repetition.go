package system

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/lbanalyze/lbanalyze/policy"
)

// The blocks of the repetition rules and the presets (docs/policies.md,
// "Repetition rules", "Presets"): for OpenHands and opencode the setting in
// their own keys; for every other, Python for a harness's step loop, whose
// stop is given what each step did as well as its score.

// peerBlocks are the presets whose peer takes the setting in a key of its
// own: the text to paste, and where it goes.
var peerBlocks = map[policy.Name]func(p policy.Policy) (block, where string){
	policy.OpenHands: func(p policy.Policy) (string, string) {
		return fmt.Sprintf("stuck_detection_thresholds={\n    \"action_observation\": %d,\n    \"action_error\": %d,\n    \"monologue\": 3,\n    \"alternating_pattern\": %d,\n}\n",
				p.Get(policy.ActionObservation), p.Get(policy.ActionError), p.Get(policy.AlternatingPattern)),
			"# OpenHands (software-agent-sdk): an argument of Conversation(...), or of the agent server's\n# conversation request; monologue is not replayed (a log's steps show none).\n"
	},
	policy.OpenCode: func(policy.Policy) (string, string) {
		return "{\n  \"permission\": {\n    \"doom_loop\": \"deny\"\n  }\n}\n",
			"// opencode.json: doom_loop refuses the third identical tool call of an assistant message\n// (DOOM_LOOP_THRESHOLD = 3 is not a setting; the replay counts across messages, #50073).\n"
	},
}

// repetitionBlock is p's block when p is a repetition rule, a combination
// or a preset; false for any other policy.
func repetitionBlock(p policy.Policy, logs logsOf) (string, bool) {
	if peer := peerBlocks[p.Name]; peer != nil {
		block, where := peer(p)
		return where + block, true
	}
	parts := rulesOf(p)
	if parts == nil {
		return "", false
	}
	words := make([]string, len(parts))
	for i, q := range parts {
		words[i] = ruleWords(q)
	}
	rule := "at every step t, stop the run when " + strings.Join(words, "; or when ") + "."
	return pythonBlock(p, rule, repetitionUsage, logs, repetitionPython(parts)), true
}

// ruleWords says when q detects a repetition, and what it does then.
func ruleWords(q policy.Policy) string {
	k, within := q.Get(policy.Times), q.Get(policy.Within) // a setting q lacks reads as its default, 0
	what := map[policy.Name]string{policy.Repeat: "action", policy.RepeatObserved: "(action, observation)", policy.Errored: "failed step"}[q.Name]
	if q.Name == policy.Errored && q.Get(policy.SameAction) == 1 {
		what = "failure of one action"
	}
	var w string
	switch {
	case q.Name == policy.Alternate && q.Get(policy.Compare) == 0:
		w = fmt.Sprintf("steps t-%d+1 to t alternate between two actions", k)
	case q.Name == policy.Alternate:
		w = fmt.Sprintf("steps t-%d+1 to t alternate between two (action, observation) pairs", k)
	case within < 0:
		w = fmt.Sprintf("step t's %s is the %d-th alike in steps 1 to t", what, k)
	case within > 0:
		w = fmt.Sprintf("step t's %s is the %d-th alike in steps t-%d+1 to t", what, k, max(within, k))
	default:
		w = fmt.Sprintf("steps t-%d+1 to t are each the same %s", k, what)
	}
	if q.Get(policy.Ignore) > 0 {
		w += fmt.Sprintf(" (observations compared without what %s matches)", policy.Ignore.Format(q.Get(policy.Ignore)))
	}
	if m := q.Get(policy.Then); m > 0 {
		w += fmt.Sprintf(", the first time only nudging the agent, then stopping if it still holds %d steps later", m)
	}
	return w
}

// rulesOf are the repetition rules p stands for: itself, or a
// combination's or a preset's rules when every one of them is a repetition
// rule; nil otherwise.
func rulesOf(p policy.Policy) []policy.Policy {
	parts := []policy.Policy{p}
	if k := p.Kind(); k != nil && k.Parts != nil {
		parts = k.Parts(p)
	}
	if len(parts) == 0 {
		return nil
	}
	for _, q := range parts {
		if !repetitionRules[q.Name] {
			return nil
		}
	}
	return parts
}

var repetitionRules = map[policy.Name]bool{policy.Repeat: true, policy.RepeatObserved: true, policy.Alternate: true, policy.Errored: true}

const repetitionUsage = `# In the step loop: loop_break = LoopBreak() before it; after each step,
#   verdict = loop_break.stop(action, observation, errored)
#   if verdict == "nudge": tell the agent it is repeating itself
#   elif verdict: break
`

// repetitionPython is the class that runs rules: each keys a step as it
// compares them, counts on its last keys, nudges or stops; the first that
// stops stops.
func repetitionPython(rules []policy.Policy) string {
	var b strings.Builder
	b.WriteString(`import re


class Rule:
    # within: the last steps a count is taken over; 0 in a row; -1 the
    # whole run, counted by key as it goes (seen), only the last key kept,
    # so that a step costs the same however long the run.
    def __init__(self, times, within, then, key, alternate=False):
        self.times, self.within, self.then = times, max(within, times) if within > 0 else 0, then
        self.key, self.alternate = key, alternate
        self.seen = {} if within < 0 else None
        self.keep = 1 if within < 0 else max(times, self.within) + then
        self.keys, self.nudged = [], 0

    def count(self):  # once a step: it counts the step's key in seen
        k = self.keys
        if not k or k[-1] is None:
            return 0
        if self.seen is not None:
            self.seen[k[-1]] = self.seen.get(k[-1], 0) + 1
            return self.seen[k[-1]]
        if self.alternate:
            if len(k) < 2 or k[-2] is None or k[-1] == k[-2]:
                return 0
            n = 2
            while n < len(k) and k[-1 - n] == k[-1 - n + 2]:
                n += 1
            return n
        if self.within:
            return k[-self.within:].count(k[-1])
        n = 1
        while n < len(k) and k[-1 - n] == k[-1]:
            n += 1
        return n

    def stop(self, step, action, observation, errored):
        self.keys.append(self.key(action.strip(), observation, errored))
        if len(self.keys) > self.keep:
            del self.keys[0]
        found = self.count() >= self.times
        if not found and self.nudged:  # the agent broke off: start afresh
            self.nudged, self.keys = 0, self.keys[-1:]
            if self.seen is not None:
                self.seen = {}
                self.count()
        elif found and (not self.then or self.nudged and step - self.nudged >= self.then):
            return True
        elif found and not self.nudged:
            self.nudged = step
            return "nudge"
        return False


class LoopBreak:
    def __init__(self):
        self.step = 0
        self.rules = [
`)
	for _, q := range rules {
		b.WriteString("            " + ruleCall(q) + ",\n")
	}
	b.WriteString(`        ]

    def stop(self, action, observation="", errored=False):
        self.step += 1
        verdicts = [r.stop(self.step, action, observation, errored) for r in self.rules]
        return True if True in verdicts else "nudge" if "nudge" in verdicts else False
`)
	return b.String()
}

// ruleCall is the Rule(...) that runs q.
func ruleCall(q policy.Policy) string {
	obs := "o"
	if re := q.Get(policy.Ignore); re > 0 {
		obs = fmt.Sprintf("re.sub(%s, \"\", o)", pyRaw(policy.Ignore.Format(re)))
	}
	var key string
	alternate := false
	switch q.Name {
	case policy.Repeat:
		key = "lambda a, o, e: a or None"
	case policy.RepeatObserved:
		key = "lambda a, o, e: (a, " + obs + ") if a else None"
	case policy.Alternate:
		alternate = true
		key = "lambda a, o, e: (a, " + obs + ") if a else None"
		if q.Get(policy.Compare) == 0 {
			key = "lambda a, o, e: a or None"
		}
	case policy.Errored:
		key = "lambda a, o, e: True if e else None"
		if q.Get(policy.SameAction) == 1 {
			key = "lambda a, o, e: a if e else None"
		}
	}
	// within -1: the whole run; 0 for alternate, which has none.
	call := fmt.Sprintf("Rule(%d, %d, %d, %s", q.Get(policy.Times), q.Get(policy.Within), q.Get(policy.Then), key)
	if alternate {
		call += ", alternate=True"
	}
	return call + ")"
}

// pyRaw writes s as a Python string literal that holds it as it is.
func pyRaw(s string) string {
	if !strings.ContainsAny(s, "\"\\\n") {
		return "r\"" + s + "\""
	}
	return strconv.Quote(s) // Python reads Go's escapes of these alike
}
