package system

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/textout"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/source/balrog"
)

// Harness is a benchmark harness or an agent loop of the user's own with no
// stop rule of its own (TALES, BALROG, or a per-step log read through a
// field map): it runs any policy that needs only the score per step, as a
// few lines of Python in its step loop (docs/sources.md, "Which system ran a
// log"). It makes one LLM call a step, and shows its agent no countdown.
var Harness = &System{Name: "your harness",
	File: "your harness's step loop", Lang: "python", Block: func(p policy.Policy) (string, error) { return harnessBlock(p, logsOf{}) },
	Note: "Python; in another language, the first comment is the rule", Now: none, Adds: policy.Increase, CallsPerTurn: 1,
	Offered: []policy.Name{policy.Score, policy.Increase}}

// logsOf is what a harness's block words for the logs it is given: their
// scores are not all whole (summed rewards, a normalised score), so that its
// rule says min_delta whatever its value (a rise of 0.5 is no progress under
// the default of 1); they are BALROG's, so that it says where the lines go in
// BALROG's loop rather than TALES's.
type logsOf struct{ real, balrog bool }

// harnesses are Harness for each kind of logs (OfAll gives them); the
// zero kind's is Harness.
var harnesses = func() map[logsOf]*System {
	m := map[logsOf]*System{{}: Harness}
	for _, k := range []logsOf{{real: true}, {balrog: true}, {real: true, balrog: true}} {
		s := *Harness
		s.Block = func(p policy.Policy) (string, error) { return harnessBlock(p, k) }
		s.Shows.RealScores = k.real
		m[k] = &s
	}
	return m
}()

// harnessFor is the harness whose block words its rules for eps.
func harnessFor(eps []*episode.Episode) *System {
	var k logsOf
	k.real = slices.ContainsFunc(eps, func(ep *episode.Episode) bool { return !ep.WholeScores() })
	k.balrog = !slices.ContainsFunc(eps, func(ep *episode.Episode) bool { return ep.Format != balrog.Format })
	return harnesses[k]
}

// harnessRules are the rules a harness can run on a score per step, each in
// one sentence in the words of its step loop.
var harnessRules = map[policy.Name]func(p policy.Policy, real bool) string{
	policy.Score:    func(p policy.Policy, real bool) string { return scoreRule(p, false, real) },
	policy.Increase: func(p policy.Policy, real bool) string { return scoreRule(p, true, real) },
	policy.Patience: func(p policy.Policy, real bool) string { return scoreRule(p, increases(p), real) },
	policy.None:     func(policy.Policy, bool) string { return "never stop the run before its budget: no stop rule." },
	// zorkburr's counter after step t−1 or after step t has reached W
	// (docs/zorkgpt2.md, "The stuck rule").
	policy.Zorkburr: func(p policy.Policy, _ bool) string {
		return fmt.Sprintf("%s, stop the run if its score has not changed (up or down) in the last %d steps "+
			"(t-%d+1 to t), or in the %d steps before step t; the score before step 1 counts as 0, so a move during step 1 counts.",
			atSteps(p), p.MaxTurnsStuck(), p.MaxTurnsStuck(), p.MaxTurnsStuck())
	},
}

// readsMore reports a policy some of whose settings read a signal beyond
// the score (the supervisor's triggers), or one the registry does not know.
func readsMore(p policy.Policy) bool {
	k := p.Kind()
	return k == nil || slices.ContainsFunc(k.Settings, func(s *policy.Setting) bool { return s.Reads != 0 })
}

// increases reports a score rule in which only a rise is progress.
func increases(p policy.Policy) bool {
	return p.Name == policy.Increase || p.Name == policy.Patience && p.Get(policy.ScoreMode) == policy.ScoreIncrease
}

// harnessBlock is the Python that makes a harness run p: the rule in one
// sentence, where the lines go (in TALES's loop too), and a class whose stop
// method, called after every step with its score, says when to end the run
// (a harness shows the agent no countdown, and the stop does not depend on
// one). The error says why a harness cannot run p on a score alone: p needs
// another signal (as patience does with objectives or rooms on), or has no
// rule in its words.
func harnessBlock(p policy.Policy, logs logsOf) (string, error) {
	if block, ok := repetitionBlock(p, logs); ok {
		return block, nil
	}
	rule := harnessRules[p.Name]
	switch {
	case p.Needs() != 0 || rule == nil && readsMore(p):
		return "", fmt.Errorf("%s needs more than a score per step, which a harness's log does not give", p)
	case rule == nil:
		return "", fmt.Errorf("lbanalyze writes no step loop for %s: its rule, to write into the harness's loop, is %s", p, p.Kind().Description)
	}
	return pythonBlock(p, rule(p, logs.real), usage, logs, python(p, logs.real)), nil
}

// pythonBlock is a harness's block: the rule in a sentence, as comments;
// how to call the class in any step loop (use), and where in TALES's or
// BALROG's; then the class.
func pythonBlock(p policy.Policy, rule, use string, logs logsOf, class string) string {
	var b strings.Builder
	for _, l := range textout.WrapWords(fmt.Sprintf("Stop rule (lbanalyze: %s): %s", p, rule), blockWidth-len("# ")) {
		b.WriteString("# " + l + "\n")
	}
	b.WriteString(use)
	if logs.balrog {
		b.WriteString(inBALROG)
	} else {
		b.WriteString(inTALES)
	}
	b.WriteString(class)
	return b.String()
}

// blockWidth bounds the lines of a harness's block: they fit a terminal of
// 80 columns.
const blockWidth = 79

// usage says where the class goes in any step loop; inTALES, in TALES's
// (benchmark.py's evaluate(), whose loop logs a step with results.append,
// then restarts a game that ended; docs/sources.md, "TALES"); inBALROG, in
// BALROG's (evaluator.py's run_episode, whose loop writes a step's row, then
// ends at done; its episode_return sums the rewards, and TextWorld's reward
// is the game's score: docs/sources.md, "BALROG").
const (
	usage = `# In the step loop: loop_break = LoopBreak() before it; after each step,
#   if loop_break.stop(score): break      # score: the score after the step
`
	inTALES = `# TALES: in benchmark.py's evaluate(), LoopBreak() before "for step in ...",
#   and the if after "results.append(...)", so that the last step is logged.
`
	inBALROG = `# BALROG: in evaluator.py's run_episode(), LoopBreak() before "for step in",
#   the if after "csv_writer.writerow(...)"; score: episode_return (TextWorld:
#   reward, the game's score).
`
)

// python is the class that runs p: its settings as constants, and stop,
// called once after every step with the score after it, true when the run
// is to end. It counts the steps itself, from 1. real: the logs have scores
// that are not whole.
func python(p policy.Policy, real bool) string {
	if p.Name == policy.None {
		return "class LoopBreak:\n    def stop(self, score):\n        return False  # no stop rule: every run spends its budget\n"
	}
	consts := []string{"MAX_TURNS_STUCK", "CHECK_INTERVAL"}
	vals := []string{strconv.Itoa(p.MaxTurnsStuck()), strconv.Itoa(p.CheckInterval())}
	if p.Name == policy.Zorkburr {
		return class(consts, vals) + `    def __init__(self):
        self.step, self.count, self.score = 0, 0, 0

    def stop(self, score):
        self.step += 1
        before = self.count  # steps without a move, before this one
        self.count = 0 if score != self.score else self.count + 1
        self.score = score
        return (self.step % self.CHECK_INTERVAL == 0
                and max(before, self.count) >= self.MAX_TURNS_STUCK)
`
	}
	delta, sized := minDelta(p, real)
	progress := "score != self.tracked:  # any change, up or down"
	moved, to := "score - self.tracked", ""
	if real {
		to = " + 1e-9" // compared to 9 decimals, as lbanalyze compares (policy/patience.go, scoreSource)
	}
	switch up := increases(p); {
	case up && sized:
		progress = moved + to + " >= self.MIN_DELTA:"
	case up:
		progress = "score > self.tracked:  # a new best"
	case sized:
		progress = "abs(" + moved + ")" + to + " >= self.MIN_DELTA:"
	}
	if sized {
		consts, vals = append(consts, "MIN_DELTA"), append(vals, delta)
	}
	minTurns := p.Get(policy.MinTurns)
	check := "self.step % self.CHECK_INTERVAL == 0"
	if minTurns > 0 {
		consts, vals = append(consts, "MIN_TURNS"), append(vals, strconv.Itoa(minTurns))
		check += "\n                and self.step >= self.MIN_TURNS"
	}
	return class(consts, vals) + fmt.Sprintf(`    def __init__(self):
        self.step, self.last, self.tracked = 0, 0, None

    def stop(self, score):
        self.step += 1
        if self.tracked is None:  # step 1 sets the score compared
            self.tracked = score
        elif %s
            self.tracked, self.last = score, self.step
        return (%s
                and self.step - self.last >= self.MAX_TURNS_STUCK)
`, progress, check)
}

// class opens the class, its settings as constants.
func class(consts, vals []string) string {
	return fmt.Sprintf("class LoopBreak:\n    %s = %s\n\n", strings.Join(consts, ", "), strings.Join(vals, ", "))
}

// atSteps says at which steps t a rule checks: every step, or every
// multiple of the check interval.
func atSteps(p policy.Policy) string {
	if p.CheckInterval() == 1 {
		return "at every step t"
	}
	return fmt.Sprintf("at each step t that is a multiple of %d", p.CheckInterval())
}

// minDelta is p's min_delta as its rule says it, and whether the rule says
// it: on whole scores a min_delta up to 1 counts any move, as the tracker
// compares (policy/patience.go, scoreSource); on real ones (real) the rule
// says what it is unless it is 0, since under the default of 1 a rise of 0.5
// is no progress.
func minDelta(p policy.Policy, real bool) (string, bool) {
	d := p.Get(policy.MinDelta)
	return policy.MinDelta.Format(d), p.Has(policy.MinDelta) && d > 0 && (real || d > policy.MinDelta.Default)
}

// scoreRule words the score tracking every harness policy shares: in mode
// increase only a rise above the tracked score is progress; a move smaller
// than min_delta is not progress and leaves the tracked score where it was.
func scoreRule(p policy.Policy, increase, real bool) string {
	moved := "changed (up or down)"
	switch delta, sized := minDelta(p, real); {
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
	return fmt.Sprintf("%s%s, stop the run if its score has not %s in the last %d steps (t-%d+1 to t); "+
		"the score after step 1 is the first one compared, so a move during step 1 does not count.",
		atSteps(p), from, moved, p.MaxTurnsStuck(), p.MaxTurnsStuck())
}
