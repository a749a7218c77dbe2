package policy

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lbanalyze/lbanalyze/episode"
)

// What a policy means to a harness: a benchmark loop or an agent loop of the
// user's own, which has no stop rule of its own and records a score per step
// but not ZorkGPT's objectives (docs/sources.md, "Which system ran a log").

// Needs are the signals a log must record for p to be replayed as defined:
// its kind's, and those of its settings that are not off (patience's
// objectives and rooms).
func (p Policy) Needs() episode.Signals {
	k := p.Kind()
	if k == nil {
		return 0
	}
	need := k.Needs
	for _, s := range k.Settings {
		if s.Needs != 0 && !s.isOff(p.Get(s)) {
			need = need.With(s.Needs)
		}
	}
	return need
}

// Offered are the policies the logs of system s are replayed under when none
// is asked for: those whose Kind offers them to s, in the order of Names;
// none for a system that stops its runs on a rule of its own (ZorkGPT),
// whose logs get the command's defaults.
func Offered(s episode.System) []Name {
	var out []Name
	for _, n := range Names() {
		if slices.Contains(registry[n].Offered, s) {
			out = append(out, n)
		}
	}
	return out
}

// HarnessBlock is the block that makes a harness run p: the rule in one
// sentence and its settings, to paste into the harness's configuration and
// enforce in its step loop. The countdown warning is left out: a harness
// shows the agent none, and the stop does not depend on it. The error says
// why a harness cannot run p on a score alone.
func (p Policy) HarnessBlock() (string, error) {
	k := p.Kind()
	rule := ""
	if k != nil && k.Rule != nil {
		rule = k.Rule(p)
	}
	if rule == "" {
		return "", fmt.Errorf("%s needs more than a score per step, which a harness's log does not give", p)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Stop rule (lbanalyze: %s), checked after every step:\n", p)
	for _, l := range wrap(rule, 86) {
		b.WriteString("#   " + l + "\n")
	}
	fmt.Fprintf(&b, "stop_rule = %q\n", p.Name)
	for _, s := range k.Settings {
		if s == WarningThreshold {
			continue
		}
		v := s.Applied(p.Get(s)) // the block says what applies: min_delta 0 is 1
		if s.Names != nil && v >= 0 && v < len(s.Names) {
			fmt.Fprintf(&b, "%s = %q\n", s.Key, s.Names[v])
			continue
		}
		fmt.Fprintf(&b, "%s = %s\n", s.Key, s.Format(v))
	}
	return b.String(), nil
}

// scoreRule words the score tracking every harness policy shares
// (shipped.track, scoreSource): in mode increase only a rise above the
// tracked score is progress; a move smaller than min_delta is not progress
// and leaves the tracked score where it was.
func scoreRule(p Policy, increase bool) string {
	moved := "changed (up or down)"
	switch d := MinDelta.Applied(p.Get(MinDelta)); {
	case increase && d > 1:
		moved = fmt.Sprintf("risen by at least %d above the score of its last rise", d)
	case increase:
		moved = "risen above its best so far"
	case d > 1:
		moved = fmt.Sprintf("moved by at least %d, up or down, from the score of its last move", d)
	}
	from := ""
	if m := p.Get(MinTurns); m > 0 {
		from = fmt.Sprintf(" from step %d on", m)
	}
	return fmt.Sprintf("At each step t that is a multiple of %d%s, stop the run if its score has not %s in the last %d steps (t-%d+1 to t); "+
		"the score after step 1 is the first one compared, so a move during step 1 does not count.",
		p.CheckInterval(), from, moved, p.MaxTurnsStuck(), p.MaxTurnsStuck())
}

// patienceRule is patience's rule in a harness's words when it needs only
// the score (objectives off, rooms off); "" otherwise.
func patienceRule(p Policy) string {
	if p.Needs() != 0 {
		return ""
	}
	return scoreRule(p, p.Get(ScoreMode) == ScoreIncrease)
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
