package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"
	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"
	"golang.org/x/term"

	"github.com/lbanalyze/lbanalyze/jsonl"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/replay"
	"github.com/lbanalyze/lbanalyze/report"
)

type batchFlags struct {
	baseline, after string
	maxTurns        int
	interval        int
	warning         int
	config          string
	callsPerTurn    int
	format          string
	jobs            int
	plots, html     string
}

func newBatchCmd(e *env) *cobra.Command {
	var f batchFlags
	cmd := &cobra.Command{
		Use:   "batch DIR|FILE...",
		Short: "Compare a baseline and an after policy over a dataset of episodes",
		Long: `Find every episode log under the given directories (episode_log.jsonl, *.jsonl,
*.jsonl.gz, *.jsonl.zst; test_*, test-*, unknown and *_error directories are passed over),
replay a baseline and an after policy over each episode, and report per episode, the
specification's success metrics with paired-bootstrap intervals, and the episodes to
review first.

A policy is NAME or NAME:MAX_TURNS_STUCK[/CHECK_INTERVAL[/WARNING_THRESHOLD]], e.g.
score-or-objective:60/10. Settings a policy does not give come from --max-turns-stuck,
--check-interval and --warning-threshold, or for the after side from --config.`,
		Example: `  lbanalyze batch testdata/episodes
  lbanalyze batch --after score-or-objective:60 --format markdown game_files/episodes
  lbanalyze batch --config pyproject.toml --format json game_files/episodes
  lbanalyze batch --plots plots --html report.html testdata/episodes`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageError("batch needs at least one directory or log file")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			baseline, after, recording, err := f.resolve(cmd, e)
			if err != nil {
				return err
			}
			files, passed, skipped := discover(args)
			for _, s := range skipped {
				fmt.Fprintf(e.stderr, "lbanalyze: %s: %s\n", s.Source, s.Reason)
			}
			eps, more := e.analyse(files, []policy.Policy{baseline, after}, recording, f.callsPerTurn, f.jobs)
			skipped = append(skipped, more...)
			if len(eps) == 0 {
				return failure("no episode could be analysed")
			}
			d := report.NewDataset(baseline, after, f.callsPerTurn, eps, skipped, passed)
			if err := report.WriteDataset(e.stdout, f.format, d); err != nil {
				return failure("%v", err)
			}
			if f.plots != "" {
				if err := e.writePlots(f.plots, d, f.jobs); err != nil {
					return err
				}
			}
			if f.html != "" {
				return e.writeHTML(f.html, d)
			}
			return nil
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&f.baseline, "baseline", string(policy.Score), "the baseline policy, NAME[:MAX_TURNS_STUCK[/CHECK_INTERVAL[/WARNING_THRESHOLD]]]")
	fs.StringVar(&f.after, "after", string(policy.ScoreOrObjective), "the after policy, in the same form")
	fs.IntVar(&f.maxTurns, "max-turns-stuck", policy.DefaultMaxTurnsStuck, "max_turns_stuck where a policy does not give it")
	fs.IntVar(&f.interval, "check-interval", policy.DefaultCheckInterval, "stuck_check_interval where a policy does not give it")
	fs.IntVar(&f.warning, "warning-threshold", policy.DefaultWarningThreshold, "stuck_warning_threshold where a policy does not give it")
	fs.StringVar(&f.config, "config", "", "a pyproject.toml whose [tool.zorkgpt.loop_break] sets the after policy (flags override it)")
	fs.IntVar(&f.callsPerTurn, "calls-per-turn", 4, "LLM calls one turn costs (agent, critic, extractor, synthesis)")
	fs.StringVar(&f.format, "format", "table", "output format: "+strings.Join(report.Formats, ", "))
	fs.IntVar(&f.jobs, "jobs", runtime.GOMAXPROCS(0), "how many files to read (and charts to draw) at once")
	fs.StringVar(&f.plots, "plots", "", "write into this directory a score timeline of every episode (timeline-ID.png) and the dataset charts")
	fs.StringVar(&f.html, "html", "", "write a self-contained HTML report (tables, review list, charts, timelines) to this file")
	return cmd
}

// resolve gives the baseline and after policies and the settings recordings
// are assumed to have run with (for the self-check).
func (f *batchFlags) resolve(cmd *cobra.Command, e *env) (baseline, after policy.Policy, recording policy.Params, err error) {
	if err = checkOutput(f.format, f.callsPerTurn); err != nil {
		return
	}
	if f.jobs < 1 {
		err = usageError("--jobs must be at least 1")
		return
	}
	changed := cmd.Flags().Changed
	defaults := policy.Params{MaxTurnsStuck: f.maxTurns, CheckInterval: f.interval, WarningThreshold: f.warning}
	afterDefaults, afterSpec := defaults, f.after
	recording = policy.DefaultParams()
	if f.config != "" {
		cfg, cerr := loadConfig(f.config, e)
		if cerr != nil {
			err = cerr
			return
		}
		recording = cfg.Params
		afterDefaults = cfg.Params
		if changed("max-turns-stuck") {
			afterDefaults.MaxTurnsStuck = f.maxTurns
		}
		if changed("check-interval") {
			afterDefaults.CheckInterval = f.interval
		}
		if changed("warning-threshold") {
			afterDefaults.WarningThreshold = f.warning
		}
		if !changed("after") {
			afterSpec = string(cfg.Policy().Name)
		}
	}
	if baseline, err = policy.Parse(f.baseline, defaults); err != nil {
		err = usageError("--baseline: %v", err)
		return
	}
	if after, err = policy.Parse(afterSpec, afterDefaults); err != nil {
		err = usageError("--after: %v", err)
		return
	}
	warnRefusals(baseline.Params, e)
	if after.Params != baseline.Params {
		warnRefusals(after.Params, e)
	}
	return
}

// passedOver says whether a directory is not production data: ZorkGPT's test
// runs, the migration's unknown bucket, failed initialisations (log-format.md
// §7 item 13).
func passedOver(name string) bool {
	return strings.HasPrefix(name, "test_") || strings.HasPrefix(name, "test-") || name == "unknown" || strings.HasSuffix(name, "_error")
}

func isLog(name string) bool {
	return name == "episode_log.jsonl" || strings.HasSuffix(name, ".jsonl") ||
		strings.HasSuffix(name, ".jsonl.gz") || strings.HasSuffix(name, ".jsonl.zst")
}

// discover finds the logs under the arguments, in lexical order. A file named
// on the command line is read whatever its name; a file reached twice (the
// same directory given twice, say) is read once.
func discover(args []string) (files, passed []string, skipped []report.Skip) {
	seen := map[string]bool{}
	add := func(path string) bool {
		key := filepath.Clean(path)
		if abs, err := filepath.Abs(path); err == nil {
			key = abs
		}
		if seen[key] {
			return false
		}
		seen[key] = true
		files = append(files, path)
		return true
	}
	for _, arg := range args {
		if arg == jsonl.StdinName {
			files = append(files, arg)
			continue
		}
		info, err := os.Stat(arg)
		if err != nil {
			skipped = append(skipped, report.Skip{Source: arg, Reason: err.Error()})
			continue
		}
		if !info.IsDir() {
			add(arg)
			continue
		}
		// WalkDir does not follow a root that is a symbolic link (game_files ->
		// /data/…, say); with a trailing separator the root is the directory.
		root := arg
		if l, err := os.Lstat(arg); err == nil && l.Mode()&fs.ModeSymlink != 0 {
			root = arg + string(filepath.Separator)
		}
		found := 0
		err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			switch {
			case err != nil:
				skipped = append(skipped, report.Skip{Source: path, Reason: err.Error()})
				return nil
			case d.IsDir() && path != root && passedOver(d.Name()):
				passed = append(passed, path)
				return filepath.SkipDir
			case !d.IsDir() && isLog(d.Name()):
				add(path)
				found++
			}
			return nil
		})
		if err == nil && found == 0 {
			skipped = append(skipped, report.Skip{Source: arg, Reason: "no episode logs found"})
		}
	}
	return files, passed, skipped
}

// analyse reads the files concurrently (at most jobs at once) and replays the
// policies over every episode. The result does not depend on the order the
// reads finish in.
func (e *env) analyse(files []string, policies []policy.Policy, recording policy.Params, callsPerTurn, jobs int) ([]report.Episode, []report.Skip) {
	results := make([]fileResult, len(files))
	bar, wait := e.progress(len(files))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(jobs, len(files)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i] = e.analyseFile(files[i], policies, recording, callsPerTurn)
				bar()
			}
		}()
	}
	for i := range files {
		next <- i
	}
	close(next)
	wg.Wait()
	wait()
	var eps []report.Episode
	var skipped []report.Skip
	for _, r := range results { // in discovery order, whatever order the reads ended in
		for _, s := range r.skipped {
			fmt.Fprintf(e.stderr, "lbanalyze: %s: %s\n", s.Source, s.Reason)
		}
		for _, m := range r.problems {
			fmt.Fprintf(e.stderr, "lbanalyze: %s\n", m)
		}
		eps = append(eps, r.eps...)
		skipped = append(skipped, r.skipped...)
	}
	return eps, skipped
}

// fileResult is what one file gives: its episodes, what was left out, and
// the messages about its lines.
type fileResult struct {
	eps      []report.Episode
	skipped  []report.Skip
	problems []string
}

func (e *env) analyseFile(path string, policies []policy.Policy, recording policy.Params, callsPerTurn int) (r fileResult) {
	lg, err := replay.ReadFile(path, e.stdin, replay.Options{})
	if err != nil {
		r.skipped = append(r.skipped, report.Skip{Source: jsonl.DisplayName(path), Reason: openReason(err)})
		return r
	}
	r.skipped = rejections(path, lg)
	r.problems = problems(lg)
	for _, ep := range lg.Episodes {
		r.eps = append(r.eps, report.Analyse(ep, policies, recording, callsPerTurn))
	}
	return r
}

// progress shows a bar on stderr when it is a terminal and the run lasts more
// than a moment; it returns the step function and a wait for the bar's end.
func (e *env) progress(total int) (step func(), wait func()) {
	f, ok := e.stderr.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) || total < 2 {
		return func() {}, func() {}
	}
	start := make(chan struct{})
	timer := time.AfterFunc(300*time.Millisecond, func() { close(start) })
	p := mpb.New(mpb.WithOutput(f), mpb.WithRenderDelay(start), mpb.WithWidth(40))
	bar := p.AddBar(int64(total), mpb.BarRemoveOnComplete(),
		mpb.PrependDecorators(decor.Name("reading logs "), decor.CountersNoUnit("%d/%d")),
		mpb.AppendDecorators(decor.Percentage(decor.WCSyncSpace)))
	return bar.Increment, func() {
		if timer.Stop() {
			close(start)
		}
		p.Wait()
	}
}
