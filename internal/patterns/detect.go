package patterns

// The detectors below work on a room sequence seq where seq[t] is the room at
// the start of turn t (seq[0] unused), exactly the per-turn location history
// ZorkGPT appends at critic time (deque maxlen 20: HistoryLen).

// HistoryLen is the length of ZorkGPT's location history (deque(maxlen=20)).
const HistoryLen = 20

// history returns the entries of the location history at turn t: the rooms at
// the start of turns max(1, t−19)..t.
func history(seq []int, t int) []int {
	return seq[max(1, t-HistoryLen+1) : t+1]
}

// oscillationAt is the design's _detect_oscillation_pattern at turn t: the last
// four history entries are A, B, A, B with A ≠ B. It needs four entries.
func oscillationAt(seq []int, t int) (a, b int, ok bool) {
	h := history(seq, t)
	if len(h) < 4 {
		return 0, 0, false
	}
	r := h[len(h)-4:]
	if r[0] == r[2] && r[1] == r[3] && r[0] != r[1] {
		return r[0], r[1], true
	}
	return 0, 0, false
}

// campingAt is the design's _detect_location_camping at turn t: over the last
// min(window, len(history)) entries, the most visited room has at least
// threshold visits. A window smaller than the threshold never detects. Ties go
// to the room that appears first in the window (Python's max over a dict in
// insertion order).
func campingAt(seq []int, t, window, threshold int) (room, visits int, ok bool) {
	h := history(seq, t)
	size := min(window, len(h))
	if size < threshold || size < 1 {
		return 0, 0, false
	}
	// At most HistoryLen entries: counting each entry's copies costs less
	// than a map a turn.
	w := h[len(h)-size:]
	for i, id := range w {
		count := 0
		for _, other := range w[i:] {
			if other == id {
				count++
			}
		}
		if count > visits && !seenBefore(w[:i], id) {
			room, visits = id, count
		}
	}
	return room, visits, visits >= threshold
}

func seenBefore(w []int, id int) bool {
	for _, other := range w {
		if other == id {
			return true
		}
	}
	return false
}

// revisitsAt is Phase 1B at turn t (09a7cc2's critic loop): how often the
// current room (the last history entry) appears among the previous
// min(window, len(history)−1) entries. ZorkGPT penalises the critic's
// confidence by RevisitPenalty × this count when it is above 0.
func revisitsAt(seq []int, t, window int) int {
	h := history(seq, t)
	w := min(window, len(h)-1)
	if w < 1 {
		return 0
	}
	cur, visits := h[len(h)-1], 0
	for _, id := range h[len(h)-1-w : len(h)-1] {
		if id == cur {
			visits++
		}
	}
	return visits
}

// clamp01 is the adjusted confidence: max(0, min(1, c)).
func clamp01(c float64) float64 { return max(0, min(1, c)) }

// hit is a detection at one turn: on, and what was detected (the pair of an
// oscillation, unordered; the camped room).
type hit struct {
	on  bool
	key [2]int
}

// PatternSpell is a maximal run of consecutive turns at which a detector
// fires with the same rooms.
type PatternSpell struct {
	Start int    `json:"start"` // the first turn the detector fires
	End   int    `json:"end"`   // the last
	Turns int    `json:"turns"` // End − Start + 1
	Rooms []Room `json:"rooms"` // A and B of an oscillation; the camped room
}

// spellsOf groups hits (index t, 1..N) into spells.
func spellsOf(hits []hit, r *rooms) []PatternSpell {
	var out []PatternSpell
	for t := 1; t < len(hits); t++ {
		h := hits[t]
		if !h.on {
			continue
		}
		if n := len(out); n > 0 && out[n-1].End == t-1 && hits[t-1].key == h.key {
			out[n-1].End, out[n-1].Turns = t, out[n-1].Turns+1
			continue
		}
		ps := PatternSpell{Start: t, End: t, Turns: 1}
		for i, k := range h.key {
			if i == 1 && (k == h.key[0] || k == -1) {
				break
			}
			ps.Rooms = append(ps.Rooms, r.room(k))
		}
		out = append(out, ps)
	}
	return out
}

// pairKey orders a pair so that A-B-A-B and B-A-B-A of one oscillation match.
func pairKey(a, b int) [2]int {
	if a > b {
		a, b = b, a
	}
	return [2]int{a, b}
}
