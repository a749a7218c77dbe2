package system

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/lbanalyze/lbanalyze/internal/metrics"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/replay"
	"github.com/lbanalyze/lbanalyze/source/zorkgpt2"
)

// ZorkGPT2 runs zorkburr, set by [tool.zorkburr], once its runner stops on
// the rule: run_episode.py, the one its author uses, does not, so that what
// runs now is no stop at all (docs/zorkgpt2.md, "The stuck rule"). Its logs
// count a turn's LLM calls where they record its critic scores and
// rejections (docs/zorkgpt2.md, "LLM calls"); an older snapshot, which does
// not, is priced at ZorkGPT's 4.
var ZorkGPT2 = &System{Name: zorkGPT2, File: "pyproject.toml", Lang: "toml",
	Formats: []string{zorkgpt2.BurrFormat, zorkgpt2.RunLogFormat, zorkgpt2.SnapshotFormat},
	Table:   "tool.zorkburr", readConfig: readZorkGPT2Config, Now: none,
	Block: zorkGPT2Block, Adds: policy.Zorkburr, CallsPerTurn: 4,
	// [tool.zorkburr] takes any max_turns_stuck from 1 and any interval but
	// 0, a negative one checking as its magnitude (docs/zorkgpt2.md, "The
	// stuck rule").
	Recorder: replay.Recorder{Rules: []policy.Name{policy.Zorkburr}, Accepts: func(w, i int) bool { return w >= 1 && i >= 1 }},
	Offered:  []policy.Name{policy.Score, policy.Supervisor, policy.Zorkburr, policy.Increase},
	Note:     "run_episode.py must stop on the rule, as zorkburr/main.py does after every Burr step, for it to take effect",
	// Its agent sees a countdown from 30 turns stuck (the warned column);
	// ZorkGPT's revisit penalty is replayed on its rooms as on ZorkGPT's.
	Shows: Shows{Applies: metrics.Applies{Objectives: true}, Warnings: true, RevisitPenalty: true}}

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

// zorkGPT2AnyChange is ZorkGPT2's change for a policy without a sentence
// of its own in zorkGPT2Changes: its name and definition.
const zorkGPT2AnyChange = "in the runner, check once a turn, after record_results, and stop the run by %s's rule: %s"

// zorkGPT2Block is the [tool.zorkburr] block that sets a zorkburr config's
// max_turns_stuck and stuck_check_interval in ZorkGPT2.
func zorkGPT2Block(p policy.Policy) (string, error) {
	if p.Name != policy.Zorkburr {
		return "", cannot(zorkGPT2, p, zorkGPT2Changes, zorkGPT2AnyChange)
	}
	return fmt.Sprintf("[tool.zorkburr]\nmax_turns_stuck = %d\nstuck_check_interval = %d\n", p.MaxTurnsStuck(), p.CheckInterval()), nil
}

// readZorkGPT2Config reads [tool.zorkburr] as ZorkGPT2's GameConfig does
// (zorkburr/config.py: plain int fields, no bounds): each key an int in
// pydantic's lax mode (a bool, a float without a fraction, a string of
// digits), missing keys at their defaults 40 and 10, other keys passed over.
// It refuses what GameConfig refuses, and the values GameConfig takes but the
// check of zorkburr/main.py cannot run: max_turns_stuck below 1 (turn 0 is a
// check turn: every episode would end before its first turn) and an interval
// of 0 (turn_count % 0 fails). A negative interval runs as its magnitude
// (Python's % is 0 at the same turns), with a warning.
func readZorkGPT2Config(k keys, table map[string]any) (Config, error) {
	c := Config{Policy: policy.Policy{Name: policy.Zorkburr}}
	p := policy.DefaultTimer()
	for _, key := range []string{"max_turns_stuck", "stuck_check_interval"} {
		v, present := table[key]
		if !present {
			continue
		}
		n, ok := laxInt(v)
		if !ok {
			return c, fmt.Errorf("%s = %s: ZorkGPT2 requires an integer", k.at(key), show(v))
		}
		switch key {
		case "max_turns_stuck":
			if n < 1 {
				return c, fmt.Errorf("%s = %d: ZorkGPT2 takes it, but checks at turn 0 too: every episode would stop before its first turn", k.at(key), n)
			}
			p.MaxTurnsStuck = n
		case "stuck_check_interval":
			switch {
			case n == 0:
				return c, fmt.Errorf("%s = 0: ZorkGPT2 takes it, but its check computes turn_count %% 0: the run would fail (ZeroDivisionError)", k.at(key))
			case n < 0:
				c.Warnings = append(c.Warnings, fmt.Sprintf("%s = %d: ZorkGPT2 checks at the same turns as with %d (Python's %%)", k.at(key), n, -n))
				n = -n
			}
			p.CheckInterval = n
		}
	}
	c.Policy = c.Policy.WithTimer(p)
	return c, nil
}

// laxInt reads a value as pydantic's lax mode reads an int field: an
// integer; a bool (1, 0); a float without a fraction; a string of an
// optional sign, digits with single underscores between them, and an
// optional point followed by zeros ("40", " 40 ", "1_000", "40.0").
func laxInt(v any) (int, bool) {
	switch v := v.(type) {
	case int64:
		return int(v), true
	case bool:
		if v {
			return 1, true
		}
		return 0, true
	case float64:
		if math.IsInf(v, 0) || math.IsNaN(v) || v != math.Trunc(v) || math.Abs(v) > 1<<53 {
			return 0, false
		}
		return int(v), true
	case string:
		s := strings.TrimSpace(v)
		if whole, frac, ok := strings.Cut(s, "."); ok {
			if frac == "" || strings.Trim(frac, "0") != "" {
				return 0, false
			}
			s = whole
		}
		digits := strings.TrimLeft(s, "+-")
		if len(s)-len(digits) > 1 || digits == "" || digits[0] == '_' || digits[len(digits)-1] == '_' || strings.Contains(digits, "__") {
			return 0, false
		}
		n, err := strconv.ParseInt(strings.ReplaceAll(s, "_", ""), 10, 64)
		return int(n), err == nil
	}
	return 0, false
}
