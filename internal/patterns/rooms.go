// Package patterns finds the stuck behaviour of an episode: stuck spells per
// policy, ZorkGPT's Phase 1B revisit penalty (replayed and checked against the
// log), the Phase 1C countdown warnings and whether the agent escaped them,
// A-B-A-B oscillation, camping, repeated (action, response) pairs and action
// novelty, and how long before a policy's stop each of them began.
//
// It reads an episode.Episode and steps policies with the replay's tracker, so
// every "progress" is the policy's own; it knows nothing of rendering. The
// results carry JSON tags (snake_case) for the renderers.
package patterns

import (
	"slices"

	"github.com/lbanalyze/lbanalyze/episode"
)

// Room is a room as the output names it: the Jericho id when the log has ids
// (E3c), and the name as logged.
type Room struct {
	ID   int    `json:"id,omitempty"`
	Name string `json:"name"`
}

// rooms is the room sequence of an episode as ZorkGPT's location history sees
// it: at[t] is the room at the start of turn t (turn t−1's to_room_id of
// map_movement_update, the initial room for turn 1), after[t] the room after
// turn t. Keys are Jericho ids, or small numbers given to names when the log
// has no ids (E3a/E3b: names come from an LLM extractor and are less stable).
type rooms struct {
	byID  bool
	none  bool  // the log names no room at all (a harness's): no room pattern can be told
	at    []int // index t, 1..N (at[0] unused)
	after []int
	names map[int]string
}

func roomsOf(ep *episode.Episode) *rooms {
	n := ep.N()
	r := &rooms{names: map[int]string{}}
	r.byID = ep.InitialRoomID != 0 || slices.ContainsFunc(ep.Turns, func(tu episode.Turn) bool { return tu.RoomID != 0 })
	if !r.byID && ep.InitialRoom == "" && !slices.ContainsFunc(ep.Turns, func(tu episode.Turn) bool { return tu.Location != "" }) {
		// Every room is 0: one slice serves for both (a log at the turn cap
		// of a harness's, docs/PERFORMANCE.md, "Memory").
		r.at, r.none = make([]int, n+1), true
		r.after = r.at
		return r
	}
	r.at, r.after = make([]int, n+1), make([]int, n+1)
	index := map[string]int{}
	key := func(id int, name string) int {
		if r.byID {
			if _, ok := r.names[id]; !ok || r.names[id] == "" {
				r.names[id] = name
			}
			return id
		}
		if name == "" {
			return 0
		}
		k, ok := index[name]
		if !ok {
			k = len(index) + 1
			index[name] = k
			r.names[k] = name
		}
		return k
	}
	prev := key(ep.InitialRoomID, ep.InitialRoom)
	r.none = prev == 0
	for t := 1; t <= n; t++ {
		tu := &ep.Turns[t-1]
		r.at[t] = prev
		r.after[t] = key(tu.RoomID, tu.Location)
		prev = r.after[t]
		r.none = r.none && prev == 0
	}
	return r
}

func (r *rooms) room(k int) Room {
	if r.byID {
		return Room{ID: k, Name: r.names[k]}
	}
	return Room{Name: r.names[k]}
}

// keyName says what identifies a room: "id" or "name", or "none" when the
// log names no room.
func (r *rooms) keyName() string {
	if r.none {
		return "none"
	}
	if r.byID {
		return "id"
	}
	return "name"
}

// hits is a room detector's hits a turn (index t, 1..N), none when the log
// names no room: a detector fires on none of its turns, and a log at the turn
// cap would hold 24 bytes a turn for it (docs/PERFORMANCE.md, "Memory").
func (r *rooms) hits() []hit {
	if r.none {
		return nil
	}
	return make([]hit, len(r.at))
}
