package policy

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	d := Params{MaxTurnsStuck: 50, CheckInterval: 5, WarningThreshold: 25}
	for _, c := range []struct {
		in   string
		want Policy
		err  string
	}{
		{"score", Policy{Score, d}, ""},
		{"score-or-objective:40/10", Policy{ScoreOrObjective, Params{MaxTurnsStuck: 40, CheckInterval: 10, WarningThreshold: 25}}, ""},
		{"window:60", Policy{Window, Params{MaxTurnsStuck: 60, CheckInterval: 5, WarningThreshold: 25}}, ""},
		{" score:30/5/15 ", Policy{Score, Params{MaxTurnsStuck: 30, CheckInterval: 5, WarningThreshold: 15}}, ""},
		{"scor:40", Policy{}, "unknown policy"},
		{"score:40/x", Policy{}, "not a whole number"},
		{"score:40/10/20/1", Policy{}, "want NAME:"},
		{"score:40/0", Policy{}, "stuck_check_interval must be at least 1"},
	} {
		got, err := Parse(c.in, d)
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
