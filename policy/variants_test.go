package policy

import (
	"strings"
	"testing"
)

func TestVariantString(t *testing.T) {
	p := pol(Patience, 40, 10)
	for _, c := range []struct {
		set  func(*Params)
		want string
	}{
		{func(*Params) {}, "patience 40/10"},
		{func(p *Params) { p.MinDelta = 1 }, "patience 40/10"}, // 1 is the default
		{func(p *Params) { p.ObjectivePatience, p.RoomPatience = 20, 30 }, "patience 40/10 obj 20 room 30"},
		{func(p *Params) { p.ObjectivePatience = ObjectivesOff }, "patience 40/10 obj off"},
		{func(p *Params) { p.ScoreMode, p.MinDelta, p.MinTurns = ScoreIncrease, 5, 50 }, "patience 40/10 increase delta 5 warm-up 50"},
	} {
		q := p
		c.set(&q.Params)
		if got := q.String(); got != c.want {
			t.Errorf("%+v: %q, want %q", q.Params, got, c.want)
		}
	}
	// A policy without a setting never shows it.
	s := Policy{Name: Score, Params: Params{MaxTurnsStuck: 40, CheckInterval: 10, WarningThreshold: 20, MinDelta: 5, RoomPatience: 3}}
	if got := s.String(); got != "score 40/10" {
		t.Errorf("score with variant settings: %q", got)
	}
	i := Policy{Name: Increase, Params: Params{MaxTurnsStuck: 40, CheckInterval: 10, WarningThreshold: 20, MinDelta: 5, ObjectivePatience: 7}}
	if got := i.String(); got != "increase 40/10 delta 5" {
		t.Errorf("increase: %q", got)
	}
}

func TestParseVariants(t *testing.T) {
	d := DefaultParams()
	with := func(set func(*Params)) Params { p := d; set(&p); return p }
	for _, c := range []struct {
		in   string
		want Params
		err  string
	}{
		{"patience:40/10,objective_patience=20", with(func(p *Params) { p.ObjectivePatience = 20 }), ""},
		{"patience:60:room_patience=30:objective_patience=-1", with(func(p *Params) { p.MaxTurnsStuck, p.RoomPatience, p.ObjectivePatience = 60, 30, -1 }), ""},
		{"patience,score-mode=increase,min-delta=5,min-turns=50", with(func(p *Params) { p.ScoreMode, p.MinDelta, p.MinTurns = ScoreIncrease, 5, 50 }), ""},
		{"increase:30/5:min_delta=3", with(func(p *Params) { p.MaxTurnsStuck, p.CheckInterval, p.MinDelta = 30, 5, 3 }), ""},
		{"patience:check_interval=5", with(func(p *Params) { p.CheckInterval = 5 }), ""},
		{"score:min_delta=5", d, "policy score has no min_delta"},
		{"increase:room_patience=5", d, "policy increase has no room_patience"},
		{"patience:score_mode=up", d, "not one of changes, increase"},
		{"patience:colour=red", d, "unknown setting"},
		{"patience:room_patience=x", d, "not a whole number"},
		{"patience:room_patience=-2", d, "room_patience must not be negative"},
		{"patience:objective_patience=-2", d, "objective_patience must be at least 1"},
		{"patience:room_patience=3:40/10", d, "want NAME"},
	} {
		got, err := Parse(c.in, d)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: error %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || got.Params != c.want {
			t.Errorf("%q: got %+v %v, want %+v", c.in, got.Params, err, c.want)
		}
	}
}

func TestVariantDimensions(t *testing.T) {
	want := map[string][]Name{
		"objective_patience": {Patience}, "room_patience": {Patience}, "score_mode": {Patience},
		"min_delta": {Increase, Patience}, "min_turns": {Increase, Patience},
	}
	for _, d := range Dimensions() {
		names, ok := want[d.Key]
		if !ok {
			continue
		}
		delete(want, d.Key)
		for _, n := range Names() {
			in := false
			for _, m := range names {
				in = in || m == n
			}
			if d.Has(n) != in {
				t.Errorf("%s: Has(%s) = %v", d.Key, n, d.Has(n))
			}
		}
		// The default written into Params through Field is today's behaviour.
		p := pol(Patience, 40, 10)
		*d.Field(&p.Params) = d.Default
		if r := (walk{}).run(p); r.turn != 40 {
			t.Errorf("%s at its default %d: stop %d, want 40", d.Key, d.Default, r.turn)
		}
		if err := p.Usable(); err != nil {
			t.Errorf("%s at its default: %v", d.Key, err)
		}
	}
	if len(want) > 0 {
		t.Errorf("no Dimension for %v", want)
	}
	if p := DefaultParams(); p.ObjectivePatience != 0 || p.RoomPatience != 0 || p.ScoreMode != ScoreChanges || p.MinDelta != 0 || p.MinTurns != 0 {
		t.Errorf("DefaultParams %+v: the variant settings' zero values are their defaults", p)
	}
}

func TestVariantsRegistry(t *testing.T) {
	names := Names()
	if len(names) != 8 || names[5] != Increase || names[6] != None || names[7] != Patience {
		t.Errorf("Names() = %v, want the variants increase, none, patience last", names)
	}
	for _, n := range []Name{Increase, None, Patience} {
		if k, _ := Lookup(n); !k.Variant || k.Ported {
			t.Errorf("%s: %+v: a variant", n, k)
		}
	}
}

// TestApplied: output shows the value that applies. A variant setting's zero
// is its default (min_delta 0 replays as 1, docs/policies.md), while a
// supervisor trigger's 0 is off and a timer's 0 is no timer.
func TestApplied(t *testing.T) {
	dim := func(key string) *Dimension {
		for i := range dimensions {
			if dimensions[i].Key == key {
				return &dimensions[i]
			}
		}
		t.Fatalf("no dimension %s", key)
		return nil
	}
	var zero Params
	for _, c := range []struct {
		key  string
		set  bool // given as 0 by a user, through Set
		want int
	}{
		{"min_delta", false, 1},
		{"min_delta", true, 1},
		{"min_turns", false, 0},
		{"objective_patience", false, 0},
		{"max_turns_stuck", false, 0},
		{"flat_checkpoints", false, 2},
		{"flat_checkpoints", true, 0},
		{"checkpoint", false, DefaultCheckpoint},
	} {
		p, d := zero, dim(c.key)
		if c.set {
			d.Set(&p, 0)
		}
		if got := d.Applied(&p); got != c.want {
			t.Errorf("%s (set to 0: %v): Applied %d, want %d", c.key, c.set, got, c.want)
		}
	}
}
