package policy

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/cespare/xxhash/v2"

	"github.com/lbanalyze/lbanalyze/episode"
)

// The repetition rules (docs/policies.md, "Repetition rules") stop a run
// that repeats itself: the same action (repeat), the same action with the
// same response (repeat-observed), two steps in alternation (alternate),
// errors (errors). Each keys a step (what it compares of it, 0 for a step
// with nothing to compare, which matches none) and counts on the keys of
// the last steps; each may nudge before it stops (then=M).

// The settings the repetition rules share.
var (
	Times = &Setting{Key: "times", Flag: "times", Label: "times", Default: 3, Min: 2,
		Usage: "times K (repeat, repeat-observed, alternate, errors): stop when the last K steps repeat (the same action; with its response; two in alternation; errored)"}
	Within = &Setting{Key: "within", Flag: "within", Label: "within", Default: 0, Min: 1, Special: []Special{{0, "in a row"}, {wholeRun, "the whole run"}},
		Usage: "within N (repeat, repeat-observed, errors): count the repeats among the last N steps, not in a row; 0: in a row; -1: the whole run"}
	Then = &Setting{Key: "then", Flag: "then", Label: "then", Default: 0, Min: 1, Special: offAt0,
		Usage: "then M (repetition rules): the first detection nudges the agent, and the rule stops when the repetition goes on M steps more; 0: it stops at the first"}
	Ignore = &Setting{Key: "ignore", Flag: "ignore", Label: "ignore", Patterns: newPatterns(), Special: offAt0, Needs: episode.ResponseTexts,
		Usage: "ignore REGEX (repeat-observed, alternate): the parts of a response it matches are removed before comparing (ids, times); in --policy, write a colon \\x3a and a comma \\x2c"}
	// Compare: alternate compares (action, response) pairs, or actions alone
	// (Gemini CLI's cycles, TextQuests' A-B-A-B-A); only pairs need the
	// responses.
	Compare = &Setting{Key: "compare", Flag: "compare", Names: []string{"action", "pair"}, Default: 1, Special: offAt0, Needs: episode.Responses,
		Usage: "compare (alternate): pair, two (action, response) pairs in alternation; action, two actions whatever their responses"}
	SameAction = &Setting{Key: "action", Flag: "action", Names: []string{"any", "same"}, Default: 0,
		Usage: "action (errors): any, every errored step counts; same, only errors of one action in a row count (OpenHands' action_error)"}
)

// wholeRun is within's value that counts over every step so far (tau2's
// errors).
const wholeRun = -1

// actionKey keys a step by its action, compared with its surrounding
// whitespace trimmed (docs/sources.md, "What a step did"); 0 for a step
// without one.
func actionKey(o Observation) uint64 {
	a := strings.TrimSpace(o.Action)
	if a == "" {
		return 0
	}
	return max(xxhash.Sum64String(a), 1)
}

// responseKey keys a step by its response, the parts ignore matches
// removed from its text when ignore is not nil; 0 for a step without one.
func responseKey(o Observation, ignore *regexp.Regexp) uint64 {
	if o.Response == 0 {
		return 0
	}
	if ignore == nil {
		return o.Response
	}
	return max(xxhash.Sum64String(ignore.ReplaceAllLiteralString(o.ResponseText, "")), 1)
}

// ignored is the pattern p's ignore removes from responses, nil for none:
// looked up once a tracker, never a step.
func ignored(p Policy) *regexp.Regexp { return Ignore.Patterns.compiled(p.Get(Ignore)) }

// pairKey keys a step by its action and its response together; 0 when it
// lacks either.
func pairKey(o Observation, ignore *regexp.Regexp) uint64 {
	a, r := actionKey(o), responseKey(o, ignore)
	if a == 0 || r == 0 {
		return 0
	}
	var b [16]byte
	for i := range 8 {
		b[i], b[8+i] = byte(a>>(8*i)), byte(r>>(8*i))
	}
	return max(xxhash.Sum64(b[:]), 1)
}

// inARow is how many keys at the end of keys equal the last, the last
// included; 0 when the last is 0.
func inARow(keys []uint64) int {
	n := len(keys)
	if n == 0 || keys[n-1] == 0 {
		return 0
	}
	run := 1
	for run < n && keys[n-1-run] == keys[n-1] {
		run++
	}
	return run
}

// among is how many of the last within keys equal the last, the last
// included; 0 when the last is 0.
func among(keys []uint64, within int) int {
	n := len(keys)
	if n == 0 || keys[n-1] == 0 {
		return 0
	}
	count := 0
	for _, k := range keys[max(n-within, 0):] {
		if k == keys[n-1] {
			count++
		}
	}
	return count
}

// alternating is how many keys at the end of keys alternate between two
// distinct keys (each equal to the key two before it, none 0): at least 2
// when the last two differ and are not 0, else 0.
func alternating(keys []uint64) int {
	n := len(keys)
	if n < 2 || keys[n-1] == 0 || keys[n-2] == 0 || keys[n-1] == keys[n-2] {
		return 0
	}
	run := 2
	for run < n && keys[n-1-run] == keys[n-1-run+2] {
		run++
	}
	return run
}

// repeating is the tracker every repetition rule shares: it keys each step,
// keeps the keys of the last keep steps, counts on them, and stops when the
// count reaches times — or, with then = M, nudges at that first detection
// and stops when the detection holds M steps more (docs/policies.md,
// "Nudge, then stop"). A step after a nudge where it no longer holds is
// the logged agent breaking the repetition (Step.Heeded): the nudge is
// spent, and the keys before that step are forgotten, so that a new
// repetition earns its nudge afresh (the fix of localharness #81 and of
// LLMKube #1215, whose kill after a nudge fired on a recurrence however
// much happened between).
type repeating struct {
	// within is the steps a count is taken over, at least times; 0: in a
	// row; wholeRun: the whole run (seen). keep is how many steps' keys are
	// kept: enough for the count to reach times + then.
	times, within, then, keep int
	key                       func(Observation) uint64
	count                     func([]uint64) int
	// what says what repeated, for the stop's reason: n the count at
	// step t.
	what func(r *repeating, t, n int) string

	keys    []uint64
	actions []string // the trimmed actions of the steps kept
	nudge   int      // the turn of the nudge not yet spent; 0 none
	// seen counts, within the whole run, how often each key has come
	// since the count began (the run's start, or the step that heeded a
	// nudge), so that a step costs the same on the 200,000th step as on
	// the first; nil for a count over the keys kept.
	seen map[uint64]int
}

func (r *repeating) Step(t int, o Observation) Step {
	if len(r.keys) == r.keep { // the oldest step leaves, in place: no allocation a step
		r.keys, r.actions = slices.Delete(r.keys, 0, 1), slices.Delete(r.actions, 0, 1)
	}
	r.keys, r.actions = append(r.keys, r.key(o)), append(r.actions, strings.TrimSpace(o.Action))
	n := r.tally()
	found := n >= r.times
	s := Step{Turn: t, Anchor: t - n, TurnsStuck: n, Checked: true}
	switch {
	case !found && r.nudge > 0:
		s.Heeded, r.nudge = true, 0
		r.forget()
	case !found:
	case r.then == 0 || r.nudge > 0 && t-r.nudge >= r.then:
		s.Terminate, s.Reason, s.NudgedAt = true, r.what(r, t, n), r.nudge
		if r.nudge > 0 {
			s.Reason += fmt.Sprintf("; nudged at step %d", r.nudge)
		}
	case r.nudge == 0:
		r.nudge, s.Nudged = t, true
	}
	return s
}

// tally is the count at the step just kept.
func (r *repeating) tally() int {
	if r.seen == nil {
		return r.count(r.keys)
	}
	k := r.keys[len(r.keys)-1]
	if k == 0 {
		return 0
	}
	r.seen[k]++
	return r.seen[k]
}

// forget forgets the steps before the last: the count begins again at it.
func (r *repeating) forget() {
	r.keys, r.actions = r.keys[len(r.keys)-1:], r.actions[len(r.actions)-1:]
	if r.seen != nil {
		clear(r.seen)
		r.tally()
	}
}

// last is the action of the step k before the last kept (0: the last),
// cut for a reason.
func (r *repeating) last(k int) string {
	a := r.actions[len(r.actions)-1-k]
	if len(a) > maxReasonText {
		cut := maxReasonText
		for cut > 0 && !utf8.RuneStart(a[cut]) {
			cut--
		}
		a = a[:cut] + "…"
	}
	return strconv.Quote(a)
}

// maxReasonText bounds an action quoted in a stop's reason.
const maxReasonText = 60

// counted says how a count was taken, for a reason: "in a row (steps
// 10–12)", or "in the last 20 steps".
func (r *repeating) counted(t, n int) string {
	switch {
	case r.within == wholeRun:
		return "in the whole run"
	case r.within > 0:
		return fmt.Sprintf("in the last %d steps", r.within)
	}
	return fmt.Sprintf("in a row (steps %d–%d)", t-n+1, t)
}

// newRepeating is the tracker of a rule that counts one key: in a row,
// among the last within steps (at least times), or in the whole run.
func newRepeating(p Policy, key func(Observation) uint64, what func(r *repeating, t, n int) string) *repeating {
	times, within, then := p.Get(Times), p.Get(Within), p.Get(Then)
	r := &repeating{times: times, within: within, then: then, key: key, what: what, count: inARow}
	switch {
	case within == wholeRun: // counted by key as the run goes; only the last step is kept, for its action
		r.seen, r.keep = map[uint64]int{}, 1
		return r
	case within > 0:
		r.within = max(within, times)
		r.count = func(k []uint64) int { return among(k, r.within) }
	}
	r.keep = max(times, r.within) + then
	return r
}

// repetitionWindow is how many steps before a stop a repetition rule looks at (its
// Kind's Window): an objective completed within them makes the stop a
// candidate false termination.
func repetitionWindow(p Policy) int { return max(p.Get(Times), p.Get(Within)) + p.Get(Then) }

// registerRepetition adds a repetition rule (docs/policies.md, "Repetition
// rules"), a variant.
func registerRepetition(k Kind) {
	k.Variant, k.Window = true, repetitionWindow
	register(k)
}
