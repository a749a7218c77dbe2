package episode

import (
	"encoding/binary"
	"hash/fnv"
	"math"
)

// Identity is a 64-bit hash of the episode's recorded id; of an episode
// whose log records none (IDFromPath: its id is made from where the file
// lies), of what it holds turn by turn, which no path changes: its score,
// response, room, objectives and action. It is the same once the actions
// are let go (DropTexts).
func (e *Episode) Identity() uint64 {
	if e.identified {
		return e.identity
	}
	h := fnv.New64a()
	if !e.IDFromPath {
		h.Write([]byte(e.ID))
		return h.Sum64()
	}
	var b [8]byte
	put := func(v uint64) {
		binary.LittleEndian.PutUint64(b[:], v)
		h.Write(b[:])
	}
	put(uint64(len(e.Turns)))
	for i := range e.Turns {
		t := &e.Turns[i]
		put(math.Float64bits(float64(t.Score)))
		put(t.ResponseHash)
		put(uint64(t.RoomID)<<32 | uint64(uint32(t.Objectives)))
		h.Write([]byte(t.Action))
		h.Write([]byte{0})
	}
	return h.Sum64()
}

// DropTexts lets go of the turns' texts that a reader of only the signals
// in keep does not read: each action unless keep has Actions, the text of
// each response unless it has ResponseTexts. A log at the turn cap of
// distinct texts holds 13 MB of them (docs/PERFORMANCE.md, "Memory"). What
// the log records (Signals) and Identity stay as they were.
func (e *Episode) DropTexts(keep Signals) {
	actions, responses := !keep.Has(Actions), !keep.Has(ResponseTexts)
	if actions && !e.identified {
		e.identity, e.identified = e.Identity(), true
	}
	for i := range e.Turns {
		if actions {
			e.Turns[i].Action = ""
		}
		if responses {
			e.Turns[i].Response = ""
		}
	}
}
