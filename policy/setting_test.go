package policy

import (
	"image/color"
	"math"
	"slices"
	"strings"
	"testing"
)

// The columns of every table begin in the order the sweep's CSV has always
// written them: the timer, patience's (increase's last two among them), then
// the supervisor's; a policy added later adds its own after them.
func TestSettingsOrder(t *testing.T) {
	want := []string{"max_turns_stuck", "check_interval", "stuck_warning_threshold",
		"objective_patience", "room_patience", "score_mode", "min_delta", "min_turns",
		"checkpoint", "flat_checkpoints", "min_critic", "max_rejected_turns", "spiral_rejections", "room_streak"}
	var keys []string
	flags := map[string]bool{}
	for _, s := range Settings() {
		keys = append(keys, s.Key)
		if flags[s.Flag] || s.Flag == "" || s.Usage == "" {
			t.Errorf("%s: flag %q twice or empty, or no usage", s.Key, s.Flag)
		}
		flags[s.Flag] = true
	}
	if len(keys) < len(want) || !slices.Equal(keys[:len(want)], want) {
		t.Errorf("Settings() = %v\nwant %v", keys, want)
	}
	// Every policy's own settings are in that order too: a grid's product
	// varies them so.
	for _, n := range Names() {
		k, _ := Lookup(n)
		if !slices.IsSortedFunc(k.Settings, func(a, b *Setting) int { return slices.Index(Settings(), a) - slices.Index(Settings(), b) }) {
			t.Errorf("%s: settings out of the columns' order", n)
		}
	}
}

// Every policy has a colour of its own, opaque: charts draw it.
func TestColors(t *testing.T) {
	seen := map[color.NRGBA]Name{}
	for _, n := range Names() {
		k, _ := Lookup(n)
		if k.Color.A != 0xFF {
			t.Errorf("%s: no opaque colour (%v)", n, k.Color)
		}
		if o, dup := seen[k.Color]; dup {
			t.Errorf("%s and %s share a colour", n, o)
		}
		seen[k.Color] = n
	}
}

// A setting's messages name it as users know it, with its special values;
// the checks are the setting's own, whichever policy has it.
func TestUsable(t *testing.T) {
	for _, c := range []struct {
		s   *Setting
		v   int
		err string
	}{
		{MaxTurnsStuck, 0, "max_turns_stuck must be at least 1, not 0"},
		{MaxTurnsStuck, 1, ""},
		{CheckInterval, 0, "stuck_check_interval must be at least 1, not 0"},
		{WarningThreshold, -1, "stuck_warning_threshold must not be negative, not -1"},
		{WarningThreshold, 0, ""},
		{ObjectivePatience, -1, ""},
		{ObjectivePatience, 0, ""},
		{RoomPatience, 0, ""},
		{ScoreMode, 2, "score_mode must be one of changes, increase, not 2"},
		{ScoreMode, -1, "score_mode must be one of changes, increase, not -1"},
		{Checkpoint, 0, "checkpoint must be at least 1, not 0"},
		{SpiralRejections, -1, "spiral_rejections must not be negative (0: off), not -1"},
		{MinCritic, 0, ""},
		{MinTurns, math.MinInt, "min_turns must not be negative, not -9223372036854775808"},
	} {
		err := c.s.usable(c.v)
		if got := ""; err != nil {
			got = err.Error()
			if got != c.err {
				t.Errorf("%s %d: %q, want %q", c.s.Key, c.v, got, c.err)
			}
		} else if c.err != "" {
			t.Errorf("%s %d: usable, want %q", c.s.Key, c.v, c.err)
		}
	}
	// Values are checked in the order of the columns: the first that fails.
	if err := (Values{RoomStreak: -1, CheckInterval: 0, MinDelta: -1}).Usable(); err == nil || err.Error() != "stuck_check_interval must be at least 1, not 0" {
		t.Errorf("Values.Usable: %v", err)
	}
}

// A Policy holds any whole number a setting takes, from the least to the
// greatest int, and only the settings its policy has: the zero Policy of a
// name is that policy at its defaults.
func TestPolicyValues(t *testing.T) {
	for _, v := range []int{math.MinInt, math.MinInt + 1, -1, 0, 39, 40, 41, math.MaxInt - 1, math.MaxInt} {
		for _, s := range []*Setting{MaxTurnsStuck, CheckInterval, WarningThreshold, MinDelta, MinTurns} {
			if got := (Policy{Name: Patience}).With(s, v).Get(s); got != v {
				t.Errorf("patience %s %d: got %d", s.Key, v, got)
			}
		}
	}
	if p := (Policy{Name: Score}); p != New(Score, nil) || p.Timer() != DefaultTimer() || p.String() != "score 40/10" {
		t.Errorf("Policy{Name: Score} = %s, %+v", p, p.Timer())
	}
	// The supervisor has no timer: it reads ZorkGPT's defaults and takes none.
	sup := Policy{Name: Supervisor}
	if sup.With(MaxTurnsStuck, 60) != sup || sup.Timer() != DefaultTimer() || sup.Has(MaxTurnsStuck) {
		t.Errorf("the supervisor took a timer: %+v", sup.With(MaxTurnsStuck, 60))
	}
	// Settings at the same place in two policies stay apart by name.
	a, b := Policy{Name: Increase}.With(MinDelta, 5), Policy{Name: Patience}.With(ObjectivePatience, 5)
	if a.Get(MinDelta) != 5 || b.Get(MinDelta) != 1000 || b.Get(ObjectivePatience) != 5 || a.Get(ObjectivePatience) != 0 {
		t.Errorf("increase %s, patience %s", a, b)
	}
}

// register refuses a Kind whose timer settings do not come first and in
// their order, or with more settings of its own than a Policy holds.
func TestRegisterChecksSettings(t *testing.T) {
	own := make([]*Setting, maxOwn+1)
	for i := range own {
		own[i] = &Setting{Key: strings.Repeat("x", i+1)}
	}
	for _, c := range []struct {
		name     string
		settings []*Setting
		ok       bool
	}{
		{"the whole timer, then its own", timed(own[:maxOwn]...), true},
		{"W and I only", []*Setting{MaxTurnsStuck, CheckInterval, own[0]}, true},
		{"its own only", own[:maxOwn], true},
		{"too many of its own", own, false},
		{"I before W", []*Setting{CheckInterval, MaxTurnsStuck}, false},
		{"a timer setting after its own", []*Setting{own[0], MaxTurnsStuck}, false},
		{"I without W", []*Setting{CheckInterval}, false},
	} {
		func() {
			defer func() {
				if r := recover(); (r == nil) != c.ok {
					t.Errorf("%s: panic %v", c.name, r)
				}
				delete(registry, "test")
			}()
			register(Kind{Name: "test", Settings: c.settings})
		}()
	}
}

// A decimal setting is a Setting with a Scale: read, written and shown in
// users' units, kept exactly in steps of 1/Scale, by every command alike.
func TestScale(t *testing.T) {
	s := &Setting{Key: "k", Scale: 1000}
	for _, c := range []struct {
		in    string
		steps int
		text  string
		value float64
	}{
		{"0.125", 125, "0.125", 0.125},
		{".5", 500, "0.5", 0.5},
		{"2", 2000, "2", 2},
		{"-0.001", -1, "-0.001", -0.001},
	} {
		v, err := s.Parse(c.in)
		if err != nil || v != c.steps || s.Format(v) != c.text || s.Value(v) != c.value {
			t.Errorf("%q: %d %v, written %q, JSON %v; want %d, %q, %v", c.in, v, err, s.Format(v), s.Value(v), c.steps, c.text, c.value)
		}
	}
	if _, err := s.Parse("0.1255"); err == nil || !strings.Contains(err.Error(), "at most 3 decimal places") {
		t.Errorf("0.1255: %v", err)
	}
	// Not numbers (Python's float refuses them too), never read as one.
	for _, in := range []string{"--5", "-+5", "-.", ".", "-", "1.-5", "+-5"} {
		if v, err := s.Parse(in); err == nil {
			t.Errorf("%q: read as %d, want an error", in, v)
		}
	}
}
