package system

import (
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/policy"
)

// TestParseZorkburrConfig: [tool.zorkburr] read as GameConfig reads it. The
// lax forms are pydantic 2's (checked with pydantic 2.13: True → 1, "40.0"
// → 40, "1_000" → 1000; "4e1", "40.", 40.5 and [1] refused).
func TestParseZorkburrConfig(t *testing.T) {
	const head = "[project]\nname = \"zorkburr\"\n\n[tool.zorkburr]\nmax_turns_per_episode = 1000\nagent_model = \"x\"\n"
	for _, c := range []struct {
		name, body string
		w, i       int
		err, warn  string
	}{
		{"defaults", "", 40, 10, "", ""},
		{"the shipped file", "max_turns_stuck = 40\nstuck_check_interval = 10\n\n[tool.zorkburr.retry]\nmax_retries = 3\n", 40, 10, "", ""},
		{"values", "max_turns_stuck = 60\nstuck_check_interval = 5\n", 60, 5, "", ""},
		{"a bool, a float", "max_turns_stuck = true\nstuck_check_interval = 20.0\n", 1, 20, "", ""},
		{"strings", "max_turns_stuck = \" 1_000 \"\nstuck_check_interval = \"+7.00\"\n", 1000, 7, "", ""},
		{"W below the interval is fine", "max_turns_stuck = 5\nstuck_check_interval = 50\n", 5, 50, "", ""},
		{"a negative interval", "stuck_check_interval = -10\n", 40, 10, "", "pyproject.toml:7: [tool.zorkburr] stuck_check_interval = -10: ZorkGPT2 checks at the same turns as with 10"},
		{"a fraction", "max_turns_stuck = 40.5\n", 0, 0, "pyproject.toml:7: [tool.zorkburr] max_turns_stuck = 40.5: ZorkGPT2 requires an integer", ""},
		{"an exponent", "max_turns_stuck = \"4e1\"\n", 0, 0, "requires an integer", ""},
		{"a bare point", "max_turns_stuck = \"40.\"\n", 0, 0, "requires an integer", ""},
		{"a list", "stuck_check_interval = [1]\n", 0, 0, "requires an integer", ""},
		{"W 0", "max_turns_stuck = 0\n", 0, 0, "every episode would stop before its first turn", ""},
		{"interval 0", "stuck_check_interval = 0\n", 0, 0, "ZeroDivisionError", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := ParseConfig("pyproject.toml", []byte(head+c.body))
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Errorf("error %v, want %q", err, c.err)
				}
				return
			}
			if err != nil || got.Policy.MaxTurnsStuck() != c.w || got.Policy.CheckInterval() != c.i || got.Policy.Name != policy.Zorkburr || got.System != ZorkGPT2 {
				t.Errorf("got %+v (%s), %v; want %d/%d zorkburr", got, got.Policy, err, c.w, c.i)
			}
			if w := strings.Join(got.Warnings, "\n"); c.warn == "" && w != "" || c.warn != "" && !strings.Contains(w, c.warn) {
				t.Errorf("warnings %q, want %q", got.Warnings, c.warn)
			}
		})
	}
	// Both tables: ZorkGPT's, the first of the registry, is read, and the other is named.
	got, err := ParseConfig("p.toml", []byte("[tool.zorkgpt.loop_break]\nmax_turns_stuck = 60\n\n[tool.zorkburr]\nmax_turns_stuck = 30\n"))
	if err != nil || got.Policy.Name != policy.ScoreOrObjective || got.Policy.MaxTurnsStuck() != 60 || got.System != ZorkGPT ||
		strings.Join(got.Warnings, "|") != "p.toml: [tool.zorkburr] ignored: the file also has [tool.zorkgpt.loop_break], which is read" {
		t.Errorf("both tables: %+v, %v", got, err)
	}
}
