package dataset

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/synth"
	"github.com/lbanalyze/lbanalyze/replay"
)

// LogName is the file of an episode in its directory, as ZorkGPT names it.
const LogName = "episode_log.jsonl"

// Summary is what the README says of one episode, computed from its log as
// written (read back with replay.Read) and from the plan's stuck spells.
type Summary struct {
	Slot
	Ep          *episode.Episode
	S, O        replay.Outcome // score and score-or-objective at 40/10
	Spells      []synth.Spell
	Bytes       int
	LongLines   int // lines of 50 KB or more
	LongestLine int
	NaNTurns    int // turns whose critic scores are NaN
	Draws       int
}

// Set is what Write made.
type Set struct {
	Options
	Episodes []Summary
	Tests    []string // the test_* (and unknown) directories
	Bytes    int64    // all files written, the README included
}

// Write makes the set in dir: one directory per episode, the test
// directories that ZorkGPT's game_files holds beside them, and README.md.
func Write(dir string, opt Options) (*Set, error) {
	set := &Set{Options: opt}
	slots := Compose(opt.Seed, opt.episodes())
	set.Episodes = make([]Summary, len(slots))
	err := parallel(len(slots), func(i int) error {
		e, err := Generate(opt.Seed, slots[i], opt.Large)
		if err != nil {
			return err
		}
		set.Episodes[i], err = summarize(e)
		if err != nil {
			return err
		}
		return writeFile(filepath.Join(dir, e.Dir(), LogName), e.Log)
	})
	if err != nil {
		return nil, err
	}
	for _, t := range testLogs(opt.Seed) {
		if err := writeFile(filepath.Join(dir, t.dir, LogName), t.log); err != nil {
			return nil, err
		}
		set.Tests = append(set.Tests, t.dir)
		set.Bytes += int64(len(t.log))
	}
	for _, s := range set.Episodes {
		set.Bytes += int64(s.Bytes)
	}
	readme := set.Readme()
	set.Bytes += int64(len(readme))
	return set, writeFile(filepath.Join(dir, "README.md"), []byte(readme))
}

// Stream writes the episodes of the set one after another to w, as one
// monolithic log (ZorkGPT's zork_episode_log.jsonl before per-episode files).
func Stream(w io.Writer, opt Options) error {
	for _, s := range Compose(opt.Seed, opt.episodes()) {
		e, err := Generate(opt.Seed, s, opt.Large)
		if err != nil {
			return err
		}
		if _, err := w.Write(e.Log); err != nil {
			return err
		}
	}
	return nil
}

// parallel runs f(0) … f(n-1) on GOMAXPROCS goroutines and returns the first
// error. Each episode has its own random stream, so the order of work does not
// change a byte.
func parallel(n int, f func(i int) error) error {
	next := make(chan int)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for range min(n, runtime.GOMAXPROCS(0)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				errs[i] = f(i)
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	return errors.Join(errs...)
}

func writeFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

func summarize(e *Episode) (Summary, error) {
	ep, err := readOne(e.Log)
	if err != nil {
		return Summary{}, fmt.Errorf("%s: %v", e.ID, err)
	}
	s := Summary{Slot: e.Slot, Ep: ep, S: replay.Run(ep, scorePolicy), O: replay.Run(ep, soPolicy),
		Spells: e.Plan.Spells, Bytes: len(e.Log), Draws: e.Draws}
	for line := range bytes.SplitSeq(e.Log, []byte("\n")) {
		if len(line) >= 50_000 {
			s.LongLines++
		}
		s.LongestLine = max(s.LongestLine, len(line))
	}
	for _, t := range e.Plan.Turns {
		if t.CriticScore != t.CriticScore { // NaN
			s.NaNTurns++
		}
	}
	return s, nil
}

// testLog is a directory that ZorkGPT's game_files/episodes holds beside the
// real episodes and that tools must skip (docs/log-format.md, "1.3 Files, directories and episode ids" and "7. Checklist for a robust parser", item 13).
type testLog struct {
	dir string
	log []byte
}

// testLogs are small logs in the test_*, test-* and unknown directories:
// runs of ZorkGPT's own tests, and the lines its migration script could not
// give an episode.
func testLogs(seed uint64) []testLog {
	day := func(d, h, m, s int) time.Time { return time.Date(2025, 11, d, h, m, s, 0, time.UTC) }
	tests := []struct {
		id       string
		start    time.Time
		maxTurns int
		script   synth.Script
		v1       bool
	}{
		{"test-episode", day(1, 16, 2, 11), 5, synth.Script{Phases: []synth.Phase{{}}}, false},
		{"test_episode_1762090936", day(2, 13, 42, 16), 30, synth.Script{Phases: []synth.Phase{{Turns: 12}}, End: synth.Die}, false},
		{"test_integration", day(3, 9, 15, 40), 12, synth.Script{Phases: []synth.Phase{{}}}, false},
		{"test_warnings", day(6, 11, 4, 52), 60, synth.Script{Phases: []synth.Phase{{Turns: 3}, {Stuck: true, Camp: true}}}, true},
	}
	var out []testLog
	for i, t := range tests {
		r := stream(seed, 1<<40+uint64(i))
		cfg := synth.Config{ID: t.id, Start: t.start.Add(300 * time.Millisecond), Code: t.start, MaxTurns: t.maxTurns, Script: t.script}
		if t.v1 {
			cfg.LoopBreak = &scorePolicy
		}
		var buf bytes.Buffer
		if _, err := synth.Write(&buf, synth.Play(r, cfg)); err != nil {
			panic(err) // a bytes.Buffer does not fail
		}
		out = append(out, testLog{t.id, buf.Bytes()})
	}
	return append(out, testLog{"unknown", unknownLog(stream(seed, 1<<40+99))})
}

// unknownLog is what migrate_episode_logs.py (f6a0487 … 9f8f5b3) put in
// episodes/unknown: the lines of the monolithic log without an episode_id,
// here of two E3a runs of June 2025 (docs/log-format.md, "1.3 Files, directories and episode ids" and "8. The sample").
func unknownLog(r *rand.Rand) []byte {
	var buf bytes.Buffer
	runs := []time.Time{time.Date(2025, 6, 9, 11, 42, 51, 508316_000, time.UTC), time.Date(2025, 6, 10, 9, 6, 27, 630244_000, time.UTC)}
	l := synth.NewLog(&buf, runs[0])
	for _, start := range runs {
		l.Clock = start
		id := start.Format("2006-01-02T15:04:05")
		l.Plain("INFO", fmt.Sprintf("Enhanced prompt with knowledge base (%s characters)", commaInt(6964+r.IntN(900))))
		l.Tick(142_716 * time.Microsecond)
		l.Event("INFO", "orchestrator_init", "ZorkOrchestrator v2 initialized", synth.KV{Key: "agent_model", Value: nil},
			synth.KV{Key: "critic_model", Value: nil}, synth.KV{Key: "info_ext_model", Value: nil}, synth.KV{Key: "max_turns", Value: 5000})
		l.Tick(497 * time.Microsecond)
		l.Progress("episode_synthesizer", "episode_initialization", 0, "Initializing new episode: "+id, "Starting episode "+id)
		for t := 25; t <= 75; t += 25 {
			l.Tick(time.Duration(900+r.IntN(400)) * time.Second)
			l.Progress("objective_manager", "objective_update", t, fmt.Sprintf("Triggering objective update at turn %d", t), fmt.Sprintf("Starting objective update at turn %d", t))
		}
	}
	if err := l.Flush(); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// commaInt writes n with thousands separators, as Python's "{:,}".
func commaInt(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
