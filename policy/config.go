package policy

import (
	"bytes"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
)

// Config is ZorkGPT's [tool.zorkgpt.loop_break] as GameConfiguration loads it.
type Config struct {
	Timer
	// ObjectiveBasedProgress is enable_objective_based_progress: the policy
	// ZorkGPT runs is ScoreOrObjective when true, Score when false.
	ObjectiveBasedProgress bool
	// Warnings are about keys ZorkGPT ignores (it ignores them silently).
	Warnings []string
	// Zorkburr: the file is ZorkGPT2's, its [tool.zorkburr] read
	// (zorkburr_config.go): the policy is zorkburr.
	Zorkburr bool
}

// Policy is the policy this configuration runs in ZorkGPT (in ZorkGPT2 for
// a [tool.zorkburr] table).
func (c Config) Policy() Policy {
	if c.Zorkburr {
		return Policy{Name: Zorkburr}.WithTimer(c.Timer)
	}
	if c.ObjectiveBasedProgress {
		return Policy{Name: ScoreOrObjective}.WithTimer(c.Timer)
	}
	return Policy{Name: Score}.WithTimer(c.Timer)
}

// configKey is one of the ten keys GameConfiguration.from_toml copies, with its
// pydantic Field bounds (docs/log-format.md, "6. [tool.zorkgpt.loop_break]").
type configKey struct {
	name   string
	kind   string // int, bool, float
	lo, hi float64
}

var configKeys = []configKey{
	{"max_turns_stuck", "int", 1, 1000},
	{"stuck_check_interval", "int", 1, 100},
	{"enable_objective_based_progress", "bool", 0, 0},
	{"enable_location_penalty", "bool", 0, 0},
	{"location_revisit_penalty", "float", -1, 0},
	{"location_revisit_window", "int", 2, 20},
	{"enable_exploration_hints", "bool", 0, 0},
	{"action_novelty_window", "int", 5, 50},
	{"enable_stuck_warnings", "bool", 0, 0},
	{"stuck_warning_threshold", "int", 5, 100},
}

// LoadConfig reads [tool.zorkgpt.loop_break] from a pyproject.toml and
// validates it as ZorkGPT does: each key's type and bounds, then
// max_turns_stuck >= stuck_check_interval and stuck_warning_threshold <
// max_turns_stuck. Missing keys take ZorkGPT's defaults; the rest of the file
// is ignored. Errors name the file, the line where it can be found, and the key.
func LoadConfig(path string) (Config, error) {
	data, err := readConfig(path)
	if err != nil {
		return Config{}, err
	}
	return ParseConfig(path, data)
}

// ParseConfig is LoadConfig of data read from path.
func ParseConfig(path string, data []byte) (Config, error) {
	c := Config{Timer: DefaultTimer(), ObjectiveBasedProgress: true}
	if line := tooDeep(data, MaxConfigDepth); line > 0 {
		return c, fmt.Errorf("%s:%d: nested more than %d deep (tables, dotted keys, arrays and inline tables): not read", path, line, MaxConfigDepth)
	}
	var doc map[string]any
	if _, err := toml.Decode(string(data), &doc); err != nil {
		return c, fmt.Errorf("%s: %w", path, err)
	}
	table, ok := dig(doc, "tool", "zorkgpt", "loop_break")
	if zb, isZorkGPT2 := dig(doc, "tool", "zorkburr"); isZorkGPT2 && !ok {
		return parseZorkburr(path, data, zb)
	} else if isZorkGPT2 {
		c.Warnings = append(c.Warnings, fmt.Sprintf("%s: [tool.zorkburr] ignored: the file also has [tool.zorkgpt.loop_break], which is read", path))
	}
	if !ok {
		c.Warnings = append(c.Warnings, fmt.Sprintf("%s: no [tool.zorkgpt.loop_break] table: ZorkGPT's defaults apply", path))
		return c, nil
	}
	lines := keyLines(data, tableHeader)
	where := func(key string) string {
		if line := lines[key]; line > 0 {
			return fmt.Sprintf("%s:%d: [tool.zorkgpt.loop_break] %s", path, line, key)
		}
		return fmt.Sprintf("%s: [tool.zorkgpt.loop_break] %s", path, key)
	}
	known := map[string]bool{}
	for _, k := range configKeys {
		known[k.name] = true
		v, present := table[k.name]
		if !present {
			continue
		}
		switch k.kind {
		case "int", "float":
			f, ok := number(v, k.kind == "int")
			if !ok {
				return c, fmt.Errorf("%s = %s: ZorkGPT requires %s", where(k.name), show(v), map[string]string{"int": "an integer", "float": "a number"}[k.kind])
			}
			if f < k.lo || f > k.hi {
				return c, fmt.Errorf("%s = %s: ZorkGPT requires %g <= %s <= %g", where(k.name), show(v), k.lo, k.name, k.hi)
			}
			switch k.name {
			case "max_turns_stuck":
				c.MaxTurnsStuck = int(f)
			case "stuck_check_interval":
				c.CheckInterval = int(f)
			case "stuck_warning_threshold":
				c.WarningThreshold = int(f)
			}
		case "bool":
			b, ok := boolean(v)
			if !ok {
				return c, fmt.Errorf("%s = %s: ZorkGPT requires true or false", where(k.name), show(v))
			}
			if k.name == "enable_objective_based_progress" {
				c.ObjectiveBasedProgress = b
			}
		}
	}
	// The model validators of session/game_configuration.py (09a7cc2+).
	if c.MaxTurnsStuck < c.CheckInterval {
		return c, fmt.Errorf("%s = %d: ZorkGPT requires max_turns_stuck >= stuck_check_interval (%d)", where("max_turns_stuck"), c.MaxTurnsStuck, c.CheckInterval)
	}
	if c.WarningThreshold >= c.MaxTurnsStuck {
		return c, fmt.Errorf("%s = %d: ZorkGPT requires stuck_warning_threshold < max_turns_stuck (%d)", where("stuck_warning_threshold"), c.WarningThreshold, c.MaxTurnsStuck)
	}
	var unknown []string
	for k := range table {
		if !known[k] {
			unknown = append(unknown, k)
		}
	}
	sort.Strings(unknown)
	for _, k := range unknown[:min(len(unknown), maxUnknownKeys)] {
		c.Warnings = append(c.Warnings, fmt.Sprintf("%s: unknown key, ignored (ZorkGPT ignores it too)", where(k)))
	}
	if n := len(unknown) - maxUnknownKeys; n > 0 {
		c.Warnings = append(c.Warnings, fmt.Sprintf("%s: %d more unknown keys in [tool.zorkgpt.loop_break], ignored (the first %d are named above)", path, n, maxUnknownKeys))
	}
	return c, nil
}

func dig(doc map[string]any, path ...string) (map[string]any, bool) {
	cur := doc
	for _, p := range path {
		next, ok := cur[p].(map[string]any)
		if !ok {
			return nil, false
		}
		cur = next
	}
	return cur, true
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

func show(v any) string {
	if s, ok := v.(string); ok {
		return strconv.Quote(s)
	}
	return fmt.Sprint(v)
}

var tableHeader = regexp.MustCompile(`^\s*\[\s*tool\s*\.\s*zorkgpt\s*\.\s*loop_break\s*\]`)

// maxUnknownKeys is how many unknown keys are named one by one; the rest are
// counted.
const maxUnknownKeys = 10

// keyLines finds the line of each key written KEY = … inside the table that
// header opens, for messages (the first, when a key is written twice); a key
// it does not find has none. One pass, however many keys.
func keyLines(data []byte, header *regexp.Regexp) map[string]int {
	lines := map[string]int{}
	in := false
	for i, line := range bytes.Split(data, []byte("\n")) {
		t := bytes.TrimSpace(line)
		switch {
		case header.Match(line):
			in = true
		case len(t) > 0 && t[0] == '[':
			in = false
		case in:
			key, _, ok := bytes.Cut(t, []byte("="))
			if k := string(bytes.TrimSpace(key)); ok && k != "" && lines[k] == 0 {
				lines[k] = i + 1
			}
		}
	}
	return lines
}

// TOML is the [tool.zorkgpt.loop_break] block that makes ZorkGPT run p as it
// is, to paste into pyproject.toml. The warning threshold is p's when
// ZorkGPT's validation accepts it, else the highest it accepts up to 20. The
// error says why ZorkGPT cannot run p without a code change.
func (p Policy) TOML() (string, error) {
	k := p.Kind()
	if k == nil || k.ZorkGPT == nil {
		return "", fmt.Errorf("ZorkGPT cannot run %s without a code change", p.Name)
	}
	q := p.Timer()
	if q.WarningThreshold < 5 || q.WarningThreshold >= q.MaxTurnsStuck {
		q.WarningThreshold = min(DefaultWarningThreshold, q.MaxTurnsStuck-1)
	}
	if r := q.Refusals(); len(r) > 0 {
		return "", fmt.Errorf("ZorkGPT would refuse %d/%d: %s", q.MaxTurnsStuck, q.CheckInterval, strings.Join(r, "; "))
	}
	return fmt.Sprintf("[tool.zorkgpt.loop_break]\nmax_turns_stuck = %d\nstuck_check_interval = %d\nenable_objective_based_progress = %t\nstuck_warning_threshold = %d\n",
		q.MaxTurnsStuck, q.CheckInterval, *k.ZorkGPT, q.WarningThreshold), nil
}
