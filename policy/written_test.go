package policy

import "testing"

// TestWritten: a config's settings are every setting its policy has, in its
// Kind's order, the defaults of docs/policies.md ("Settings") where not
// given (the timer's 40/10/20); the CSV cell reads back, after the name and
// a colon, as the same policy, and the JSON object holds the same values.
// No policy's settings appear in another's (score has no min_delta, the
// supervisor no timer).
func TestWritten(t *testing.T) {
	for _, c := range []struct{ spec, cell, json string }{
		{"none", "", `{}`},
		{"score", "max_turns_stuck=40:check_interval=10:stuck_warning_threshold=20",
			`{"max_turns_stuck":40,"check_interval":10,"stuck_warning_threshold":20}`},
		{"window:30/5", "max_turns_stuck=30:check_interval=5:stuck_warning_threshold=20",
			`{"max_turns_stuck":30,"check_interval":5,"stuck_warning_threshold":20}`},
		{"patience:40/10:room_patience=30:min_delta=5",
			"max_turns_stuck=40:check_interval=10:stuck_warning_threshold=20:objective_patience=0:room_patience=30:score_mode=changes:min_delta=5:min_turns=0",
			`{"max_turns_stuck":40,"check_interval":10,"stuck_warning_threshold":20,"objective_patience":0,"room_patience":30,"score_mode":"changes","min_delta":5,"min_turns":0}`},
		{"increase:min_turns=100:min_delta=0.25", "max_turns_stuck=40:check_interval=10:stuck_warning_threshold=20:min_delta=0.25:min_turns=100",
			`{"max_turns_stuck":40,"check_interval":10,"stuck_warning_threshold":20,"min_delta":0.25,"min_turns":100}`},
		{"supervisor:checkpoint=50:min_critic=0.4", "checkpoint=50:flat_checkpoints=2:min_critic=0.4:max_rejected_turns=7:spiral_rejections=3:room_streak=10",
			`{"checkpoint":50,"flat_checkpoints":2,"min_critic":0.4,"max_rejected_turns":7,"spiral_rejections":3,"room_streak":10}`},
	} {
		p, err := Parse(c.spec, nil)
		if err != nil {
			t.Fatal(err)
		}
		w := p.Written()
		if got := w.String(); got != c.cell {
			t.Errorf("%s: cell %q, want %q", c.spec, got, c.cell)
		}
		if got, _ := w.MarshalJSON(); string(got) != c.json {
			t.Errorf("%s: JSON %s, want %s", c.spec, got, c.json)
		}
		back, err := Parse(string(p.Name)+":"+w.String(), nil)
		if err != nil || back != p {
			t.Errorf("%s: %q reads back as %v (%v)", c.spec, w.String(), back, err)
		}
	}
}
