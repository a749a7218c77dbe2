package episode

import (
	"hash/fnv"
	"testing"
)

// turns are three steps of distinct actions and responses.
func turns() []Turn {
	return []Turn{
		{Score: 0, Action: "go north", ResponseHash: 11, Response: "A forest."},
		{Score: 5, Action: "take lamp", ResponseHash: 12, Response: "Taken.", RoomID: 3, Objectives: 1},
		{Score: 5, Action: "go north", ResponseHash: 13, Response: "A clearing."},
	}
}

// An episode's identity is its recorded id's hash; one whose id is made from
// its path is known by its turns, actions included, wherever it lies; and
// letting the texts go changes neither.
func TestIdentity(t *testing.T) {
	h := fnv.New64a()
	h.Write([]byte("run-7"))
	recorded := &Episode{ID: "run-7", Source: "a/log.csv", Turns: turns()}
	if got, want := recorded.Identity(), h.Sum64(); got != want {
		t.Errorf("recorded id: identity %x, want fnv64a of the id %x", got, want)
	}

	here := &Episode{ID: "a", Source: "a/log.csv", IDFromPath: true, Turns: turns()}
	there := &Episode{ID: "b", Source: "b/log.csv", IDFromPath: true, Turns: turns()}
	other := &Episode{ID: "a", Source: "a/log.csv", IDFromPath: true, Turns: turns()}
	other.Turns[2].Action = "go south"
	blank := &Episode{ID: "a", Source: "a/log.csv", IDFromPath: true, Turns: turns()}
	for i := range blank.Turns {
		blank.Turns[i].Action = ""
	}
	id := here.Identity()
	switch {
	case there.Identity() != id:
		t.Errorf("the same turns under another path: identity %x, want %x", there.Identity(), id)
	case other.Identity() == id:
		t.Errorf("another action: identity %x, the same as the first's", id)
	case blank.Identity() == id:
		t.Errorf("no actions: identity %x, the same as the first's", id)
	}

	for _, ep := range []*Episode{recorded, here} {
		before := ep.Identity()
		ep.DropTexts(0)
		if ep.Identity() != before {
			t.Errorf("%s: identity %x once the texts are let go, want %x", ep.ID, ep.Identity(), before)
		}
	}
}

// DropTexts lets go of the actions unless Actions is kept and of the
// responses' texts unless ResponseTexts is, and of nothing else.
func TestDropTexts(t *testing.T) {
	for _, c := range []struct {
		name               string
		keep               Signals
		actions, responses bool // kept
	}{
		{"none", 0, false, false},
		{"actions", Signals(Actions), true, false},
		{"response texts", Signals(ResponseTexts), false, true},
		{"both", Signals(0).With(Actions, ResponseTexts, Rooms), true, true},
		{"other signals", Signals(0).With(Responses, Rooms, Objectives), false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			ep := &Episode{ID: "x", Signals: Signals(0).With(Actions, Responses, ResponseTexts), Turns: turns()}
			ep.DropTexts(c.keep)
			want := turns()
			for i := range want {
				if !c.actions {
					want[i].Action = ""
				}
				if !c.responses {
					want[i].Response = ""
				}
			}
			for i := range want {
				if ep.Turns[i] != want[i] {
					t.Errorf("turn %d: %+v, want %+v", i+1, ep.Turns[i], want[i])
				}
			}
			if !ep.Signals.Has(Actions, Responses, ResponseTexts) {
				t.Errorf("signals %v: what the log records changed", ep.Signals.List())
			}
		})
	}
}
