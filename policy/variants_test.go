package policy

import (
	"slices"
	"testing"
)

func TestVariantString(t *testing.T) {
	p := pol(Patience, 40, 10)
	for _, c := range []struct {
		p    Policy
		want string
	}{
		{p, "patience 40/10"},
		{p.With(MinDelta, 1000), "patience 40/10"}, // 1 (in thousandths) is the default
		{p.With(MinDelta, 0), "patience 40/10 delta 0"},
		{p.With(MinDelta, 250), "patience 40/10 delta 0.25"},
		{p.With(ObjectivePatience, 20).With(RoomPatience, 30), "patience 40/10 obj 20 room 30"},
		{p.With(ObjectivePatience, ObjectivesOff), "patience 40/10 obj off"},
		{p.With(ScoreMode, ScoreIncrease).With(MinDelta, 5000).With(MinTurns, 50), "patience 40/10 increase delta 5 warm-up 50"},
	} {
		if got := c.p.String(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.p, got, c.want)
		}
	}
	// A policy without a setting never takes it, nor shows it.
	s := New(Score, Values{MinDelta: 5000, RoomPatience: 3})
	if got := s.String(); got != "score 40/10" || s != (Policy{Name: Score}) {
		t.Errorf("score with variant settings: %q", got)
	}
	i := New(Increase, Values{MinDelta: 5000, ObjectivePatience: 7})
	if got := i.String(); got != "increase 40/10 delta 5" {
		t.Errorf("increase: %q", got)
	}
}

func TestParseVariants(t *testing.T) {
	d := Policy{Name: Patience}
	checkParse(t, nil, []parseCase{
		{"patience:40/10,objective_patience=20", d.With(ObjectivePatience, 20), ""},
		{"patience:60:room_patience=30:objective_patience=-1", d.With(MaxTurnsStuck, 60).With(RoomPatience, 30).With(ObjectivePatience, -1), ""},
		{"patience,score-mode=increase,min-delta=5,min-turns=50", d.With(ScoreMode, ScoreIncrease).With(MinDelta, 5000).With(MinTurns, 50), ""},
		{"increase:30/5:min_delta=3", Policy{Name: Increase}.With(MaxTurnsStuck, 30).With(CheckInterval, 5).With(MinDelta, 3000), ""},
		{"increase:min_delta=0.05", Policy{Name: Increase}.With(MinDelta, 50), ""},
		{"increase:min_delta=0.0005", d, "min_delta: \"0.0005\" is not a number with at most 3 decimal places"},
		{"patience:check_interval=5", d.With(CheckInterval, 5), ""},
		{"score:min_delta=5", d, "policy score has no min_delta"},
		{"increase:room_patience=5", d, "policy increase has no room_patience"},
		{"patience:score_mode=up", d, "not one of changes, increase"},
		{"patience:colour=red", d, "unknown setting"},
		{"patience:room_patience=x", d, "not a whole number"},
		{"patience:room_patience=-2", d, "room_patience must not be negative (0: off), not -2"},
		{"patience:objective_patience=-2", d, "objective_patience must be at least 1 (0: max_turns_stuck, -1: off), not -2"},
		{"patience:min_delta=-1", d, "min_delta must not be negative, not -1"},
		{"patience:room_patience=3:40/10", d, "want NAME"},
	})
}

// The variants' settings belong to the policies that list them, and each at
// its default replays as the policy does without it: patience at its
// defaults is window, which stops a flat run at 40.
func TestVariantSettings(t *testing.T) {
	want := map[*Setting][]Name{
		ObjectivePatience: {Patience}, RoomPatience: {Patience}, ScoreMode: {Patience},
		MinDelta: {Increase, Patience}, MinTurns: {Increase, Patience},
	}
	for s, names := range want {
		for _, n := range Names() {
			k, _ := Lookup(n)
			if in := slices.Contains(names, n); k.Has(s) != in {
				t.Errorf("%s: %s has it: %v", s.Key, n, k.Has(s))
			}
		}
		p := pol(Patience, 40, 10).With(s, s.Default)
		if p != pol(Patience, 40, 10) {
			t.Errorf("%s at its default %d: %+v differs from patience 40/10", s.Key, s.Default, p)
		}
		if r := (walk{}).run(p); r.turn != 40 {
			t.Errorf("%s at its default %d: stop %d, want 40", s.Key, s.Default, r.turn)
		}
		if err := p.Usable(); err != nil {
			t.Errorf("%s at its default: %v", s.Key, err)
		}
	}
}

func TestVariantsRegistry(t *testing.T) {
	// The variants come last, in alphabetical order.
	names := Names()
	variant := func(n Name) bool { k, _ := Lookup(n); return k.Variant }
	first := slices.IndexFunc(names, variant)
	if first < 0 || !slices.IsSorted(names[first:]) || slices.ContainsFunc(names[first:], func(n Name) bool { return !variant(n) }) {
		t.Errorf("Names() = %v, want the variants last, in alphabetical order", names)
	}
	for _, n := range []Name{Increase, None, Patience} {
		if k, _ := Lookup(n); !k.Variant || k.Ported {
			t.Errorf("%s: %+v: a variant", n, k)
		}
	}
}
