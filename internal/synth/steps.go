package synth

import (
	"fmt"
	"slices"
	"time"

	"github.com/lbanalyze/lbanalyze/policy"
)

// Steps is a compact plan for tests and fixtures: N turns alternating between
// two rooms of Zork I, the score stepping to Changes[t] at turn t, the
// objectives Objectives[t] completed at turn t.
type Steps struct {
	ID         string // episode id; 2025-11-12T10:00:00 when empty
	N          int
	Changes    map[int]int
	Objectives map[int][]string
	Exceptions []int // turns that end in turn_exception
	GameOver   int   // the turn of a player death, 0 none
	LoopBreak  *policy.Policy
	MaxTurns   int
	Ending     Ending
}

var (
	westOfHouse  = Room{ID: 180, Name: "West of House"}
	northOfHouse = Room{ID: 81, Name: "North of House"}
)

// Episode is the plan of s.
func (s Steps) Episode() *Episode {
	id := s.ID
	if id == "" {
		id = "2025-11-12T10:00:00"
	}
	start, err := time.Parse("2006-01-02T15:04:05", id)
	if err != nil {
		start = time.Date(2025, 11, 12, 10, 0, 0, 0, time.UTC)
	}
	e := &Episode{ID: id, Start: start, LoopBreak: s.LoopBreak, InitialRoom: westOfHouse, MaxTurns: s.MaxTurns, Ending: s.Ending}
	score := 0
	for t := 1; t <= s.N; t++ {
		if v, ok := s.Changes[t]; ok {
			score = v
		}
		room := westOfHouse
		if t%2 == 1 {
			room = northOfHouse
		}
		tu := Turn{Action: fmt.Sprintf("action %d", t), Reasoning: "Try something.", Response: "Nothing happens.",
			To: room, Score: score, CriticScore: 0.8, Confidence: 0.9, Completed: s.Objectives[t]}
		if slices.Contains(s.Exceptions, t) {
			tu.Exception = "KeyError: 'inventory'"
		}
		if t == s.GameOver {
			tu.GameOver = "Player death"
			tu.Response = "You have died."
		}
		e.Turns = append(e.Turns, tu)
	}
	return e
}
