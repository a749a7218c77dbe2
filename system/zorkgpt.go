package system

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/lbanalyze/lbanalyze/internal/metrics"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/replay"
	"github.com/lbanalyze/lbanalyze/source/zorkgpt"
)

// ZorkGPT stops its runs on its loop break, score or score-or-objective as
// [tool.zorkgpt.loop_break] sets it, within the bounds its validation
// accepts (docs/log-format.md, "6. [tool.zorkgpt.loop_break]"); by default
// score-or-objective 40/10.
var ZorkGPT = &System{Name: zorkGPT, Formats: []string{zorkgpt.Format}, File: "pyproject.toml", Lang: "toml",
	Table: "tool.zorkgpt.loop_break", readConfig: readZorkGPTConfig,
	Now:   zorkGPTDefault,
	Block: zorkGPTBlock, CallsPerTurn: 4, Refusals: zorkGPTRefusals,
	Recorder: replay.Recorder{Rules: []policy.Name{policy.Score, policy.ScoreOrObjective}, Accepts: zorkGPTAccepts},
	Shows:    Shows{Applies: metrics.Applies{Objectives: true, Expected: true}, Warnings: true, RevisitPenalty: true}}

const zorkGPT = "ZorkGPT"

// zorkGPTDefault is what ZorkGPT runs with no [tool.zorkgpt.loop_break] key.
var zorkGPTDefault = policy.Policy{Name: policy.ScoreOrObjective}

// zorkGPTRuns are the policies ZorkGPT runs as it is, each by its value of
// enable_objective_based_progress.
var zorkGPTRuns = map[policy.Name]bool{policy.Score: false, policy.ScoreOrObjective: true}

// zorkGPTChanges are, for the policies ZorkGPT does not run as it is, the
// smallest change to its tracker (or game loop) that would run each, in one
// sentence.
var zorkGPTChanges = map[policy.Name]string{
	policy.Window:     "anchor an objective completion at its own turn (t − completed_turn == 0) instead of within one turn, so that it counts as a score change at c rather than c+1",
	policy.Increase:   "in _track_score_for_progress_detection, reset the timer only when current_score exceeds _last_tracked_score, and leave _last_tracked_score alone when the score falls",
	policy.Patience:   "keep one last-progress turn per source in _track_score_for_progress_detection (score change, latest completed_turn, latest first visit to a room id) and let the stuck check fire only when each has exceeded its own patience setting",
	policy.None:       "remove the stuck check from _run_game_loop",
	policy.Supervisor: "stop the episode in _run_game_loop at every C-th turn when one of the triggers holds over the last C turns",
	policy.Zorkburr:   "in _track_score_for_progress_detection, count a score change during turn 1, and let the stuck check stop the episode when the timer had reached max_turns_stuck before the turn's score was tracked as well as after",
}

// zorkGPTAnyChange is ZorkGPT's change for a policy without a sentence of
// its own in zorkGPTChanges: its name and definition.
const zorkGPTAnyChange = "in _track_score_for_progress_detection and _run_game_loop, replace the stuck check by %s's rule: %s"

// zorkGPTBlock is the [tool.zorkgpt.loop_break] block that makes ZorkGPT run
// p as it is, to paste into pyproject.toml. The warning threshold is p's
// when ZorkGPT's validation accepts it, else the highest it accepts up to
// 20. The error says why ZorkGPT cannot run p without a code change.
func zorkGPTBlock(p policy.Policy) (string, error) {
	objectives, ok := zorkGPTRuns[p.Name]
	if !ok {
		return "", cannot(zorkGPT, p, zorkGPTChanges, zorkGPTAnyChange)
	}
	q := p.Timer()
	if q.WarningThreshold < minWarning || q.WarningThreshold >= q.MaxTurnsStuck {
		q.WarningThreshold = min(policy.DefaultWarningThreshold, q.MaxTurnsStuck-1)
	}
	if r := refusals(q); len(r) > 0 {
		return "", fmt.Errorf("ZorkGPT would refuse %d/%d: %s", q.MaxTurnsStuck, q.CheckInterval, strings.Join(r, "; "))
	}
	return fmt.Sprintf("[tool.zorkgpt.loop_break]\nmax_turns_stuck = %d\nstuck_check_interval = %d\nenable_objective_based_progress = %t\nstuck_warning_threshold = %d\n",
		q.MaxTurnsStuck, q.CheckInterval, objectives, q.WarningThreshold), nil
}

// zorkGPTRefusals lists why ZorkGPT would refuse p's settings, for a policy
// with a stuck timer but another agent's rule (ZorkGPT2's, which checks its
// own as --config reads it).
func zorkGPTRefusals(p policy.Policy) []string {
	if k := p.Kind(); k != nil && k.Ported || !p.Has(policy.MaxTurnsStuck) {
		return nil
	}
	return refusals(p.Timer())
}

// The bounds of ZorkGPT's GameConfiguration (its pydantic Fields,
// docs/log-format.md, "6. [tool.zorkgpt.loop_break]").
const maxStuck, maxInterval, minWarning, maxWarning = 1000, 100, 5, 100

// zorkGPTAccepts: some warning threshold makes w/i a setting ZorkGPT takes
// (refusals): w within its range and at least i, above the lowest threshold.
func zorkGPTAccepts(w, i int) bool {
	return i >= 1 && i <= maxInterval && w >= i && w > minWarning && w <= maxStuck
}

// refusals lists why ZorkGPT's GameConfiguration would refuse these
// settings (its pydantic bounds and its two model validators), each naming
// the key.
func refusals(p policy.Timer) []string {
	var r []string
	bound := func(key string, v, lo, hi int) {
		if v < lo || v > hi {
			r = append(r, fmt.Sprintf("%s = %d is outside ZorkGPT's range %d..%d", key, v, lo, hi))
		}
	}
	bound("max_turns_stuck", p.MaxTurnsStuck, 1, maxStuck)
	bound("stuck_check_interval", p.CheckInterval, 1, maxInterval)
	bound("stuck_warning_threshold", p.WarningThreshold, minWarning, maxWarning)
	if p.MaxTurnsStuck < p.CheckInterval {
		r = append(r, fmt.Sprintf("max_turns_stuck (%d) must be >= stuck_check_interval (%d)", p.MaxTurnsStuck, p.CheckInterval))
	}
	if p.WarningThreshold >= p.MaxTurnsStuck {
		r = append(r, fmt.Sprintf("stuck_warning_threshold (%d) must be < max_turns_stuck (%d)", p.WarningThreshold, p.MaxTurnsStuck))
	}
	return r
}

// configKey is one of the ten keys GameConfiguration.from_toml copies, with its
// pydantic Field bounds (docs/log-format.md, "6. [tool.zorkgpt.loop_break]").
type configKey struct {
	name   string
	kind   string // int, bool, float
	lo, hi float64
}

var configKeys = []configKey{
	{"max_turns_stuck", "int", 1, maxStuck},
	{"stuck_check_interval", "int", 1, maxInterval},
	{"enable_objective_based_progress", "bool", 0, 0},
	{"enable_location_penalty", "bool", 0, 0},
	{"location_revisit_penalty", "float", -1, 0},
	{"location_revisit_window", "int", 2, 20},
	{"enable_exploration_hints", "bool", 0, 0},
	{"action_novelty_window", "int", 5, 50},
	{"enable_stuck_warnings", "bool", 0, 0},
	{"stuck_warning_threshold", "int", minWarning, maxWarning},
}

// maxUnknownKeys is how many unknown keys are named one by one; the rest are
// counted.
const maxUnknownKeys = 10

// readZorkGPTConfig reads [tool.zorkgpt.loop_break] and validates it as
// GameConfiguration does: each key's type and bounds, then max_turns_stuck >=
// stuck_check_interval and stuck_warning_threshold < max_turns_stuck. Missing
// keys take ZorkGPT's defaults; the policy is score-or-objective unless
// enable_objective_based_progress is false.
func readZorkGPTConfig(k keys, table map[string]any) (Config, error) {
	c := Config{Policy: zorkGPTDefault}
	p := policy.DefaultTimer()
	known := map[string]bool{}
	for _, key := range configKeys {
		known[key.name] = true
		v, present := table[key.name]
		if !present {
			continue
		}
		switch key.kind {
		case "int", "float":
			f, ok := number(v, key.kind == "int")
			if !ok {
				return c, fmt.Errorf("%s = %s: ZorkGPT requires %s", k.at(key.name), show(v), map[string]string{"int": "an integer", "float": "a number"}[key.kind])
			}
			if f < key.lo || f > key.hi {
				return c, fmt.Errorf("%s = %s: ZorkGPT requires %g <= %s <= %g", k.at(key.name), show(v), key.lo, key.name, key.hi)
			}
			switch key.name {
			case "max_turns_stuck":
				p.MaxTurnsStuck = int(f)
			case "stuck_check_interval":
				p.CheckInterval = int(f)
			case "stuck_warning_threshold":
				p.WarningThreshold = int(f)
			}
		case "bool":
			b, ok := boolean(v)
			if !ok {
				return c, fmt.Errorf("%s = %s: ZorkGPT requires true or false", k.at(key.name), show(v))
			}
			if key.name == "enable_objective_based_progress" && !b {
				c.Policy.Name = policy.Score
			}
		}
	}
	c.Policy = c.Policy.WithTimer(p)
	// The model validators of session/game_configuration.py (09a7cc2+).
	if p.MaxTurnsStuck < p.CheckInterval {
		return c, fmt.Errorf("%s = %d: ZorkGPT requires max_turns_stuck >= stuck_check_interval (%d)", k.at("max_turns_stuck"), p.MaxTurnsStuck, p.CheckInterval)
	}
	if p.WarningThreshold >= p.MaxTurnsStuck {
		return c, fmt.Errorf("%s = %d: ZorkGPT requires stuck_warning_threshold < max_turns_stuck (%d)", k.at("stuck_warning_threshold"), p.WarningThreshold, p.MaxTurnsStuck)
	}
	var unknown []string
	for key := range table {
		if !known[key] {
			unknown = append(unknown, key)
		}
	}
	sort.Strings(unknown)
	for _, key := range unknown[:min(len(unknown), maxUnknownKeys)] {
		c.Warnings = append(c.Warnings, fmt.Sprintf("%s: unknown key, ignored (ZorkGPT ignores it too)", k.at(key)))
	}
	if n := len(unknown) - maxUnknownKeys; n > 0 {
		c.Warnings = append(c.Warnings, fmt.Sprintf("%s: %d more unknown keys in [%s], ignored (the first %d are named above)", k.path, n, k.table, maxUnknownKeys))
	}
	return c, nil
}

// number accepts what pydantic's lax mode accepts for an int (or float)
// field: integers, floats without a fraction (any float for a float field),
// and strings holding such a number.
func number(v any, integer bool) (float64, bool) {
	var f float64
	switch v := v.(type) {
	case int64:
		f = float64(v)
	case float64:
		f = v
	case string:
		x, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil {
			return 0, false
		}
		f = x
	default:
		return 0, false
	}
	if math.IsNaN(f) || math.IsInf(f, 0) || integer && f != math.Trunc(f) {
		return 0, false
	}
	return f, true
}

// boolean accepts what pydantic's lax mode accepts for a bool.
func boolean(v any) (bool, bool) {
	switch v := v.(type) {
	case bool:
		return v, true
	case int64:
		if v == 0 || v == 1 {
			return v == 1, true
		}
	case string:
		switch strings.ToLower(strings.TrimSpace(v)) {
		case "true", "yes", "on", "1", "t", "y":
			return true, true
		case "false", "no", "off", "0", "f", "n":
			return false, true
		}
	}
	return false, false
}
