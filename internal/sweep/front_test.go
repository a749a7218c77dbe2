package sweep

import (
	"github.com/lbanalyze/lbanalyze/episode"
	"math/rand/v2"
	"slices"
	"testing"
)

// dominates is the definition, checked pair by pair.
func dominates(a, b *Tally) bool {
	ge := a.TurnsSaved >= b.TurnsSaved && a.Unjudged() <= b.Unjudged() && a.ScoreForgone <= b.ScoreForgone
	gt := a.TurnsSaved > b.TurnsSaved || a.Unjudged() < b.Unjudged() || a.ScoreForgone < b.ScoreForgone
	return ge && gt
}

// quadratic is the front by the definition: every config no other dominates.
func quadratic(cs []Config) []int {
	var out []int
	for i := range cs {
		ok := true
		for j := range cs {
			if dominates(&cs[j].Tally, &cs[i].Tally) {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, i)
		}
	}
	return out
}

// all is 0 … n−1.
func all(n int) []int {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	return idx
}

func TestFrontHandWorked(t *testing.T) {
	cs := []Config{
		{Tally: Tally{TurnsSaved: 100, FalseTerminations: 5, ScoreForgone: 10}}, // 0: most saved: front
		{Tally: Tally{TurnsSaved: 80, FalseTerminations: 2, ScoreForgone: 10}},  // 1: fewer false: front
		{Tally: Tally{TurnsSaved: 80, FalseTerminations: 3, ScoreForgone: 10}},  // 2: dominated by 1
		{Tally: Tally{TurnsSaved: 70, FalseTerminations: 2, ScoreForgone: 4}},   // 3: less forgone: front
		{Tally: Tally{TurnsSaved: 70, FalseTerminations: 2, ScoreForgone: 4}},   // 4: same as 3: front
		{Tally: Tally{TurnsSaved: 60, FalseTerminations: 2, ScoreForgone: 4}},   // 5: dominated by 3
		{Tally: Tally{TurnsSaved: 0, FalseTerminations: 0, ScoreForgone: 0}},    // 6: never stops: front
		{Tally: Tally{TurnsSaved: 80, FalseTerminations: 2, ScoreForgone: 11}},  // 7: dominated by 1 (same saved and false)
	}
	got := front(cs, all(len(cs)), Options{}.saved)
	want := []int{0, 1, 3, 4, 6}
	if !slices.Equal(got, want) {
		t.Errorf("front %v, want %v", got, want)
	}
}

func TestFrontEqualsDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 300 {
		cs := make([]Config, 1+rng.IntN(60))
		for i := range cs {
			cs[i].Tally = Tally{TurnsSaved: rng.IntN(8) * 10, FalseTerminations: rng.IntN(6), Unknown: rng.IntN(2), ScoreForgone: episode.Score(rng.IntN(5))}
		}
		got, want := front(cs, all(len(cs)), Options{}.saved), quadratic(cs)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d: front %v, want %v for %+v", trial, got, want, cs)
		}
	}
}
