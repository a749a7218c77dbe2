package system

import (
	"fmt"

	"github.com/lbanalyze/lbanalyze/policy"
)

// ZorkGPT2 runs zorkburr, set by [tool.zorkburr], once its runner stops on
// the rule: run_episode.py, the one its author uses, does not, so that what
// runs now is no stop at all (docs/zorkgpt2.md, "The stuck rule"). Its logs
// count a turn's LLM calls where they record its critic scores and
// rejections (docs/zorkgpt2.md, "LLM calls"); an older snapshot, which does
// not, is priced at ZorkGPT's 4.
var ZorkGPT2 = &System{Name: zorkGPT2, File: "pyproject.toml", Lang: "toml",
	Formats: []string{"zorkgpt2-burr", "zorkgpt2-runlog", "zorkgpt2-snapshot"},
	Block:   zorkGPT2Block, Adds: policy.Zorkburr, CallsPerTurn: 4,
	Rules: []policy.Name{policy.Zorkburr},
	// [tool.zorkburr] takes any max_turns_stuck from 1 and any interval but
	// 0, a negative one checking as its magnitude (docs/zorkgpt2.md, "The
	// stuck rule").
	Accepts: func(w, i int) bool { return w >= 1 && i >= 1 },
	Offered: []policy.Name{policy.Score, policy.Supervisor, policy.Zorkburr, policy.Increase},
	Note:    "run_episode.py must stop on the rule, as zorkburr/main.py does after every Burr step, for it to take effect",
	// Its agent sees a countdown from 30 turns stuck (the warned column);
	// ZorkGPT's revisit penalty is replayed on its rooms as on ZorkGPT's.
	Shows: Shows{Objectives: true, Warnings: true, RevisitPenalty: true}}

const zorkGPT2 = "ZorkGPT2"

// afterResults is the part of the change to ZorkGPT2 that every rule of
// ZorkGPT's needs: its check sees the counter after the turn, not the larger
// of the turn before's and this one's (docs/zorkgpt2.md, "The stuck rule").
const afterResults = "and check it once a turn, after record_results, rather than after every Burr step (zorkburr/main.py)"

// zorkGPT2Changes are, for the policies ZorkGPT2 does not run as it is, the
// smallest change to it that would run each, in one sentence.
var zorkGPT2Changes = map[policy.Name]string{
	policy.Score:            "in record_results, let a score change during turn 1 leave turns_since_progress alone, " + afterResults,
	policy.ScoreOrObjective: "in record_results, let a score change during turn 1 leave turns_since_progress alone and reset it at a turn c that completes an objective and again at c+1, " + afterResults,
	policy.Window:           "in record_results, let a score change during turn 1 leave turns_since_progress alone and reset it at a turn that completes an objective, " + afterResults,
	policy.Increase:         "in record_results, reset turns_since_progress only when the score rises above its best so far, not during turn 1, " + afterResults,
	policy.Patience:         "in record_results, keep one last-progress turn per source (score change, objective completed, first visit to a room), and let the check, once a turn after record_results, stop only when each has exceeded its own patience setting",
	policy.None:             "leave the stuck check out of the runner, as run_episode.py does",
	policy.Supervisor:       "stop the run in the runner at every C-th turn when one of the triggers holds over the last C TURN lines, instead of leaving the kill to the LLM supervisor",
}

// zorkGPT2Block is the [tool.zorkburr] block that sets a zorkburr config's
// max_turns_stuck and stuck_check_interval in ZorkGPT2.
func zorkGPT2Block(p policy.Policy) (string, error) {
	if p.Name != policy.Zorkburr {
		return "", cannot(zorkGPT2, p, zorkGPT2Changes[p.Name])
	}
	return fmt.Sprintf("[tool.zorkburr]\nmax_turns_stuck = %d\nstuck_check_interval = %d\n", p.MaxTurnsStuck, p.CheckInterval), nil
}
