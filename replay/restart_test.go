package replay

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/realdata"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/source"
	"github.com/lbanalyze/lbanalyze/source/tales"
)

// restartEpisode is a benchmark run of 60 steps with a game over and a
// restart, as TALES writes one (docs/sources.md, "TALES"): the score climbs
// to 15 by step 13, a death at 18 costs 10, the game begins again at 19 from
// 0, climbs back to 15 at 32 (not above its best), and reaches a new best, 20,
// at 51. Each step spends 100 + t tokens.
func restartEpisode(scoring episode.Scoring) *episode.Episode {
	ep := &episode.Episode{ID: "restart", Format: tales.Format, Scoring: scoring,
		Signals: episode.Signals(0).With(episode.Tokens, episode.Restarts)}
	// The score from each turn on: a death's penalty at 18, the new game at 19.
	changes := map[int]int{3: 5, 9: 10, 13: 15, 18: 5, 19: 0, 23: 5, 28: 10, 32: 15, 51: 20}
	score := 0
	for t := 1; t <= 60; t++ {
		if v, ok := changes[t]; ok {
			score = v
		}
		ep.Turns = append(ep.Turns, episode.Turn{Score: episode.Score(score), Tokens: int64(100 + t), Restart: t == 19})
	}
	return ep
}

// Hand-worked, at max_turns_stuck 10 and check interval 5 (warnings from 5):
//
//	score counts every change, the death's drop and the restart's included:
//	changes at 3, 9, 13, 18, 19, 23, 28, 32, 51. At the check turns the timer
//	is 2 (5), 1 (10), 2 (15), 1 (20), 2 (25), 2 (30), 3 (35), 8 (40), 13 (45):
//	it stops at 45, with 13 stuck.
//
//	increase counts only a new best: 3, 9, 13, then nothing until 51 (the
//	drops, and climbing back to 15, are not above 15). Timer 2 (15), 7 (20),
//	12 (25): it stops at 25, with 12 stuck.
//
// Both warn first at 8 (timer 5 at its start: 8 − 3). Scored by its best, the
// run is credited with 15 at either stop and with 20 at its end: 5 forgone,
// first gained at 51. Scored by its last score it would be credited with 5 at
// 25 (the new game's), and the climb back to 10 at 28 would count as a gain:
// 15 forgone. Tokens saved: Σ(100 + u) for u after the stop: 35·100 + Σ26..60
// = 3500 + 1505 = 5005 at 25; 15·100 + Σ46..60 = 1500 + 795 = 2295 at 45.
func TestRestart(t *testing.T) {
	params := policy.Timer{MaxTurnsStuck: 10, CheckInterval: 5, WarningThreshold: 5}
	score := policy.Policy{Name: policy.Score}.WithTimer(params)
	increase := policy.Policy{Name: policy.Increase}.WithTimer(params)
	tokens := episode.Signals(episode.Tokens)
	for _, c := range []struct {
		name    string
		scoring episode.Scoring
		p       policy.Policy
		want    Outcome
	}{
		{"score, best", episode.ScoredBest, score, Outcome{Policy: score, TerminationTurn: 45, TurnsStuck: 13, ScoreAtTermination: 15, TurnsSaved: 15,
			Length: 45, ScoreForgone: 5, LaterGain: &Gain{Turn: 51, Points: 5}, WarningStartTurn: 8, Logged: tokens, TokensSaved: 2295}},
		{"increase, best", episode.ScoredBest, increase, Outcome{Policy: increase, TerminationTurn: 25, TurnsStuck: 12, ScoreAtTermination: 15, TurnsSaved: 35,
			Length: 25, ScoreForgone: 5, LaterGain: &Gain{Turn: 51, Points: 5}, WarningStartTurn: 8, Logged: tokens, TokensSaved: 5005}},
		{"increase, last", episode.ScoredLast, increase, Outcome{Policy: increase, TerminationTurn: 25, TurnsStuck: 12, ScoreAtTermination: 5, TurnsSaved: 35,
			Length: 25, ScoreForgone: 15, LaterGain: &Gain{Turn: 28, Points: 5}, WarningStartTurn: 8, Logged: tokens, TokensSaved: 5005}},
	} {
		ep := restartEpisode(c.scoring)
		check(t, c.name, Run(ep, c.p), c.want)
		// The fast path agrees, whatever the scoring.
		sweepMatchesRun(t, c.name, ep, append(defaultGrid(), c.p))
	}
}

// Credited is the best score so far, or 0, for a run scored by its best.
func TestCredited(t *testing.T) {
	ep := restartEpisode(episode.ScoredBest)
	for _, c := range []struct{ t, want int }{{0, 0}, {2, 0}, {13, 15}, {19, 15}, {50, 15}, {51, 20}, {60, 20}, {99, 20}} {
		if got := ep.Credited(c.t); got != episode.Score(c.want) {
			t.Errorf("best, after %d: %v, want %d", c.t, got, c.want)
		}
	}
	ep.Turns[0].Score = -10 // a score below 0 before any other: TALES's highscore starts at 0
	if got := ep.Credited(1); got != 0 {
		t.Errorf("best after a negative first score: %v, want 0", got)
	}
	ep.Scoring = episode.ScoredLast
	if got := ep.Credited(19); got != 0 || ep.Credited(18) != 5 {
		t.Errorf("last: %v at 19, %v at 18; want 0, 5", got, ep.Credited(18))
	}
}

// The fast path equals the plain replay on every config of the default
// grid (every policy, the variants by Run) over the real TALES rollouts.
func TestSweepMatchesRunOnTALES(t *testing.T) {
	dir := realdata.Dir(t, "tales/logs")
	paths, err := filepath.Glob(filepath.Join(dir, "*", "*", "*.jsonl"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no rollouts under %s: %v", dir, err)
	}
	ps := append(defaultGrid(), grid([]policy.Name{policy.Score, policy.Increase, policy.None}, []int{1, 3, 7, 41, 1000}, []int{3, 7, 250}, []int{0, 20})...)
	for _, path := range paths {
		data := realdata.Read(t, path)
		eps, _ := source.ReadAll(tales.Source, bytes.NewReader(data), path, source.Options{})
		if len(eps) != 1 || eps[0].Scoring != episode.ScoredBest {
			t.Fatalf("%s: %d episodes", path, len(eps))
		}
		sweepMatchesRun(t, filepath.Base(filepath.Dir(path)), eps[0], ps)
	}
}

// What increase 40/10 does to each real rollout, worked out with python3 over
// the files, independently of this replay: tracked = score after step 1; a
// step above it is progress; stop at the first t % 10 == 0 with t − last ≥ 40;
// tokens saved = sum of Token Usage after the stop; forgone = best over the
// run − best up to the stop (each at least 0).
func TestIncreaseOnTALES(t *testing.T) {
	dir := realdata.Dir(t, "tales/logs")
	increase := policy.Policy{Name: policy.Increase}
	for _, c := range []struct {
		run, game                   string
		stop, stuck, saved, forgone int
		tokens                      int64
	}{
		{"tw-bench_LLMAgent_gpt-4o-mini_s20241001_c1000_t0.0_convFalseWalkthrough Agent", "JerichoEnvDetective", 70, 42, 30, 0, 146202},
		{"tw-bench_LLMAgent_gpt-4o-mini_s20241001_c1000_t0.0_convFalseWalkthrough Agent", "JerichoEnvZork1", 70, 45, 30, 0, 169277},
		{"tw-bench_LLMAgent_gpt-4o-mini_s20241001_c10_t0.0_convFalse", "JerichoEnvDetective", 110, 49, 90, 0, 10849},
		{"tw-bench_LLMAgent_gpt-4o_s20241001_c10_t0.0_convFalse", "JerichoEnvDetective", 80, 48, 120, 0, 13304},
		{"tw-bench_LLMAgent_gpt-4o_s20241001_c5_t0.0_convFalse", "JerichoEnvDetective", 60, 49, 140, 0, 86292},
	} {
		path := filepath.Join(dir, c.run, c.game, "a0_s20241001.jsonl")
		eps, _ := source.ReadAll(tales.Source, bytes.NewReader(realdata.Read(t, path)), path, source.Options{})
		o := Run(eps[0], increase)
		if o.TerminationTurn != c.stop || o.TurnsStuck != c.stuck || o.TurnsSaved != c.saved || o.ScoreForgone != episode.Score(c.forgone) || o.TokensSaved != c.tokens {
			t.Errorf("%s / %s: stop %d, stuck %d, saved %d, forgone %v, tokens %d; want %d, %d, %d, %d, %d", c.run, c.game,
				o.TerminationTurn, o.TurnsStuck, o.TurnsSaved, o.ScoreForgone, o.TokensSaved, c.stop, c.stuck, c.saved, c.forgone, c.tokens)
		}
	}
}
