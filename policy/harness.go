package policy

import (
	"fmt"
	"strings"

	"github.com/lbanalyze/lbanalyze/episode"
)

// What a policy means to a harness: a benchmark loop or an agent loop of the
// user's own, which has no stop rule of its own and records a score per step
// but not ZorkGPT's objectives (docs/sources.md, "Which system ran a log").

// Needs are the signals a log must record for p to be replayed as defined:
// its kind's, and those its settings turn on (patience's objectives and
// rooms).
func (p Policy) Needs() episode.Signals {
	k := p.Kind()
	if k == nil {
		return 0
	}
	need := k.Needs
	if k.SettingNeeds != nil {
		need |= k.SettingNeeds(p.Params)
	}
	return need
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
		rule = k.Rule(p.Params)
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
	for _, d := range Dimensions() {
		if !d.Has(p.Name) || d.Key == "stuck_warning_threshold" {
			continue
		}
		v := d.Applied(&p.Params) // the block says what applies: min_delta 0 is 1
		if d.Names != nil && v >= 0 && v < len(d.Names) {
			fmt.Fprintf(&b, "%s = %q\n", d.Key, d.Names[v])
			continue
		}
		fmt.Fprintf(&b, "%s = %s\n", d.Key, d.Format(v))
	}
	return b.String(), nil
}

// scoreRule words the score tracking every harness policy shares
// (shipped.track, scoreSource): in mode increase only a rise above the
// tracked score is progress; a move smaller than min_delta is not progress
// and leaves the tracked score where it was.
func scoreRule(p Params, increase bool) string {
	moved := "changed (up or down)"
	switch d := p.minDelta(); {
	case increase && d > 1:
		moved = fmt.Sprintf("risen by at least %d above the score of its last rise", d)
	case increase:
		moved = "risen above its best so far"
	case d > 1:
		moved = fmt.Sprintf("moved by at least %d, up or down, from the score of its last move", d)
	}
	from := ""
	if p.MinTurns > 0 {
		from = fmt.Sprintf(" from step %d on", p.MinTurns)
	}
	return fmt.Sprintf("At each step t that is a multiple of %d%s, stop the run if its score has not %s in the last %d steps (t-%d+1 to t); "+
		"the score after step 1 is the first one compared, so a move during step 1 does not count.",
		p.CheckInterval, from, moved, p.MaxTurnsStuck, p.MaxTurnsStuck)
}

// patienceRule is patience's rule in a harness's words when it needs only
// the score (objectives off, rooms off); "" otherwise.
func patienceRule(p Params) string {
	if _, on := p.objectivePatience(); on || p.RoomPatience > 0 {
		return ""
	}
	return scoreRule(p, p.ScoreMode == ScoreIncrease)
}

// patienceNeeds are the signals patience's settings turn on.
func patienceNeeds(p Params) episode.Signals {
	var need episode.Signals
	if _, on := p.objectivePatience(); on {
		need = need.With(episode.Objectives)
	}
	if p.RoomPatience > 0 {
		need = need.With(episode.Rooms)
	}
	return need
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
