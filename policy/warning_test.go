package policy

import "testing"

// TestWarningFrom: where each policy's countdown warning starts, in turns
// stuck: its stuck_warning_threshold (ZorkGPT's policies and window, any
// value), ZorkGPT2's fixed 30 whatever its settings (docs/zorkgpt2.md, "The
// stuck rule"), and never for policies that show none.
func TestWarningFrom(t *testing.T) {
	at := func(n Name, warning int) Policy {
		return Policy{Name: n}.With(WarningThreshold, warning)
	}
	for _, tc := range []struct {
		p    Policy
		want int
	}{
		{at(Score, 20), 20},
		{at(ScoreOrObjective, 25), 25},
		{at(Window, 5), 5},
		{at(Zorkburr, 20), 30},
		{at(Zorkburr, 10), 30},
		{at(None, 20), 0},
		{at(Supervisor, 20), 0},
	} {
		if got := tc.p.WarningFrom(); got != tc.want {
			t.Errorf("%s with stuck_warning_threshold %d: WarningFrom %d, want %d", tc.p.Name, tc.p.WarningThreshold(), got, tc.want)
		}
	}
}
