package policy

import (
	"strings"
	"testing"
)

func TestLoadConfigRealFile(t *testing.T) {
	c, err := LoadConfig("../testdata/pyproject/pyproject.toml")
	if err != nil {
		t.Fatal(err)
	}
	if c.Timer != DefaultTimer() || !c.ObjectiveBasedProgress || len(c.Warnings) != 0 {
		t.Errorf("got %+v", c)
	}
	if p := c.Policy(); p.Name != ScoreOrObjective {
		t.Errorf("policy %s", p)
	}
}

func TestParseConfig(t *testing.T) {
	const head = "[project]\nname = \"zorkgpt\"\n\n[tool.zorkgpt.loop_break]\n"
	for _, c := range []struct {
		name, body string
		want       Timer
		objective  bool
		err        string // in the error, "" for none
		warn       string // in the warnings
	}{
		{"defaults for missing keys", "", DefaultTimer(), true, "", ""},
		{"values", "max_turns_stuck = 60\nstuck_check_interval = 5\nstuck_warning_threshold = 30\nenable_objective_based_progress = false\n", Timer{MaxTurnsStuck: 60, CheckInterval: 5, WarningThreshold: 30}, false, "", ""},
		{"lax forms", "max_turns_stuck = 50.0\nstuck_check_interval = \"10\"\nenable_objective_based_progress = \"no\"\n", Timer{MaxTurnsStuck: 50, CheckInterval: 10, WarningThreshold: 20}, false, "", ""},
		{"unknown key warned", "max_turns_stuck = 40\nenable_velocity_detection = false\n", DefaultTimer(), true, "", "pyproject.toml:6: [tool.zorkgpt.loop_break] enable_velocity_detection: unknown key"},
		{"below range", "max_turns_stuck = 0\n", Timer{}, true, "pyproject.toml:5: [tool.zorkgpt.loop_break] max_turns_stuck = 0: ZorkGPT requires 1 <= max_turns_stuck <= 1000", ""},
		{"interval above range", "stuck_check_interval = 101\n", Timer{}, true, "stuck_check_interval = 101", ""},
		{"penalty must be negative", "location_revisit_penalty = 0.2\n", Timer{}, true, "location_revisit_penalty = 0.2: ZorkGPT requires -1 <= location_revisit_penalty <= 0", ""},
		{"not an integer", "max_turns_stuck = 40.5\n", Timer{}, true, "max_turns_stuck = 40.5: ZorkGPT requires an integer", ""},
		{"not a bool", "enable_objective_based_progress = 3\n", Timer{}, true, "enable_objective_based_progress = 3: ZorkGPT requires true or false", ""},
		{"threshold below interval", "max_turns_stuck = 8\nstuck_check_interval = 10\nstuck_warning_threshold = 5\n", Timer{}, true, "max_turns_stuck = 8: ZorkGPT requires max_turns_stuck >= stuck_check_interval (10)", ""},
		{"warning not below threshold", "max_turns_stuck = 20\n", Timer{}, true, "pyproject.toml:6: [tool.zorkgpt.loop_break] stuck_warning_threshold = 20: ZorkGPT requires stuck_warning_threshold < max_turns_stuck (20)", ""},
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
			if err != nil || got.Timer != c.want || got.ObjectiveBasedProgress != c.objective {
				t.Errorf("got %+v, %v; want %+v objective %v", got, err, c.want, c.objective)
			}
			if c.warn != "" && !strings.Contains(strings.Join(got.Warnings, "\n"), c.warn) {
				t.Errorf("warnings %q, want %q", got.Warnings, c.warn)
			}
		})
	}
	if c, err := ParseConfig("p.toml", []byte("[project]\nname = \"x\"\n")); err != nil || c.Timer != DefaultTimer() || len(c.Warnings) != 1 {
		t.Errorf("no table: %+v %v", c, err)
	}
	if _, err := ParseConfig("p.toml", []byte("[tool.zorkgpt.loop_break\n")); err == nil || !strings.Contains(err.Error(), "p.toml") {
		t.Errorf("bad TOML: %v", err)
	}
}

func TestParse(t *testing.T) {
	d := Timer{MaxTurnsStuck: 50, CheckInterval: 5, WarningThreshold: 25}
	for _, c := range []struct {
		in   string
		want Policy
		err  string
	}{
		{"score", Policy{Name: Score}.WithTimer(d), ""},
		{"score-or-objective:40/10", Policy{Name: ScoreOrObjective}.WithTimer(Timer{MaxTurnsStuck: 40, CheckInterval: 10, WarningThreshold: 25}), ""},
		{"window:60", Policy{Name: Window}.WithTimer(Timer{MaxTurnsStuck: 60, CheckInterval: 5, WarningThreshold: 25}), ""},
		{" score:30/5/15 ", Policy{Name: Score}.WithTimer(Timer{MaxTurnsStuck: 30, CheckInterval: 5, WarningThreshold: 15}), ""},
		{"scor:40", Policy{}, "unknown policy"},
		{"score:40/x", Policy{}, "not a whole number"},
		{"score:40/10/20/1", Policy{}, "want NAME:"},
		{"score:40/0", Policy{}, "stuck_check_interval must be at least 1"},
	} {
		got, err := Parse(c.in, d.Values())
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: error %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%q: got %+v %v, want %+v", c.in, got, err, c.want)
		}
	}
}

// The block TOML writes is read back by ParseConfig, ZorkGPT's validation, as
// the same policy.
func TestTOMLRoundTrip(t *testing.T) {
	for _, p := range []Policy{
		Policy{Name: ScoreOrObjective}.WithTimer(Timer{MaxTurnsStuck: 55, CheckInterval: 5, WarningThreshold: 20}),
		Policy{Name: Score}.WithTimer(Timer{MaxTurnsStuck: 30, CheckInterval: 10, WarningThreshold: 20}),
		Policy{Name: Score}.WithTimer(Timer{MaxTurnsStuck: 12, CheckInterval: 1, WarningThreshold: 20}), // threshold lowered to 11
	} {
		block, err := p.TOML()
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		c, err := ParseConfig("pyproject.toml", []byte(block))
		if err != nil {
			t.Fatalf("%s: ZorkGPT's validation refuses\n%s: %v", p, block, err)
		}
		if got := c.Policy(); got.Name != p.Name || got.MaxTurnsStuck() != p.MaxTurnsStuck() || got.CheckInterval() != p.CheckInterval() {
			t.Errorf("%s: read back as %s", p, got)
		}
		if c.WarningThreshold >= p.MaxTurnsStuck() || c.WarningThreshold < 5 {
			t.Errorf("%s: warning threshold %d", p, c.WarningThreshold)
		}
	}
	for _, p := range []Policy{
		{Name: Window}, // needs a code change
		Policy{Name: Score}.WithTimer(Timer{MaxTurnsStuck: 5, CheckInterval: 5, WarningThreshold: 20}),                // no threshold 5 <= T < 5
		Policy{Name: Score}.WithTimer(Timer{MaxTurnsStuck: 10, CheckInterval: 20, WarningThreshold: 5}),               // W < interval
		Policy{Name: ScoreOrObjective}.WithTimer(Timer{MaxTurnsStuck: 2000, CheckInterval: 10, WarningThreshold: 20}), // W > 1000
	} {
		if block, err := p.TOML(); err == nil {
			t.Errorf("%s: ZorkGPT cannot run it, yet TOML gave\n%s", p, block)
		}
	}
}
