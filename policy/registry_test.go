package policy

import "testing"

func TestStringShowsEveryNonDefaultParameter(t *testing.T) {
	for _, c := range []struct {
		p    Policy
		want string
	}{
		{Policy{Name: Score}, "score 40/10"},
		{Policy{Name: Score}.With(WarningThreshold, 30), "score 40/10/30"},
		{Policy{Name: ScoreOrObjective}.WithTimer(Timer{MaxTurnsStuck: 60, CheckInterval: 5, WarningThreshold: 20}), "score-or-objective 60/5"},
		{Policy{Name: Zorkburr}.WithTimer(Timer{MaxTurnsStuck: 60, CheckInterval: 5, WarningThreshold: 30}), "zorkburr 60/5"}, // it has no warning threshold
	} {
		if got := c.p.String(); got != c.want {
			t.Errorf("%+v: String() = %q, want %q", c.p, got, c.want)
		}
	}
	if a, b := (Policy{Name: Score}.With(WarningThreshold, 20)), (Policy{Name: Score}.With(WarningThreshold, 30)); a.String() == b.String() {
		t.Errorf("%+v and %+v print the same", a, b)
	}
}

func TestRegistry(t *testing.T) {
	names := Names()
	if len(names) < 3 || names[0] != Score || names[1] != ScoreOrObjective || names[2] != Window {
		t.Fatalf("Names() = %v, want score, score-or-objective, window first", names)
	}
	for _, n := range names {
		k, ok := Lookup(n)
		if !ok || k.New == nil || k.Description == "" {
			t.Errorf("%s: incomplete registry entry %+v", n, k)
		}
		if _, err := ParseName(string(n)); err != nil {
			t.Errorf("ParseName(%q): %v", n, err)
		}
	}
	if _, err := ParseName("nope"); err == nil {
		t.Error(`ParseName("nope") succeeded`)
	}
}
