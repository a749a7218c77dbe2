package policy

import (
	"slices"
	"testing"
)

// A product is its policies in the order nested loops write them, the last
// setting innermost; a setting the policy lacks keeps its default; a list
// is its policies as given.
func TestGridProductOrder(t *testing.T) {
	vals := defaults()
	vals[0], vals[1], vals[2] = []int{30, 40}, []int{5, 10, 20}, []int{0, 25}
	var g Grid
	g.Add(Policy{Name: Window}.WithTimer(Timer{MaxTurnsStuck: 7, CheckInterval: 1, WarningThreshold: 3}))
	g.Product(Score, vals)
	g.Add(Policy{Name: ScoreOrObjective})
	var want []Policy
	want = append(want, Policy{Name: Window}.WithTimer(Timer{MaxTurnsStuck: 7, CheckInterval: 1, WarningThreshold: 3}))
	for _, w := range []int{30, 40} {
		for _, i := range []int{5, 10, 20} {
			for _, th := range []int{0, 25} {
				want = append(want, Policy{Name: Score}.WithTimer(Timer{MaxTurnsStuck: w, CheckInterval: i, WarningThreshold: th}))
			}
		}
	}
	want = append(want, Policy{Name: ScoreOrObjective})
	if got := g.Policies(); !slices.Equal(got, want) {
		t.Fatalf("policies\n%v\nwant\n%v", got, want)
	}
	if g.Len() != 14 {
		t.Errorf("Len %d, want 14", g.Len())
	}
	// Stopped early, it yields the first ones.
	var first []Policy
	for p := range g.All() {
		if first = append(first, p); len(first) == 4 {
			break
		}
	}
	if !slices.Equal(first, want[:4]) {
		t.Errorf("the first 4: %v", first)
	}
}

// A product of an empty list of values holds nothing; a policy's own
// settings vary with it (patience's objective_patience here), the others'
// stay at their defaults.
func TestGridProductSettings(t *testing.T) {
	vals := defaults()
	var g Grid
	empty := slices.Clone(vals)
	empty[0] = nil
	g.Product(Score, empty)
	if g.Len() != 0 || len(g.Policies()) != 0 {
		t.Fatalf("an empty product holds %d", g.Len())
	}
	vals[slices.Index(Settings(), ObjectivePatience)] = []int{5, 15}
	g.Product(Patience, vals)
	g.Product(Score, vals)
	got := g.Policies()
	if len(got) != 3 || got[0] != (Policy{Name: Patience}.With(ObjectivePatience, 5)) || got[1] != (Policy{Name: Patience}.With(ObjectivePatience, 15)) || got[2] != (Policy{Name: Score}) {
		t.Fatalf("policies %+v", got)
	}
}

// LeaveRepeats keeps the first occurrence of a policy, in a list or in a
// product, and says where the others were, counted in the grid as built.
func TestGridLeaveRepeats(t *testing.T) {
	vals := defaults()
	vals[0] = []int{30, 40, 50}
	p40 := Policy{Name: Score} // score 40/10, the product's second
	p60 := Policy{Name: Score}.With(MaxTurnsStuck, 60)
	var g Grid
	g.Add(p60)             // 0
	g.Product(Score, vals) // 1, 2 (p40), 3
	g.Add(p40)             // 4: a repeat
	g.Add(p60)             // 5: a repeat
	g.Product(Score, vals) // 6, 7 (p40, a repeat), 8
	if at := g.LeaveRepeats(p40); !slices.Equal(at, []int{4, 7}) {
		t.Errorf("p40 left out at %v, want [4 7]", at)
	}
	if at := g.LeaveRepeats(p60); !slices.Equal(at, []int{5}) {
		t.Errorf("p60 left out at %v, want [5]", at)
	}
	if at := g.LeaveRepeats(p40); at != nil {
		t.Errorf("p40 left out again at %v", at)
	}
	p30, p50 := p40.With(MaxTurnsStuck, 30), p40.With(MaxTurnsStuck, 50)
	want := []Policy{p60, p30, p40, p50, p30, p50}
	if got := g.Policies(); !slices.Equal(got, want) || g.Len() != len(want) {
		t.Errorf("after: %v (Len %d), want %v", got, g.Len(), want)
	}
}

// defaults are a grid's values of every setting, by Settings: its default.
func defaults() [][]int {
	vals := make([][]int, len(Settings()))
	for i, s := range Settings() {
		vals[i] = []int{s.Default}
	}
	return vals
}
