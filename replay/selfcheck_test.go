package replay

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/synth"
	"github.com/lbanalyze/lbanalyze/internal/testlogs"
	"github.com/lbanalyze/lbanalyze/policy"
)

// recorded appends loop-break events written by hand, with the values of
// docs/semantics.md, "5.6 Worked results", to a log written with no loop break.
func recorded(t *testing.T, p plan, events func(l *synth.Log)) *episode.Episode {
	t.Helper()
	var buf bytes.Buffer
	buf.Write(testlogs.Write(t, p.Episode()))
	l := synth.NewLog(&buf, time.Date(2025, 11, 12, 12, 0, 0, 0, time.UTC))
	events(l)
	l.Flush()
	return one(t, buf.Bytes())
}

// zorkGPT is what ZorkGPT's recordings run (system.ZorkGPT's Recorder): its
// two rules, score first, and the settings its GameConfiguration takes,
// some warning threshold of 5..100 below max_turns_stuck (docs/log-format.md,
// "6. [tool.zorkgpt.loop_break]").
var zorkGPT = Recorder{Rules: []policy.Name{policy.Score, policy.ScoreOrObjective},
	Accepts: func(w, i int) bool { return i >= 1 && i <= 100 && w >= i && w > 5 && w <= 1000 }}

func objectiveReset(l *synth.Log, turn, old int) {
	l.Event("INFO", "objective_progress_reset", "Objective progress detected - resetting stuck timer",
		synth.KV{Key: "turn", Value: turn}, synth.KV{Key: "was_stuck_for", Value: turn - old},
		synth.KV{Key: "old_last_change_turn", Value: old}, synth.KV{Key: "new_last_change_turn", Value: turn})
}

func stuckTermination(l *synth.Log, turn, score, stuck int) {
	l.Event("WARNING", "stuck_termination", fmt.Sprintf("Terminating episode: no progress for %d turns (score stuck at %d)", stuck, score),
		synth.KV{Key: "episode_id", Value: "2025-11-12T10:00:00"}, synth.KV{Key: "turn", Value: turn},
		synth.KV{Key: "score", Value: score}, synth.KV{Key: "turns_stuck", Value: stuck})
}

func TestSelfCheckReproducesV2(t *testing.T) {
	// docs/semantics.md, "5.6 Worked results" "objective completed at 35": v2 resets at 35 and 36, stops at 80 (44).
	ep := recorded(t, plan{N: 80, Objectives: map[int][]string{35: {"Open the window"}}}, func(l *synth.Log) {
		objectiveReset(l, 35, 0)
		objectiveReset(l, 36, 35)
		stuckTermination(l, 80, 0, 44)
	})
	sc := Check(ep, policy.DefaultTimer(), zorkGPT)
	if sc == nil || sc.Policy != policy.ScoreOrObjective || !sc.TerminationMatch || sc.ReplayedTurn != 80 || sc.ReplayedStuck != 44 || !sc.DefaultsConsistent {
		t.Fatalf("self-check %+v", sc)
	}
	// By hand, the timer after each check turn before 80 (anchor 36 from turn 36):
	// interval 10: 10, 20, 30, 4, 14, 24, 34 -> max_turns_stuck in 35..44;
	// interval 1: 43 at turn 79 -> exactly 44; interval 40: 4 at 40 -> 40..44;
	// interval 80: no check before 80, but max_turns_stuck >= 80 > 44: none.
	for _, want := range []Consistent{{10, 35, 44}, {1, 44, 44}, {40, 40, 44}} {
		if !slices.Contains(sc.Consistent, want) {
			t.Errorf("consistent %+v lacks %+v", sc.Consistent, want)
		}
	}
	for _, c := range sc.Consistent {
		if 80%c.CheckInterval != 0 || c.CheckInterval == 80 {
			t.Errorf("interval %d cannot have stopped at 80", c.CheckInterval)
		}
	}
}

func TestSelfCheckTellsV1FromV2(t *testing.T) {
	// Recorded by the score-only build: the objective at 35 reset nothing and
	// the run stopped at 40 (40). Only the score policy reproduces that.
	ep := recorded(t, plan{N: 40, Objectives: map[int][]string{35: {"Open the window"}}}, func(l *synth.Log) {
		stuckTermination(l, 40, 0, 40)
	})
	sc := Check(ep, policy.DefaultTimer(), zorkGPT)
	if sc.Policy != policy.Score || !sc.TerminationMatch || len(sc.Mismatches) != 0 {
		t.Errorf("self-check %+v", sc)
	}
}

func TestSelfCheckMismatch(t *testing.T) {
	// A recorded score_change at 57 where the scores show none: no policy
	// reproduces it, and the check says where.
	ep := recorded(t, plan{N: 60}, func(l *synth.Log) {
		l.Event("INFO", "score_change", "Score changed: 0 \u2192 5", synth.KV{Key: "turn", Value: 57},
			synth.KV{Key: "old_score", Value: 0}, synth.KV{Key: "new_score", Value: 5})
	})
	sc := Check(ep, policy.DefaultTimer(), zorkGPT)
	if sc.Policy != "" || len(sc.Mismatches) != 1 || !strings.Contains(sc.Mismatches[0], "score_change at turn 57") {
		t.Errorf("self-check %+v", sc)
	}
	// The replay stops at 40 but the recording did not stop: not a match.
	if sc.TerminationMatch {
		t.Error("termination reported as matching")
	}
}

func TestSelfCheckNoEvents(t *testing.T) {
	if sc := Check(one(t, testlogs.Write(t, plan{N: 30}.Episode())), policy.DefaultTimer(), zorkGPT); sc != nil {
		t.Errorf("a log without loop-break events has a self-check: %+v", sc)
	}
}

// The writer's recordings (synth, driven by the policy package) and the
// replay agree on every generated turn sequence: each recorded reset and stop
// is reproduced, and 40/10 is found consistent.
func TestSelfCheckOnRecordings(t *testing.T) {
	for seed := range 40 {
		p := plan{N: 300, Changes: map[int]int{}, Objectives: map[int][]string{}, LoopBreak: &v2}
		if seed%2 == 1 {
			p.LoopBreak = &v1
		}
		x := uint32(seed*2654435761 + 1)
		next := func(n int) int { x ^= x << 13; x ^= x >> 17; x ^= x << 5; return int(x % uint32(n)) }
		score := 0
		for turn := 2; turn <= 300; turn++ {
			if next(30) == 0 {
				score += 5 * (next(3) - 1)
				p.Changes[turn] = score
			}
			if next(25) == 0 {
				p.Objectives[turn] = []string{fmt.Sprintf("Objective %d", turn)}
			}
		}
		ep := one(t, testlogs.Write(t, p.Episode()))
		sc := Check(ep, policy.DefaultTimer(), zorkGPT)
		want := p.LoopBreak.Name
		if sc == nil || sc.Policy != want && !(len(ep.Recorded.Turns(episode.ObjectiveReset)) == 0 && sc.Policy != "") ||
			!sc.TerminationMatch || !sc.DefaultsConsistent {
			t.Errorf("seed %d (%s): %+v", seed, want, sc)
		}
	}
}
