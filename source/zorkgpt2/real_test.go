package zorkgpt2

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/realdata"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/replay"
	"github.com/lbanalyze/lbanalyze/source"
)

// ep96 reads the real episode ep96 in its three forms: snapshot, Burr
// directory, run log, from the real runs beside the repository (their
// README says what each is). It skips, saying so, when they are absent.
func ep96(t *testing.T) (snap, burr, runLog *episode.Episode) {
	t.Helper()
	realDir := realdata.Dir(t, "zorkgpt2")
	apps, err := filepath.Glob(filepath.Join(realDir, "ep96/burr/default/*"))
	if err != nil || len(apps) != 1 {
		t.Fatalf("ep96's Burr application directory: %v, %v", apps, err)
	}
	one := func(what string, eps []*episode.Episode, res *source.Result) *episode.Episode {
		t.Helper()
		if len(eps) != 1 || len(res.Rejected) > 0 || len(res.Problems) > 0 {
			t.Fatalf("%s: %d episodes, rejected %v, problems %v", what, len(eps), res.Rejected, res.Problems)
		}
		if eps[0].ProblemCount > 0 {
			t.Fatalf("%s: problems %v", what, eps[0].ProblemMessages())
		}
		return eps[0]
	}
	eps, res := readFile(t, Snapshot{}, filepath.Join(realDir, "ep96_t111_evaluate_action.json"))
	snap = one("snapshot", eps, res)
	eps, res = readFile(t, RunLog{}, filepath.Join(realDir, "ep96/run_log_ep96.txt"))
	runLog = one("run log", eps, res)
	eps = nil
	res = BurrDir{}.ReadDir(apps[0], source.Options{}, func(ep *episode.Episode) { eps = append(eps, ep) })
	burr = one("Burr directory", eps, res)
	return snap, burr, runLog
}

func readFile(t *testing.T, src source.Source, path string) ([]*episode.Episode, *source.Result) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	return source.ReadAll(src, f, path, source.Options{})
}

// TestRealEpisodeInThreeForms: the snapshot, the Burr directory and the run
// log of ep96 give the same turns, field by field where each form records
// it, and the facts the issue states: 110 turns, 0 → 54, +4 at turn 92 after
// the score stood at 50 from turn 20.
func TestRealEpisodeInThreeForms(t *testing.T) {
	snap, burr, runLog := ep96(t)
	forms := []*episode.Episode{snap, burr, runLog}
	for _, ep := range forms {
		if ep.ID != "ep96" || ep.N() != 110 || ep.FinalScore() != 54 || ep.Score(20) != 50 || ep.Score(91) != 50 || ep.Score(92) != 54 {
			t.Errorf("%s: %s, %d turns, score %v→%v, at 20/91/92: %v/%v/%v", ep.Format, ep.ID, ep.N(), ep.Score(1), ep.FinalScore(),
				ep.Score(20), ep.Score(91), ep.Score(92))
		}
		if ep.MissingTurns != 0 || len(ep.Objectives) != 0 {
			t.Errorf("%s: %d missing turns, %d objectives", ep.Format, ep.MissingTurns, len(ep.Objectives))
		}
	}
	// Turn 10 as each form has it: the forced "move rug" in the Living Room
	// (Jericho's name cut short), critic −0.8 after 3 rejections, 3
	// proposals (the third forced through): 2×3 + 1 calls.
	for _, ep := range forms {
		tu := ep.Turns[9]
		if tu.Action != "move rug" || tu.Location != "Living " || tu.Critic != float32(-0.8) || tu.Rejections != 3 || tu.Calls != 7 {
			t.Errorf("%s: turn 10 %+v", ep.Format, tu)
		}
	}
	for i := range snap.Turns {
		s, b, r := snap.Turns[i], burr.Turns[i], runLog.Turns[i]
		if s.Score != b.Score || s.Score != r.Score || s.Location != b.Location || s.Location != r.Location ||
			s.Action != b.Action || s.Action != r.Action || s.Critic != b.Critic || s.Critic != r.Critic ||
			s.Rejections != b.Rejections || s.Rejections != r.Rejections || s.Calls != b.Calls || s.Calls != r.Calls ||
			s.RoomID != b.RoomID || s.ResponseHash != b.ResponseHash {
			t.Errorf("turn %d differs:\n snapshot %+v\n Burr     %+v\n run log  %+v", i+1, s, b, r)
		}
	}
	// 147 proposals in 110 turns, counted in the Burr log (generate_action)
	// and reckoned from critic and rejections in the others: 2×147 + 110.
	for _, ep := range forms {
		calls := 0
		for _, tu := range ep.Turns {
			calls += int(tu.Calls)
		}
		if calls != 404 || !ep.Signals.Has(episode.Calls, episode.Critic, episode.Rejections, episode.Rooms) {
			t.Errorf("%s: %d LLM calls, signals %b; want 404", ep.Format, calls, ep.Signals)
		}
	}
	if burr.InitialRoomID != 180 || snap.InitialRoomID != 180 || burr.InitialRoom != "West House" {
		t.Errorf("starting room: Burr %d %q, snapshot %d", burr.InitialRoomID, burr.InitialRoom, snap.InitialRoomID)
	}
	// The Burr log records turns_since_progress: 0 after the five score
	// changes (turns 5, 12, 16, 20, 92), which zorkburr's replay reproduces.
	want := []int{5, 12, 16, 20, 92}
	if got := burr.Recorded.Turns(episode.ScoreChangeReset); !reflect.DeepEqual(got, want) || !burr.Recorded.CounterOnly {
		t.Errorf("recorded resets %v (counter only %v), want %v", got, burr.Recorded.CounterOnly, want)
	}
	sc := replay.Check(burr, policy.DefaultTimer(), zorkGPT2)
	if sc == nil || sc.Policy != policy.Zorkburr || sc.ReplayedTurn != 60 || !sc.CounterOnly {
		t.Errorf("self-check %+v: zorkburr should reproduce the counter, and stop at 60 at 40/10", sc)
	}
	if burr.End.Reason != episode.EndMaxTurns || runLog.End.Reason != episode.EndMaxTurns || snap.End.Reason != episode.EndNone {
		t.Errorf("ends: Burr %v, run log %v, snapshot %v", burr.End, runLog.End, snap.End)
	}
}

// realGrid is every policy under a grid of its settings: W and I for the
// timer policies, room and objective patience for patience, and every
// trigger of the supervisor on and off at a few thresholds.
func realGrid() []policy.Policy {
	var ps []policy.Policy
	timer := func(p policy.Policy) {
		for _, w := range []int{1, 5, 10, 20, 30, 39, 40, 41, 50, 60, 71, 72, 73, 100, 200} {
			for _, i := range []int{1, 3, 5, 10, 25} {
				ps = append(ps, p.With(policy.MaxTurnsStuck, w).With(policy.CheckInterval, i))
			}
		}
	}
	for _, n := range []policy.Name{policy.Score, policy.ScoreOrObjective, policy.Window, policy.Increase, policy.Zorkburr} {
		timer(policy.Policy{Name: n})
	}
	for _, room := range []int{0, 5, 10, 30} {
		for _, obj := range []int{0, policy.ObjectivesOff} {
			timer(policy.Policy{Name: policy.Patience}.With(policy.RoomPatience, room).With(policy.ObjectivePatience, obj))
		}
	}
	for _, c := range []int{5, 10, 25, 50} {
		for _, flat := range []int{0, 1, 2, 3} {
			for _, critic := range []int{0, 50, 60, 65} {
				for _, rejected := range []int{0, 3, 7} {
					for _, spiral := range []int{0, 2, 3} {
						for _, streak := range []int{0, 4, 5, 10} {
							ps = append(ps, policy.Policy{Name: policy.Supervisor}.With(policy.Checkpoint, c).With(policy.FlatCheckpoints, flat).
								With(policy.MinCritic, critic).With(policy.MaxRejectedTurns, rejected).With(policy.SpiralRejections, spiral).With(policy.RoomStreak, streak))
						}
					}
				}
			}
		}
	}
	return ps
}

// TestRealEpisodeSameStops: every policy and setting of the grid stops the
// real episode at the same turn, for the same reason, with the same
// outcome, whichever form it is read from.
func TestRealEpisodeSameStops(t *testing.T) {
	snap, burr, runLog := ep96(t)
	ps := realGrid()
	stops := 0
	for _, p := range ps {
		want := replay.Run(snap, p)
		for _, ep := range []*episode.Episode{burr, runLog} {
			got := replay.Run(ep, p)
			// A snapshot alone cannot tell that the run ended after it: its
			// log is cut (docs/semantics.md, "6.2 Outcome of one policy on
			// one episode"), the Burr and run logs record the end.
			if !want.Cut || got.Cut || want.Censored != !want.Terminated() {
				t.Fatalf("%s: the snapshot cut %v (censored %v), %s cut %v", p, want.Cut, want.Censored, ep.Format, got.Cut)
			}
			got.Cut, got.Censored = want.Cut, want.Censored
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: %s gives %+v; the snapshot %+v", p, ep.Format, got, want)
			}
		}
		if want.Terminated() {
			stops++
		}
	}
	if stops < len(ps)/4 || stops == len(ps) {
		t.Errorf("%d of %d configs stop: the grid should hold stops and non-stops alike", stops, len(ps))
	}
}
