package dataset

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/replay"
	"github.com/lbanalyze/lbanalyze/source"
	"github.com/lbanalyze/lbanalyze/source/zorkgpt"
	"github.com/lbanalyze/lbanalyze/system"
)

// committed is the bundled set, made by `make testdata` with seed 1.
const committed = "../../../testdata/episodes"

// files maps every file under dir to its bytes.
func files(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		out[rel], err = os.ReadFile(path)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Regenerating the set gives the committed bytes, file for file.
func TestCommittedSetIsReproducible(t *testing.T) {
	dir := t.TempDir()
	set, err := Write(dir, Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	spells := 0
	for _, s := range set.Episodes {
		for _, sp := range s.Spells {
			spells++
			if n := sp.End - sp.Start + 1; n < 20 || n > 250 {
				t.Errorf("%s: a stuck spell of %d turns (%+v)", s.ID, n, sp)
			}
		}
	}
	if spells < Size/2 {
		t.Errorf("%d stuck spells in %d episodes", spells, Size)
	}
	got, want := files(t, dir), files(t, committed)
	if len(want) < Size {
		t.Fatalf("%s holds %d files: run make testdata", committed, len(want))
	}
	for name, data := range want {
		if g, ok := got[name]; !ok {
			t.Errorf("%s is committed but not generated (stale? run make testdata)", name)
		} else if !bytes.Equal(g, data) {
			t.Errorf("%s differs from what the generator writes: run make testdata and review the diff", name)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("%s is generated but not committed: run make testdata", name)
		}
	}
}

// The bytes do not depend on how many goroutines make them.
func TestWriteIgnoresGOMAXPROCS(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	if _, err := Write(a, Options{Seed: 9, Episodes: 6}); err != nil {
		t.Fatal(err)
	}
	runtime.GOMAXPROCS(4)
	if _, err := Write(b, Options{Seed: 9, Episodes: 6}); err != nil {
		t.Fatal(err)
	}
	fa, fb := files(t, a), files(t, b)
	if len(fa) != len(fb) || len(fa) < 6 {
		t.Fatalf("%d and %d files", len(fa), len(fb))
	}
	for name, data := range fa {
		if !bytes.Equal(data, fb[name]) {
			t.Errorf("%s differs between GOMAXPROCS 1 and 4", name)
		}
	}
}

func TestCompose(t *testing.T) {
	slots := Compose(1, Size)
	byKind := map[string]int{}
	for i, s := range slots {
		byKind[s.Kind.Name]++
		if i > 0 && !s.Start.After(slots[i-1].Start) {
			t.Errorf("%s is not after %s", s.ID, slots[i-1].ID)
		}
		if strings.Contains(s.Dir(), ":") || strings.ReplaceAll(s.ID, ":", "-") != s.Dir() {
			t.Errorf("directory %q of %q", s.Dir(), s.ID)
		}
	}
	for _, k := range Kinds {
		if byKind[k.Name] != k.Quota {
			t.Errorf("%s: %d episodes, quota %d", k.Name, byKind[k.Name], k.Quota)
		}
	}
	for _, n := range []int{1, 10, 76, 300} {
		if got := len(Compose(1, n)); got != n {
			t.Errorf("Compose(%d) lays out %d", n, got)
		}
	}
	if Compose(2, Size)[0].ID == slots[0].ID {
		t.Error("two seeds give the same ids")
	}
}

// An episode depends on the seed and its slot only.
func TestEpisodeIsIndependentOfTheOthers(t *testing.T) {
	slot := Compose(1, Size)[40]
	e, err := Generate(1, slot, false)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(committed, slot.Dir(), LogName))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(e.Log, data) {
		t.Error("the episode made alone differs from the committed one")
	}
}

// The large version of an episode is 10–20 MB and replays exactly like the
// small one.
func TestLargeEpisode(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 10-20 MB episode")
	}
	slot := Compose(1, Size)[3]
	small, err := Generate(1, slot, false)
	if err != nil {
		t.Fatal(err)
	}
	large, err := Generate(1, slot, true)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(large.Log); n < largeMin || n > largeMax {
		t.Errorf("large episode of %d bytes", n)
	}
	a, _ := readOne(small.Log)
	b, err := readOne(large.Log)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a.Turns, b.Turns) || a.End != b.End || b.SkippedLines != 0 {
		t.Error("the large episode does not replay like the small one")
	}
}

// bundled is a committed episode as lbanalyze reads it, with its outcomes at
// 40/10 under the two shipped policies.
type bundled struct {
	dir  string
	ep   *episode.Episode
	s, o replay.Outcome
	log  []byte
}

func readCommitted(t *testing.T) (eps []bundled, tests []string, size int) {
	t.Helper()
	entries, err := os.ReadDir(committed)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range entries {
		if !d.IsDir() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(committed, d.Name(), LogName))
		if err != nil {
			t.Fatal(err)
		}
		size += len(data)
		if strings.HasPrefix(d.Name(), "test_") || strings.HasPrefix(d.Name(), "test-") || d.Name() == "unknown" {
			tests = append(tests, d.Name())
			continue
		}
		lgEps, res := source.ReadAll(zorkgpt.Source{}, bytes.NewReader(data), d.Name(), source.Options{})
		if len(lgEps) != 1 || len(res.Rejected) > 0 {
			t.Fatalf("%s: %d episodes, rejected %v", d.Name(), len(lgEps), res.Rejected)
		}
		ep := lgEps[0]
		eps = append(eps, bundled{dir: d.Name(), ep: ep, log: data,
			s: replay.Run(ep, policy.Policy{Name: policy.Score}),
			o: replay.Run(ep, policy.Policy{Name: policy.ScoreOrObjective})})
	}
	return eps, tests, size
}

// The make-up the issue asks for, checked on the committed logs through the
// reader and replay.Run (not through the generator's own bookkeeping).
func TestCommittedMakeUp(t *testing.T) {
	eps, tests, size := readCommitted(t)
	if len(eps) != Size {
		t.Fatalf("%d episodes, want %d", len(eps), Size)
	}
	if size > 25_000_000 {
		t.Errorf("the set is %d bytes, more than 25 MB", size)
	}
	for _, want := range []string{"test_", "test-", "unknown"} {
		if !slices.ContainsFunc(tests, func(d string) bool { return strings.HasPrefix(d, want) }) {
			t.Errorf("no %s* directory among %v", want, tests)
		}
	}

	var noLoopBreak, v1, v2, maxTurns, gameOver, killed int
	var sTerm, sCand, byGain, byObjective, sStuck, oNoStop, oLater, oStill, censored int
	for _, e := range eps {
		ep := e.ep
		if DirName(ep.ID) != e.dir || !strings.Contains(ep.ID, ":") {
			t.Errorf("%s holds episode %s", e.dir, ep.ID)
		}
		switch {
		case ep.Fact("recorded_loop_break") == "" && !ep.Recorded.Any():
			noLoopBreak++
		case ep.End.Reason != episode.EndStuckTermination:
			t.Errorf("%s: a recorded loop break (%s) that did not cut the episode", e.dir, ep.Fact("recorded_loop_break"))
		case ep.Fact("recorded_loop_break") == "v1":
			v1++
		case ep.Fact("recorded_loop_break") == "v2":
			v2++
		}
		switch ep.End.Reason {
		case episode.EndMaxTurns:
			maxTurns++
			if ep.N() != 500 {
				t.Errorf("%s: max_turns at %d", e.dir, ep.N())
			}
		case episode.EndGameOver:
			gameOver++
			if len(ep.Deaths) != 1 || ep.Deaths[0].Turn != ep.N() || ep.Score(ep.N()) != ep.Score(ep.N()-1)-10 {
				t.Errorf("%s: game over without a death costing 10 points on the last turn: %+v", e.dir, ep.Deaths)
			}
		case episode.EndNone:
			killed++
		}
		// The killed run's truncated last line is the only bad line of the set.
		if want := map[bool]int{true: 1, false: 0}[ep.End.Reason == episode.EndNone]; ep.SkippedLines != want || ep.ProblemCount != want {
			t.Errorf("%s: %d skipped lines, %d problems: %v", e.dir, ep.SkippedLines, ep.ProblemCount, ep.Problems)
		}
		if c := replay.Check(ep, policy.DefaultTimer(), system.ZorkGPT.Recorder); c != nil && (string(c.Policy) != map[string]string{"v1": "score", "v2": "score-or-objective"}[ep.Fact("recorded_loop_break")] || !c.TerminationMatch) {
			t.Errorf("%s: the recording's own loop-break events are not what its policy does: %+v", e.dir, c)
		}

		s, o := e.s, e.o
		if s.Terminated() {
			sTerm++
		}
		if s.FalseTerminationCandidate() {
			sCand++
			switch {
			case !o.Terminated():
				oNoStop++
			case !o.FalseTerminationCandidate() && o.TerminationTurn > s.TerminationTurn:
				oLater++
			default:
				oStill++
			}
		}
		if s.LaterScoreGain() {
			byGain++
		}
		if s.ObjectiveProgress() {
			byObjective++
		}
		if s.TrulyStuck() {
			sStuck++
		}
		// Censored: cut by a recording of v1 (which stops earlier than
		// score-or-objective), or the killed run (docs/semantics.md, "6.2
		// Outcome of one policy on one episode").
		if o.Censored {
			censored++
			if ep.Fact("recorded_loop_break") != "v1" && ep.End.Reason != episode.EndNone {
				t.Errorf("%s: censored under score-or-objective, but recorded by %q and ended %q", e.dir, ep.Fact("recorded_loop_break"), ep.End.Reason)
			}
		}
	}
	t.Logf("no loop break %d, v1 %d, v2 %d; max_turns %d, game over %d, killed %d", noLoopBreak, v1, v2, maxTurns, gameOver, killed)
	t.Logf("score: terminated %d, candidates %d (later gain %d, objectives %d), truly stuck %d", sTerm, sCand, byGain, byObjective, sStuck)
	t.Logf("score-or-objective on those candidates: no stop %d, later without evidence %d, still %d; censored %d", oNoStop, oLater, oStill, censored)
	for _, c := range []struct {
		what   string
		got    int
		wanted bool
	}{
		{"recorded with no loop break ≥ 55", noLoopBreak, noLoopBreak >= 55},
		{"all the others cut by a recorded loop break", v1 + v2, noLoopBreak+v1+v2 == Size},
		{"cut by v1", v1, v1 > 0},
		{"cut by v2", v2, v2 > 0},
		{"ending at max_turns", maxTurns, maxTurns > 0},
		{"ending in a death", gameOver, gameOver > Size/2},
		{"killed", killed, killed == 1},
		{"terminated by score: a good share", sTerm, sTerm >= Size/3},
		{"not terminated by score", Size - sTerm, sTerm < Size},
		{"false-termination candidates under score: several", sCand, sCand >= 5},
		{"… with a later score gain", byGain, byGain > 0},
		{"… with objective progress", byObjective, byObjective > 0},
		{"truly stuck under score", sStuck, sStuck > 0},
		{"candidates score-or-objective does not stop", oNoStop, oNoStop > 0},
		{"candidates score-or-objective stops later, without the evidence", oLater, oLater > 0},
		{"candidates score-or-objective still stops", oStill, oStill > 0},
		{"censored under score-or-objective", censored, censored > 0},
	} {
		if !c.wanted {
			t.Errorf("%s: %d", c.what, c.got)
		}
	}
}

// What makes the logs look like ZorkGPT's, checked on the committed bytes.
func TestCommittedLooksReal(t *testing.T) {
	eps, _, _ := readCommitted(t)
	var long, nan, exceptions, taskName, arrows, loops, objectives, turns int
	for _, e := range eps {
		ep := e.ep
		for line := range bytes.SplitSeq(e.log, []byte("\n")) {
			if len(line) >= 50_000 {
				long++
			}
		}
		nan += bytes.Count(e.log, []byte(`"confidence": NaN`))
		exceptions += ep.ExceptionTurns
		arrows += bytes.Count(e.log, []byte(`\u2192`))
		loops += bytes.Count(e.log, []byte(`"event_type": "state_loop_detected"`))
		if bytes.Contains(e.log, []byte(`"taskName": null`)) {
			taskName++
		}
		objectives += len(ep.Objectives)
		turns += ep.N()

		start, _ := time.Parse("2006-01-02T15:04:05", ep.ID)
		date := func(y, m, d, h int) time.Time { return time.Date(y, time.Month(m), d, h, 0, 0, 0, time.UTC) }
		has := func(s string) bool { return bytes.Contains(e.log, []byte(s)) }
		// Era fingerprints match the date (docs/log-format.md, "2.2 Fingerprints for dating a file").
		switch ep.Fact("recorded_loop_break") {
		case "":
			if !start.Before(date(2025, 11, 5, 13)) || start.Before(date(2025, 10, 17, 0)) {
				t.Errorf("%s: no loop break, dated outside 2025-10-17 … 11-05 13:21", e.dir)
			}
		case "v1":
			if start.Before(date(2025, 11, 5, 13)) || !start.Before(date(2025, 11, 10, 0)) {
				t.Errorf("%s: v1 loop break dated outside 2025-11-05 … 11-09", e.dir)
			}
		case "v2":
			if start.Before(date(2025, 11, 10, 15)) {
				t.Errorf("%s: v2 loop break dated before 2025-11-10", e.dir)
			}
		}
		if has(`"critic_enabled"`) != (ep.Fact("recorded_loop_break") == "v2") {
			t.Errorf("%s: critic_enabled, a v2 fingerprint, in a %q recording", e.dir, ep.Fact("recorded_loop_break"))
		}
		if has(`"event_type": "room_description_captured"`) && start.Before(date(2025, 11, 4, 0)) {
			t.Errorf("%s: room_description_captured before 994088f (2025-11-04)", e.dir)
		}
		interval := 15
		if start.Before(date(2025, 11, 7, 0)) {
			interval = 25
		}
		for _, line := range bytes.Split(e.log, []byte("\n")) {
			if !bytes.Contains(line, []byte(`"event_type": "objectives_updated"`)) {
				continue
			}
			var u struct {
				Turn       int
				Objectives []string
			}
			if err := json.Unmarshal(line, &u); err != nil || u.Turn%interval != 0 || len(u.Objectives) == 0 {
				t.Errorf("%s: objectives_updated at %d with %d objectives (interval %d, %v)", e.dir, u.Turn, len(u.Objectives), interval, err)
			}
		}
		for _, c := range ep.Objectives {
			if c.Turn <= interval {
				t.Errorf("%s: objective completed at %d, before the first update", e.dir, c.Turn)
			}
		}
	}
	perHundred := 100 * float64(objectives) / float64(turns)
	t.Logf("long lines %d, NaN %d, exceptions %d, taskName %d, arrows %d, state loops %d, objectives %.1f per 100 turns",
		long, nan, exceptions, taskName, arrows, loops, perHundred)
	if long == 0 || nan == 0 || exceptions == 0 || taskName == 0 || taskName == len(eps) || arrows == 0 || loops == 0 {
		t.Error("want some of each: long lines, NaN confidences, turn exceptions, taskName, escaped arrows, state loops")
	}
	if perHundred < 1.5 || perHundred > 8 {
		t.Errorf("%.1f objective completions per 100 turns", perHundred)
	}
}
