package sweep

import (
	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/source/zorkgpt"
)

// System is what ran the episodes and will run the setting shipped: an agent
// (ZorkGPT) or a benchmark harness. It decides which configs the answer may
// name — those it runs as it is — and writes the block that sets one. Which
// policies a system runs is a property of the policy registry's entries
// (policy.Kind); a System only reads it.
type System struct {
	Name string // in sentences: "ZorkGPT"
	File string // where the block goes: "pyproject.toml"
	Lang string // the block's language, for markdown fences: "toml"
	// Block is the text that makes the system run p, to paste into File, or
	// an error saying why it cannot without a code change and the smallest
	// change that would run it.
	Block func(p policy.Policy) (string, error)
	// Note is what else must hold for the block to take effect; "" if nothing.
	Note string
}

// Runs reports whether the system runs p as it is.
func (s *System) Runs(p policy.Policy) bool {
	_, err := s.Block(p)
	return err == nil
}

// ZorkGPT runs score and score-or-objective (policy.Kind.ZorkGPT says how),
// set by [tool.zorkgpt.loop_break] within the bounds its validation accepts.
var ZorkGPT = &System{Name: "ZorkGPT", File: "pyproject.toml", Lang: "toml", Block: zorkGPTBlock}

func zorkGPTBlock(p policy.Policy) (string, error) {
	block, err := p.TOML()
	if err != nil {
		if c := p.Kind().Change; c != "" {
			return "", changeError{err.Error() + ": " + c}
		}
	}
	return block, err
}

// Harness is a benchmark harness or an agent loop of the user's own with no
// stop rule of its own (TALES, or JSONL read through a field map): it runs
// any policy that needs only the score per step, in words and settings added
// to its step loop (policy.Policy.HarnessBlock; docs/sources.md, "Harness
// logs").
var Harness = &System{Name: "your harness", File: "your harness's configuration", Lang: "toml",
	Block: policy.Policy.HarnessBlock, Note: "stop the run in its step loop as the rule says"}

type changeError struct{ s string }

func (e changeError) Error() string { return e.s }

// systems are the agents by the log format of the episodes they run
// (episode.Episode.Format, the source that read them). A source of another
// agent's logs adds its entry here: ZorkGPT2 a System whose Block writes
// [tool.zorkburr] for its zorkburr policy (with the note that run_episode.py
// must enforce the rule). A harness's logs need no entry: the source marks
// them (episode.Episode.Harness), whatever their format.
var systems = map[string]*System{zorkgpt.Format: ZorkGPT}

// SystemOf is the system that ran the episodes: Harness when every one is a
// harness's; else the entry of their log format, ZorkGPT for a format
// without one or for episodes of several formats.
func SystemOf(eps []*episode.Episode) *System {
	if episode.AllHarness(eps) {
		return Harness
	}
	var format string
	for i, ep := range eps {
		if i > 0 && ep.Format != format {
			return ZorkGPT
		}
		format = ep.Format
	}
	if s, ok := systems[format]; ok {
		return s
	}
	return ZorkGPT
}
