// Package system is the registry of the systems that run agents' episodes and
// will run the setting shipped: an agent with a stop rule of its own
// (ZorkGPT), one whose runner does not enforce its rule (ZorkGPT2), or a
// benchmark harness (docs/sources.md, "Which system ran a log"). A system is
// one file: its name, the log formats that are its, the policies it runs as
// it is and the smallest change for the others, the block that sets one, its
// configuration, its defaults, and what its reports say. Nothing outside this
// package asks which system a log is of but through its entry.
package system

import (
	"fmt"
	"slices"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/metrics"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/replay"
)

// System is one entry of the registry.
type System struct {
	Name string // in sentences: "ZorkGPT", "your harness"
	// Formats are the log formats (episode.Episode.Format), each its
	// source's constant, that its logs are read as: an episode of one of
	// them is this system's. The harness lists none: it is the system of
	// every other source's logs, so that a new source of a harness's logs is
	// its file and a line of corpus's registry.
	Formats []string
	// Table is the table of a pyproject.toml that sets what it runs
	// ("tool.zorkgpt.loop_break"), read by readConfig; "" for a system that
	// has none (a harness).
	Table      string
	readConfig func(k keys, table map[string]any) (Config, error)
	File       string // where its block goes: "pyproject.toml"
	Lang       string // the block's language, for markdown fences: "toml"
	// Block is the text that makes the system run p, to paste into File, or
	// an error saying why it cannot without a code change and the smallest
	// change that would run it.
	Block func(p policy.Policy) (string, error)
	// Note is what else must hold for the block to take effect; "" if nothing.
	Note string
	// Now is what runs today when --config names nothing: the rule it stops
	// its runs on by default (ZorkGPT's loop break at its defaults), no
	// stop at all (policy.None) for a system that stops no run itself
	// (Stops), or its own cap as it ran (policy.OwnCap: Terminal-Bench's
	// timeout, whose value its logs do not give).
	Now policy.Policy
	// Adds is, for a system that stops no run itself, the rule batch
	// compares with what runs now when --after does not name one.
	Adds policy.Name
	// Offered are the policies its logs are replayed under when none is
	// asked for, in the order of policy.Names; nil: the command's defaults
	// (a system that stops its runs on a rule of its own).
	Offered []policy.Name
	// CallsPerTurn is what a turn costs in LLM calls where a log does not
	// count them (--calls-per-turn overrides it).
	CallsPerTurn int
	// Refusals lists why the system's configuration would refuse p's
	// settings; nil when it has no bounds of its own to check (lbanalyze
	// replays them anyway: a what-if may go where the system cannot).
	Refusals func(p policy.Policy) []string
	// Recorder is what a self-check of its logs needs (replay.Check): the
	// rules its recordings may have run, the settings its configuration
	// takes.
	replay.Recorder
	// Shows are the parts of a report that apply to its logs.
	Shows Shows
}

// Shows says which parts of a report apply to a system's logs, beyond those
// every log has; a part that does not is left out of tables and is null in
// JSON and CSV (docs/output.md).
type Shows struct {
	// Applies says which metrics apply: objectives counted (in headers and
	// tables too), the specification's expected changes, scores not whole.
	metrics.Applies
	// Warnings: its agent is shown a countdown warning when stuck: the
	// warned column, the countdown warnings (1C), the warning pattern.
	Warnings bool
	// RevisitPenalty: ZorkGPT's location revisit penalty (1B) is replayed
	// on its logs' rooms.
	RevisitPenalty bool
}

// none is what runs now on a system that stops no run on a rule of its own.
var none = policy.Policy{Name: policy.None}

// Stops reports whether the system stops its runs on a rule of its own
// today, one a change replaces (ZorkGPT's loop break); a system whose runs
// go on to their end, or to their own cap, has a rule to add (Adds).
func (s *System) Stops() bool { return s.Adds == "" }

// Runs reports whether the system runs p as it is.
func (s *System) Runs(p policy.Policy) bool {
	_, err := s.Block(p)
	return err == nil
}

// registry are the systems, in the order lists show them. The first is the
// system of an episode of no format (made by hand) and of episodes of
// several systems: ZorkGPT, whose logs lbanalyze read first. A new system is
// one file and a line here.
var registry = []*System{ZorkGPT, ZorkGPT2, Harness, MiniSweAgent, Tau2, TerminalBench, Agents}

// All lists every system, in order.
func All() []*System { return slices.Clone(registry) }

// Of is the system that ran ep, by its log format: the system that lists
// it, else the harness.
func Of(ep *episode.Episode) *System {
	if ep.Format == "" {
		return registry[0]
	}
	for _, s := range registry {
		if slices.Contains(s.Formats, ep.Format) {
			return s
		}
	}
	return Harness
}

// OfAll is the system that ran every one of eps; the first of the registry
// when they were run by several, or there are none. A harness words its
// block for its logs (harnessFor: real scores, BALROG's loop).
func OfAll(eps []*episode.Episode) *System {
	if len(eps) == 0 {
		return registry[0]
	}
	s := Of(eps[0])
	for _, ep := range eps[1:] {
		if Of(ep) != s {
			return registry[0]
		}
	}
	if s == Harness {
		return harnessFor(eps)
	}
	return s
}

// cannot is the error of a system that cannot run p without a code change:
// the smallest change, its own sentence for p's policy in changes, else its
// words for any policy (anyChange, a format with the policy's name and its
// definition: policy.Kind.Description), so that a new policy needs no
// system's sentence to be named.
func cannot(system string, p policy.Policy, changes map[policy.Name]string, anyChange string) error {
	change, ok := changes[p.Name]
	if k := p.Kind(); !ok && k != nil {
		change = fmt.Sprintf(anyChange, p.Name, k.Description)
	}
	if change == "" {
		return fmt.Errorf("%s cannot run %s without a code change", system, p.Name)
	}
	return fmt.Errorf("%s cannot run %s without a code change: %s", system, p.Name, change)
}
