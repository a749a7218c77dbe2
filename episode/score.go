package episode

import (
	"math"
	"strconv"
	"strings"
)

// Score is a score: whole in ZorkGPT's and ZorkGPT2's logs, and real where a
// harness logs it so (a normalised score, summed rewards; docs/sources.md,
// "Rewards and real-valued scores"). A float64 holds every whole score a
// source accepts (up to ±2^53) exactly, so whole scores add, subtract and
// compare exactly.
type Score float64

// ScoreResolution is the finest difference of scores that counts: scores
// are written to it (9 decimals, more than any log gives), rewards are summed
// to it, and a move is compared with a threshold to it, so that the last bits
// of a difference of decimals (0.35 − 0.1 = 0.24999999999999997) neither
// show nor decide.
const (
	ScoreResolution = 1e-9
	scorePlaces     = 9
)

// String writes a score as it is: a whole one as a whole number ("40"), a
// real one with the decimals it has ("0.35"), never "-0".
func (s Score) String() string {
	if s < 1<<53 && s > -1<<53 && s == Score(int64(s)) {
		return strconv.FormatInt(int64(s), 10)
	}
	t := strconv.FormatFloat(float64(s), 'f', scorePlaces, 64)
	t = strings.TrimRight(strings.TrimRight(t, "0"), ".")
	if t == "-0" {
		return "0"
	}
	return t
}

// Add is s + x to ScoreResolution: sums of scores of a few decimals are then
// the same float whatever their order (0.2 + 0.1 − 0.1 is 0.2 again, and 0.1
// + 0.2 is 0.3, not 0.30000000000000004), and whole scores add exactly.
func (s Score) Add(x Score) Score {
	const scale = 1 / ScoreResolution
	v := float64(s + x)
	if math.Abs(v) < (1<<53)/scale {
		v = math.Round(v*scale) / scale
	}
	if v == 0 {
		v = 0 // not −0
	}
	return Score(v)
}

// WholeScores reports whether every score of the episode is a whole number.
func (e *Episode) WholeScores() bool {
	for i := range e.Turns {
		if s := e.Turns[i].Score; s != Score(int64(s)) {
			return false
		}
	}
	return true
}

// MarshalJSON writes it as String does, a JSON number.
func (s Score) MarshalJSON() ([]byte, error) { return []byte(s.String()), nil }

// Judged is how a run is judged (docs/semantics.md, "6.4 Runs judged by
// their result").
type Judged uint8

const (
	// ByScore: by its score after each turn (a game's).
	ByScore Judged = iota
	// ByResult: by its final result (1 solved, 0 not, a fraction for partial
	// credit): its score is 0 until its last turn, which takes the result.
	ByResult
	// ByUnknownResult: by a final result its log does not give: every stop
	// on it is unknown.
	ByUnknownResult
)

// SetResult makes e a run judged by its result: every turn's score 0 but the
// last's, which is result; nil, a result the log does not give.
func (e *Episode) SetResult(result *Score) {
	for i := range e.Turns {
		e.Turns[i].Score = 0
	}
	e.Scoring, e.Judged = ScoredLast, ByUnknownResult
	if result != nil {
		e.Judged = ByResult
		if n := e.N(); n > 0 {
			e.Turns[n-1].Score = *result
		}
	}
}

// Result is the run's final result, false when it is not judged by one or
// its log does not give it.
func (e *Episode) Result() (Score, bool) {
	return e.FinalScore(), e.Judged == ByResult
}
