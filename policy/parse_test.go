package policy

import (
	"strings"
	"testing"
)

// parseCase is a text Parse reads, and the policy it gives or a part of its
// error.
type parseCase struct {
	in   string
	want Policy
	err  string
}

// checkParse parses each case's text under defaults.
func checkParse(t *testing.T, defaults Values, cases []parseCase) {
	t.Helper()
	for _, c := range cases {
		got, err := Parse(c.in, defaults)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: error %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%q: got %s %v, want %s", c.in, got, err, c.want)
		}
	}
}

func TestParse(t *testing.T) {
	d := Timer{MaxTurnsStuck: 50, CheckInterval: 5, WarningThreshold: 25}
	checkParse(t, d.Values(), []parseCase{
		{"score", Policy{Name: Score}.WithTimer(d), ""},
		{"score-or-objective:40/10", Policy{Name: ScoreOrObjective}.WithTimer(Timer{MaxTurnsStuck: 40, CheckInterval: 10, WarningThreshold: 25}), ""},
		{"window:60", Policy{Name: Window}.WithTimer(Timer{MaxTurnsStuck: 60, CheckInterval: 5, WarningThreshold: 25}), ""},
		{" score:30/5/15 ", Policy{Name: Score}.WithTimer(Timer{MaxTurnsStuck: 30, CheckInterval: 5, WarningThreshold: 15}), ""},
		{"scor:40", Policy{}, "unknown policy"},
		{"score:40/x", Policy{}, "not a whole number"},
		{"score:40/10/20/1", Policy{}, "want NAME:"},
		{"score:40/0", Policy{}, "stuck_check_interval must be at least 1"},
	})
}

// The block TOML writes is read back by ParseConfig, ZorkGPT's validation, as
// the same policy.
