package replay

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"sync"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/testlogs"
	"github.com/lbanalyze/lbanalyze/policy"
)

// grid is every combination of names × max_turns_stuck × check interval ×
// warning threshold, in that nesting order.
func grid(names []policy.Name, ws, intervals, warns []int) []policy.Policy {
	var ps []policy.Policy
	for _, n := range names {
		for _, wt := range warns {
			for _, i := range intervals {
				for _, w := range ws {
					ps = append(ps, policy.Policy{Name: n}.WithTimer(policy.Timer{MaxTurnsStuck: w, CheckInterval: i, WarningThreshold: wt}))
				}
			}
		}
	}
	return ps
}

func values(from, to, by int) []int {
	var s []int
	for v := from; v <= to; v += by {
		s = append(s, v)
	}
	return s
}

// defaultGrid is the sweep's default grid, with warnings from 20 and from 5.
func defaultGrid() []policy.Policy {
	return grid(policy.Names(), values(10, 150, 5), []int{1, 5, 10}, []int{20, 5})
}

// swept is the fast path's outcomes on ep of the policy of each case.
func swept[C any](ep *episode.Episode, cases []C, policyOf func(C) policy.Policy) []Outcome {
	ps := make([]policy.Policy, len(cases))
	for i, c := range cases {
		ps[i] = policyOf(c)
	}
	out := make([]Outcome, len(ps))
	NewSweeper(ep).Outcomes(ps, out)
	return out
}

// sweepMatchesRun requires the fast path to equal Run on every policy.
func sweepMatchesRun(t *testing.T, what string, ep *episode.Episode, ps []policy.Policy) {
	t.Helper()
	out := make([]Outcome, len(ps))
	NewSweeper(ep).Outcomes(ps, out)
	bad := 0
	for i, p := range ps {
		if want := Run(ep, p); !reflect.DeepEqual(out[i], want) {
			if bad++; bad <= 3 {
				t.Errorf("%s, %s warn %d:\n fast %+v (gain %+v)\n run  %+v (gain %+v)",
					what, p, p.WarningThreshold(), out[i], out[i].LaterGain, want, want.LaterGain)
			}
		}
	}
	if bad > 3 {
		t.Errorf("%s: %d of %d policies differ", what, bad, len(ps))
	}
}

// datasetLogs are the bundled episodes, the sample and the CLI fixtures.
func datasetLogs(t testing.TB) []string {
	var paths []string
	for _, g := range []string{"../testdata/episodes/*/episode_log.jsonl", "../testdata/samples/*.jsonl", "../cmd/lbanalyze/testdata/logs/*.jsonl"} {
		m, err := filepath.Glob(g)
		if err != nil || len(m) == 0 {
			t.Fatalf("%s: %v, %d files", g, err, len(m))
		}
		paths = append(paths, m...)
	}
	return paths
}

func TestSweepMatchesRunOnDatasets(t *testing.T) {
	ps := defaultGrid()
	// Beyond the default grid: W 1, W below the interval, an interval longer
	// than most logs, no warning at all, warnings from 0, never stopping.
	ps = append(ps, grid(policy.Names(), []int{1, 3, 7, 41, 1000, 1 << 40}, []int{3, 7, 250, 1000}, []int{0, 20, 1000})...)
	shuffled := slices.Clone(ps) // the same policies in no order: the tables are met out of turn
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	episodes, objectives := 0, 0
	for _, path := range datasetLogs(t) {
		for _, ep := range readFile(t, path) {
			episodes++
			objectives += len(ep.Objectives)
			what := fmt.Sprintf("%s %s", path, ep.Name())
			sweepMatchesRun(t, what, ep, ps)
			sweepMatchesRun(t, what+" (shuffled)", ep, shuffled)
		}
	}
	if episodes < 75+6 || objectives == 0 {
		t.Errorf("only %d episodes, %d objectives", episodes, objectives)
	}
}

// Hand-worked cases: the stop and the outcome for a few W by hand.
func TestSweepByHand(t *testing.T) {
	pol := func(n policy.Name, w, i, wt int) policy.Policy {
		return policy.Policy{Name: n}.WithTimer(policy.Timer{MaxTurnsStuck: w, CheckInterval: i, WarningThreshold: wt})
	}
	type c struct {
		p    policy.Policy
		want Outcome // Policy filled in below
	}
	obj40 := []episode.Completion{{Turn: 40, Objective: "Open the window"}}
	for _, tc := range []struct {
		name  string
		plan  plan
		cases []c
	}{
		{"flat", plan{N: 100}, []c{
			{pol(policy.Score, 40, 10, 20), Outcome{TerminationTurn: 40, TurnsStuck: 40, TurnsSaved: 60, Length: 40, WarningStartTurn: 20}},
			{pol(policy.Score, 45, 10, 20), Outcome{TerminationTurn: 50, TurnsStuck: 50, TurnsSaved: 50, Length: 50, WarningStartTurn: 20}},
			{pol(policy.Score, 35, 5, 20), Outcome{TerminationTurn: 35, TurnsStuck: 35, TurnsSaved: 65, Length: 35, WarningStartTurn: 20}},
			// Stops at 10, before the warning at 20 would show.
			{pol(policy.Window, 10, 1, 20), Outcome{TerminationTurn: 10, TurnsStuck: 10, TurnsSaved: 90, Length: 10}},
			{pol(policy.ScoreOrObjective, 100, 10, 20), Outcome{TerminationTurn: 100, TurnsStuck: 100, Length: 100, WarningStartTurn: 20}},
			{pol(policy.ScoreOrObjective, 105, 10, 20), Outcome{Length: 100, WarningStartTurn: 20}},
		}},
		{"score change at 2", plan{N: 100, Changes: map[int]int{2: 5}}, []c{
			{pol(policy.Score, 40, 10, 20), Outcome{TerminationTurn: 50, TurnsStuck: 48, ScoreAtTermination: 5, TurnsSaved: 50, Length: 50, WarningStartTurn: 22}},
			{pol(policy.Score, 48, 10, 20), Outcome{TerminationTurn: 50, TurnsStuck: 48, ScoreAtTermination: 5, TurnsSaved: 50, Length: 50, WarningStartTurn: 22}},
			{pol(policy.Score, 49, 10, 5), Outcome{TerminationTurn: 60, TurnsStuck: 58, ScoreAtTermination: 5, TurnsSaved: 40, Length: 60, WarningStartTurn: 7}},
			{pol(policy.Score, 40, 1, 20), Outcome{TerminationTurn: 42, TurnsStuck: 40, ScoreAtTermination: 5, TurnsSaved: 58, Length: 42, WarningStartTurn: 22}},
		}},
		// 10 at 15, a death penalty back to 0 at 30, 15 at 95; checks every 10
		// see turns stuck 10 5 0 10 20 30 40 50 60 | 5 15 25 (anchors 0, 15, 30, 95).
		{"death penalty then recovery", plan{N: 120, Changes: map[int]int{15: 10, 30: 0, 95: 15}}, []c{
			{pol(policy.Score, 10, 10, 20), Outcome{TerminationTurn: 10, TurnsStuck: 10, TurnsSaved: 110, Length: 10, ScoreForgone: 15, LaterGain: &Gain{15, 10}}},
			{pol(policy.Score, 25, 10, 20), Outcome{TerminationTurn: 60, TurnsStuck: 30, TurnsSaved: 60, Length: 60, ScoreForgone: 15, LaterGain: &Gain{95, 15}, WarningStartTurn: 50}},
			{pol(policy.Score, 40, 10, 20), Outcome{TerminationTurn: 70, TurnsStuck: 40, TurnsSaved: 50, Length: 70, ScoreForgone: 15, LaterGain: &Gain{95, 15}, WarningStartTurn: 50}},
			{pol(policy.Window, 60, 10, 20), Outcome{TerminationTurn: 90, TurnsStuck: 60, TurnsSaved: 30, Length: 90, ScoreForgone: 15, LaterGain: &Gain{95, 15}, WarningStartTurn: 50}},
			{pol(policy.Score, 65, 10, 20), Outcome{Length: 120, WarningStartTurn: 50}},
		}},
		// An objective at 40: score ignores it, score-or-objective anchors at 41,
		// window at 40 itself.
		{"objective at 40", plan{N: 120, Objectives: map[int][]string{40: {"Open the window"}}}, []c{
			{pol(policy.Score, 40, 10, 20), Outcome{TerminationTurn: 40, TurnsStuck: 40, TurnsSaved: 80, Length: 40, WindowObjectives: obj40, WarningStartTurn: 20}},
			{pol(policy.Score, 41, 10, 20), Outcome{TerminationTurn: 50, TurnsStuck: 50, TurnsSaved: 70, Length: 50, WindowObjectives: obj40, WarningStartTurn: 20}},
			{pol(policy.ScoreOrObjective, 40, 10, 20), Outcome{TerminationTurn: 90, TurnsStuck: 49, TurnsSaved: 30, Length: 90, WarningStartTurn: 20}},
			{pol(policy.ScoreOrObjective, 50, 10, 20), Outcome{TerminationTurn: 100, TurnsStuck: 59, TurnsSaved: 20, Length: 100, WarningStartTurn: 20}},
			{pol(policy.ScoreOrObjective, 49, 10, 20), Outcome{TerminationTurn: 90, TurnsStuck: 49, TurnsSaved: 30, Length: 90, WarningStartTurn: 20}},
			{pol(policy.Window, 40, 10, 20), Outcome{TerminationTurn: 80, TurnsStuck: 40, TurnsSaved: 40, Length: 80, WarningStartTurn: 20}},
			// (90 − 50, 90] leaves out the objective at 40 that anchored the stop.
			{pol(policy.Window, 50, 10, 20), Outcome{TerminationTurn: 90, TurnsStuck: 50, TurnsSaved: 30, Length: 90, WarningStartTurn: 20}},
			{pol(policy.ScoreOrObjective, 80, 10, 20), Outcome{Length: 120, WarningStartTurn: 20}},
		}},
	} {
		ep := one(t, testlogs.Write(t, tc.plan.Episode()))
		out := swept(ep, tc.cases, func(x c) policy.Policy { return x.p })
		for i, c := range tc.cases {
			// Every plan here is a log that just stops (a killed run): cut, so
			// that a config that does not stop is censored.
			c.want.Policy, c.want.Cut, c.want.Censored = c.p, true, !c.want.Terminated()
			check(t, fmt.Sprintf("%s, %s warn %d (fast)", tc.name, c.p, c.p.WarningThreshold()), out[i], c.want)
			check(t, fmt.Sprintf("%s, %s warn %d (Run)", tc.name, c.p, c.p.WarningThreshold()), Run(ep, c.p), c.want)
		}
	}
}

// randomEpisode is an episode built directly: a score that changes now and
// then (up and down, back to old values; in whole points, or in rewards of
// tenths or twentieths summed in floats, 0.1 + 0.2 not 0.3), credited by its
// last or its best, objectives (several in a turn, at turn 1, sometimes out
// of log order), and an end of every kind that cuts a log or leaves it
// whole: a recorded stuck termination at the end or just before it, a kill,
// no end recorded, an exception, the turn budget.
func randomEpisode(rng *rand.Rand) *episode.Episode {
	n := rng.IntN(300)
	if rng.IntN(10) == 0 {
		n = rng.IntN(5)
	}
	ep := &episode.Episode{ID: "random", Turns: make([]episode.Turn, n), End: episode.End{Reason: episode.EndMaxTurns, Turn: n},
		Scoring: []episode.Scoring{episode.ScoredLast, episode.ScoredBest}[rng.IntN(2)]}
	pChange, pObj := rng.Float64()*0.2, rng.Float64()*0.1
	unit := []float64{1, 0.1, 0.05}[rng.IntN(3)]
	score := float64(rng.IntN(3)*5) * unit
	for i := range ep.Turns {
		if rng.Float64() < pChange {
			score += float64(rng.IntN(21)-10) * unit
		}
		ep.Turns[i].Score = episode.Score(score)
		for rng.Float64() < pObj {
			ep.Turns[i].Objectives++
			ep.Objectives = append(ep.Objectives, episode.Completion{Turn: i + 1, Objective: fmt.Sprintf("objective %d", len(ep.Objectives))})
		}
	}
	if rng.IntN(4) == 0 {
		rng.Shuffle(len(ep.Objectives), func(i, j int) { ep.Objectives[i], ep.Objectives[j] = ep.Objectives[j], ep.Objectives[i] })
	}
	switch k := rng.IntN(6); {
	case n > 0 && k < 2:
		ep.End = episode.End{Reason: episode.EndStuckTermination, Turn: n}
		ep.Recorded.Stop = &episode.Stop{Turn: n - rng.IntN(2)}
	case k == 2: // cut too: killed, or no end recorded (a ZorkGPT log that just stops)
		ep.End = episode.End{Reason: []episode.EndReason{episode.EndKilled, episode.EndNone}[rng.IntN(2)], Truncated: true}
	case k == 3: // whole: the run ended there whatever the policy
		ep.End = episode.End{Reason: episode.EndException, Turn: n}
	}
	return ep
}

func TestSweepMatchesRunOnRandomEpisodes(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	names := append(slices.Clone(policy.Names()), "increase", "patience") // replayed by Run
	cuts := map[bool]int{}
	for k := range 400 {
		ep := randomEpisode(rng)
		ps := make([]policy.Policy, 300)
		for i := range ps {
			ps[i] = policy.Policy{Name: names[rng.IntN(len(names))]}.WithTimer(policy.Timer{
				MaxTurnsStuck: rng.IntN(120) + 1, CheckInterval: rng.IntN(40) + 1, WarningThreshold: rng.IntN(60)})
			if rng.IntN(20) == 0 {
				ps[i] = ps[i].With(policy.MaxTurnsStuck, rng.IntN(3)-1) // 0 or below: stops at the first check
			}
		}
		sweepMatchesRun(t, fmt.Sprintf("random episode %d (%d turns)", k, ep.N()), ep, ps)
		cuts[LogCut(ep)]++
	}
	if cuts[true] < 100 || cuts[false] < 100 {
		t.Errorf("%d cut logs and %d whole: the random episodes should hold many of each", cuts[true], cuts[false])
	}
}

// A window subslice of ep.Objectives is capped: appending to it copies.
func TestSweepWindowIsCapped(t *testing.T) {
	ep := one(t, testlogs.Write(t, plan{N: 100, Objectives: map[int][]string{20: {"a"}, 30: {"b"}, 60: {"c"}}}.Episode()))
	out := make([]Outcome, 1)
	NewSweeper(ep).Outcomes([]policy.Policy{v1}, out)
	w := out[0].WindowObjectives
	if len(w) != 2 || cap(w) != 2 || w[0].Objective != "a" {
		t.Fatalf("window %+v (cap %d)", w, cap(w))
	}
	_ = append(w, episode.Completion{Turn: 99, Objective: "x"})
	if ep.Objectives[2].Objective != "c" {
		t.Error("append overwrote ep.Objectives")
	}
}

func TestSweepParallel(t *testing.T) {
	var eps []*episode.Episode
	rng := rand.New(rand.NewPCG(3, 5))
	for range 11 {
		eps = append(eps, randomEpisode(rng))
	}
	for _, ps := range [][]policy.Policy{
		defaultGrid(), // 522: one chunk a worker
		grid(policy.Names(), values(10, 150, 1), []int{1, 5, 10}, []int{20, 5}), // 2538: several chunks a worker
	} {
		for _, workers := range []int{0, 1, 2, 3, 1000} {
			var mu sync.Mutex
			next := make([]int, len(ps))   // the episode each policy expects next
			worker := make([]int, len(ps)) // the worker of each policy
			for j := range worker {
				worker[j] = -1
			}
			Sweep(eps, ps, workers, func(w, i, from int, out []Outcome) {
				mu.Lock()
				defer mu.Unlock()
				if len(out) == 0 || len(out) > SweepChunk {
					t.Errorf("workers %d: %d outcomes", workers, len(out))
				}
				for k, p := range ps[from : from+len(out)] {
					j := from + k
					if worker[j] == -1 {
						worker[j] = w
					}
					if next[j] != i || worker[j] != w {
						t.Fatalf("workers %d: %s: episode %d on worker %d, want episode %d on worker %d", workers, p, i, w, next[j], worker[j])
					}
					next[j]++
					if !reflect.DeepEqual(out[k], Run(eps[i], p)) {
						t.Fatalf("workers %d: episode %d, %s differs:\n%+v\n%+v", workers, i, p, out[k], Run(eps[i], p))
					}
				}
			})
			for j, n := range next {
				if n != len(eps) {
					t.Errorf("workers %d: %s: %d episodes, want %d", workers, ps[j], n, len(eps))
				}
			}
		}
	}
}

// Sweep holds one Sweeper an episode, whatever the workers: they share
// them. Over the bundled episodes, 20 times (1,500 episodes, 8,610 configs:
// 3 policies × 41 max_turns_stuck × 10 intervals × 7 thresholds, 9 chunks),
// the heap in use when worker 0 has replayed its second chunk on every
// episode (the others then are in theirs) is the same with 4 workers as
// with 1 (within a tenth), and within 40 KB an episode (19 measured: a
// Sweeper holds a few tables of the episode's turns for each policy, its
// timer aside, and the bundled episodes average 116 turns). With a Sweeper
// a worker for every episode, 4 workers would hold 79 KB an episode.
func TestSweepersSharedByWorkers(t *testing.T) {
	var eps []*episode.Episode
	paths, _ := filepath.Glob("../testdata/episodes/2025-*/episode_log.jsonl")
	for _, p := range paths {
		eps = append(eps, readFile(t, p)...)
	}
	if len(eps) != 75 {
		t.Fatalf("%d bundled episodes, want 75", len(eps))
	}
	eps = slices.Repeat(eps, 20)
	ps := grid([]policy.Name{policy.Score, policy.ScoreOrObjective, policy.Window}, values(20, 60, 1), values(1, 10, 1), values(5, 35, 5))
	var held [2]int64
	for k, workers := range []int{1, 4} {
		before := liveHeap()
		Sweep(eps, ps, workers, func(w, i, from int, _ []Outcome) {
			if w == 0 && i == len(eps)-1 && from == workers*SweepChunk {
				held[k] = int64(liveHeap()) - int64(before)
			}
		})
		t.Logf("%d workers: %d KB an episode", workers, held[k]/int64(len(eps))>>10)
	}
	if held[1] > held[0]+held[0]/10 || held[1] > 40<<10*int64(len(eps)) {
		t.Errorf("with 4 workers %d MB held, with 1 %d MB", held[1]>>20, held[0]>>20)
	}
}

// liveHeap is the heap in use after a collection.
func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
