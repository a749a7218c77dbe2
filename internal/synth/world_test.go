package synth

import (
	"math/rand/v2"
	"testing"
)

// Zork I's points for what the walkthrough does, from the game's tables
// (treasure taken + in the trophy case; rooms first entered), summed by hand:
// egg 5+5, Kitchen 10, Cellar 25, East-West Passage 5, platinum bar 10+5,
// painting 4+6, trunk 15+5, trident 4+11, torch 14+6, coffin 10+15, sceptre
// 4+6, pot of gold 10+10, bag of coins 10+5, Treasure Room 25, chalice 10+5.
const walkthroughPoints = 10 + 10 + 25 + 5 + 15 + 10 + 20 + 15 + 20 + 25 + 10 + 20 + 15 + 25 + 15

func TestWalkthroughScoresZorkPoints(t *testing.T) {
	total := 0
	for _, st := range walkthrough {
		for _, a := range st.acts {
			total += a.points
		}
	}
	if total != walkthroughPoints {
		t.Errorf("the walkthrough scores %d points, Zork I gives %d for it", total, walkthroughPoints)
	}
}

// Every step's room is reachable from the previous one through the exits its
// predecessors have opened, and the map's directions are real ones.
func TestWalkthroughIsPlayable(t *testing.T) {
	s := &sim{rng: rand.New(rand.NewPCG(1, 1)), max: 10_000, room: placeOf("westOfHouse"),
		done: make([]bool, len(walkthrough)), visited: map[int]bool{}}
	for i, st := range walkthrough {
		for moves := 0; s.room != placeOf(st.room); moves++ {
			if moves > len(places) {
				t.Fatalf("step %s: no way to %s", st.key, st.room)
			}
			_, s.room = s.toward(placeOf(st.room)) // panics when there is no way
		}
		for _, a := range st.acts {
			if a.to != "" {
				s.room = placeOf(a.to)
			}
		}
		s.done[i] = true
	}
	valid := map[string]bool{}
	for _, d := range directions {
		valid[d] = true
	}
	for _, p := range places {
		for _, x := range p.exits {
			if !valid[x.dir] {
				t.Errorf("%s: exit %q is not a direction", p.key, x.dir)
			}
		}
		for _, it := range p.items {
			if _, ok := stepIndex[it.gone]; it.gone != "" && !ok {
				t.Errorf("%s: item gone with an unknown step %q", p.key, it.gone)
			}
		}
	}
}

func TestRoomTextDropsTakenThings(t *testing.T) {
	done := make([]bool, len(walkthrough))
	tree := placeOf("upATree")
	if got := tree.text(done); got != "Up a Tree\n"+tree.desc+"\n"+tree.items[0].text+"\n"+tree.items[1].text {
		t.Errorf("before the egg is taken: %q", got)
	}
	done[stepIndex["egg"]] = true
	if got := tree.text(done); got != "Up a Tree\n"+tree.desc+"\nBeside you on the branch is a small bird's nest." {
		t.Errorf("after: %q", got)
	}
}
