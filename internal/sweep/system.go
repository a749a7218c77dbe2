package sweep

import (
	"fmt"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/policy"
)

// System is what ran the episodes and will run the setting shipped: an agent
// (ZorkGPT, ZorkGPT2) or a benchmark harness. It decides which configs the
// answer may name — those it runs as it is — and writes the block that sets
// one. Which policies a system runs is a property of the policy registry's
// entries (policy.Kind); a System only reads it.
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
	// Stops: the system stops its runs on a rule of its own today (ZorkGPT's
	// loop break, set by --config or its defaults). For the others what runs
	// now is no stop at all (policy.None), unless --config names a setting.
	Stops bool
	// Adds is, for a system that stops no run itself, the rule batch
	// compares with no stop at all when --after does not name one.
	Adds policy.Name
}

// Runs reports whether the system runs p as it is.
func (s *System) Runs(p policy.Policy) bool {
	_, err := s.Block(p)
	return err == nil
}

// ZorkGPT runs score and score-or-objective (policy.Kind.ZorkGPT says how),
// set by [tool.zorkgpt.loop_break] within the bounds its validation accepts.
var ZorkGPT = &System{Name: "ZorkGPT", File: "pyproject.toml", Lang: "toml", Block: zorkGPTBlock, Stops: true}

func zorkGPTBlock(p policy.Policy) (string, error) {
	block, err := p.TOML()
	if err != nil {
		if c := p.Kind().Change; c != "" {
			return "", fmt.Errorf("%w: %s", err, c)
		}
	}
	return block, err
}

// ZorkGPT2 runs zorkburr (policy.Kind.ZorkGPT2), set by [tool.zorkburr] —
// once its runner stops on the rule: run_episode.py, the one its author
// uses, does not, so that what runs now is no stop at all (docs/zorkgpt2.md,
// "The stuck rule").
var ZorkGPT2 = &System{Name: "ZorkGPT2", File: "pyproject.toml", Lang: "toml", Block: zorkGPT2Block, Adds: policy.Zorkburr,
	Note: "run_episode.py must stop on the rule, as zorkburr/main.py does after every Burr step, for it to take effect"}

func zorkGPT2Block(p policy.Policy) (string, error) {
	k := p.Kind()
	switch {
	case k == nil:
		return "", fmt.Errorf("ZorkGPT2 cannot run %s without a code change", p.Name)
	case !k.ZorkGPT2:
		return "", fmt.Errorf("ZorkGPT2 cannot run %s without a code change: %s", p.Name, k.ZorkGPT2Change)
	}
	return p.ZorkburrTOML(), nil
}

// Harness is a benchmark harness or an agent loop of the user's own with no
// stop rule of its own (TALES, or JSONL read through a field map): it runs
// any policy that needs only the score per step, in words and settings added
// to its step loop (policy.Policy.HarnessBlock; docs/sources.md, "Which
// system ran a log").
var Harness = &System{Name: "your harness", File: "your harness's configuration", Lang: "toml",
	Block: policy.Policy.HarnessBlock, Note: "stop the run in its step loop as the rule says", Adds: policy.Increase}

// systems are the systems by the name the episodes' sources give them
// (episode.Episode.System). A source of another agent's logs adds its
// system to both.
var systems = map[episode.System]*System{episode.ZorkGPT: ZorkGPT, episode.ZorkGPT2: ZorkGPT2, episode.Harness: Harness}

// SystemOf is the system that ran the episodes (episode.SystemOf): ZorkGPT
// for episodes of several.
func SystemOf(eps []*episode.Episode) *System { return systems[episode.SystemOf(eps)] }
