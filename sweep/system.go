package sweep

import (
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/replay"
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

type changeError struct{ s string }

func (e changeError) Error() string { return e.s }

// SystemOf is the system that ran the episodes. Every log lbanalyze reads
// today is ZorkGPT's; a reader that tells other systems apart (ZorkGPT2, a
// harness such as TALES) names the episode's system, and this picks its
// entry, so that the answer names only configs that system runs and writes
// its block.
func SystemOf(eps []*replay.Episode) *System { return ZorkGPT }
