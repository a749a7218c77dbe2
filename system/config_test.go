package system

import (
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/policy"
)

func TestLoadConfigRealFile(t *testing.T) {
	c, err := LoadConfig("../testdata/pyproject/pyproject.toml")
	if err != nil {
		t.Fatal(err)
	}
	if c.Policy.Timer() != policy.DefaultTimer() || c.System != ZorkGPT || len(c.Warnings) != 0 {
		t.Errorf("got %+v", c)
	}
	if p := c.Policy; p.Name != policy.ScoreOrObjective {
		t.Errorf("policy %s", p)
	}
}

func TestParseConfig(t *testing.T) {
	const head = "[project]\nname = \"zorkgpt\"\n\n[tool.zorkgpt.loop_break]\n"
	for _, c := range []struct {
		name, body string
		want       policy.Timer
		objective  bool
		err        string // in the error, "" for none
		warn       string // in the warnings
	}{
		{"defaults for missing keys", "", policy.DefaultTimer(), true, "", ""},
		{"values", "max_turns_stuck = 60\nstuck_check_interval = 5\nstuck_warning_threshold = 30\nenable_objective_based_progress = false\n", policy.Timer{MaxTurnsStuck: 60, CheckInterval: 5, WarningThreshold: 30}, false, "", ""},
		{"lax forms", "max_turns_stuck = 50.0\nstuck_check_interval = \"10\"\nenable_objective_based_progress = \"no\"\n", policy.Timer{MaxTurnsStuck: 50, CheckInterval: 10, WarningThreshold: 20}, false, "", ""},
		{"unknown key warned", "max_turns_stuck = 40\nenable_velocity_detection = false\n", policy.DefaultTimer(), true, "", "pyproject.toml:6: [tool.zorkgpt.loop_break] enable_velocity_detection: unknown key"},
		{"below range", "max_turns_stuck = 0\n", policy.Timer{}, true, "pyproject.toml:5: [tool.zorkgpt.loop_break] max_turns_stuck = 0: ZorkGPT requires 1 <= max_turns_stuck <= 1000", ""},
		{"interval above range", "stuck_check_interval = 101\n", policy.Timer{}, true, "stuck_check_interval = 101", ""},
		{"penalty must be negative", "location_revisit_penalty = 0.2\n", policy.Timer{}, true, "location_revisit_penalty = 0.2: ZorkGPT requires -1 <= location_revisit_penalty <= 0", ""},
		{"not an integer", "max_turns_stuck = 40.5\n", policy.Timer{}, true, "max_turns_stuck = 40.5: ZorkGPT requires an integer", ""},
		{"not a bool", "enable_objective_based_progress = 3\n", policy.Timer{}, true, "enable_objective_based_progress = 3: ZorkGPT requires true or false", ""},
		{"threshold below interval", "max_turns_stuck = 8\nstuck_check_interval = 10\nstuck_warning_threshold = 5\n", policy.Timer{}, true, "max_turns_stuck = 8: ZorkGPT requires max_turns_stuck >= stuck_check_interval (10)", ""},
		{"warning not below threshold", "max_turns_stuck = 20\n", policy.Timer{}, true, "pyproject.toml:6: [tool.zorkgpt.loop_break] stuck_warning_threshold = 20: ZorkGPT requires stuck_warning_threshold < max_turns_stuck (20)", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			body := c.body
			if c.name == "warning not below threshold" {
				body += "stuck_warning_threshold = 20\n"
			}
			got, err := ParseConfig("pyproject.toml", []byte(head+body))
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Errorf("error %v, want %q", err, c.err)
				}
				return
			}
			if err != nil || got.Policy.Timer() != c.want || (got.Policy.Name == policy.ScoreOrObjective) != c.objective {
				t.Errorf("got %+v, %v; want %+v objective %v", got, err, c.want, c.objective)
			}
			if c.warn != "" && !strings.Contains(strings.Join(got.Warnings, "\n"), c.warn) {
				t.Errorf("warnings %q, want %q", got.Warnings, c.warn)
			}
		})
	}
	if c, err := ParseConfig("p.toml", []byte("[project]\nname = \"x\"\n")); err != nil || c.Policy != ZorkGPT.Now || len(c.Warnings) != 1 ||
		c.Warnings[0] != "p.toml: no [tool.zorkgpt.loop_break] table: ZorkGPT's defaults apply" {
		t.Errorf("no table: %+v %v", c, err)
	}
	if _, err := ParseConfig("p.toml", []byte("[tool.zorkgpt.loop_break\n")); err == nil || !strings.Contains(err.Error(), "p.toml") {
		t.Errorf("bad TOML: %v", err)
	}
}
