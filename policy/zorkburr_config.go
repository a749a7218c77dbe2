package policy

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// zorkburrKeys are the keys of ZorkGPT2's [tool.zorkburr] that the stuck
// rule reads (zorkburr/config.py, GameConfig: plain int fields, no bounds);
// ZorkGPT2 ignores keys it does not know, and lbanalyze every other one.
var zorkburrKeys = []configKey{
	{"max_turns_stuck", "int", math.Inf(-1), math.Inf(1)},
	{"stuck_check_interval", "int", math.Inf(-1), math.Inf(1)},
}

var zorkburrHeader = regexp.MustCompile(`^\s*\[\s*tool\s*\.\s*zorkburr\s*\]`)

// parseZorkburr reads [tool.zorkburr] as ZorkGPT2's GameConfig does: each
// key an int in pydantic's lax mode (a bool, a float without a fraction, a
// string of digits), missing keys at their defaults 40 and 10. It refuses
// what GameConfig refuses, and the values GameConfig takes but the check of
// zorkburr/main.py cannot run: max_turns_stuck below 1 (turn 0 is a check
// turn: every episode would end before its first turn) and an interval of 0
// (turn_count % 0 fails). A negative interval runs as its magnitude (Python's
// % is 0 at the same turns), with a warning.
func parseZorkburr(path string, data []byte, table map[string]any) (Config, error) {
	c := Config{Timer: DefaultTimer(), Zorkburr: true}
	lines := keyLines(data, zorkburrHeader)
	where := func(key string) string {
		if line := lines[key]; line > 0 {
			return fmt.Sprintf("%s:%d: [tool.zorkburr] %s", path, line, key)
		}
		return fmt.Sprintf("%s: [tool.zorkburr] %s", path, key)
	}
	for _, k := range zorkburrKeys {
		v, present := table[k.name]
		if !present {
			continue
		}
		n, ok := laxInt(v)
		if !ok {
			return c, fmt.Errorf("%s = %s: ZorkGPT2 requires an integer", where(k.name), show(v))
		}
		switch k.name {
		case "max_turns_stuck":
			if n < 1 {
				return c, fmt.Errorf("%s = %d: ZorkGPT2 takes it, but checks at turn 0 too: every episode would stop before its first turn", where(k.name), n)
			}
			c.MaxTurnsStuck = n
		case "stuck_check_interval":
			switch {
			case n == 0:
				return c, fmt.Errorf("%s = 0: ZorkGPT2 takes it, but its check computes turn_count %% 0: the run would fail (ZeroDivisionError)", where(k.name))
			case n < 0:
				c.Warnings = append(c.Warnings, fmt.Sprintf("%s = %d: ZorkGPT2 checks at the same turns as with %d (Python's %%)", where(k.name), n, -n))
				n = -n
			}
			c.CheckInterval = n
		}
	}
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
