package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/spf13/cobra"
	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"
	"golang.org/x/term"

	"github.com/lbanalyze/lbanalyze/corpus"
	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/report"
)

type batchFlags struct {
	baseline, after string
	dims            []int // by the index of policy.Dimensions()
	config          string
	callsPerTurn    int
	format          string
	jobs            int
	plots, html     string
	summary         bool
	analysis        analysisFlags
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
			opts, err := f.analysis.options(f.callsPerTurn)
			if err != nil {
				return err
			}
			if f.summary && f.format == "csv" {
				return usageError("--summary: csv is one row per episode and has no summary")
			}
			if f.plots != "" {
				if err := checkDirPath("--plots", f.plots); err != nil {
					return err
				}
			}
			if f.html != "" {
				if err := checkFilePath("--html", f.html); err != nil {
					return err
				}
			}
			c := e.readCorpus(args, f.jobs, false)
			if len(c.Episodes) == 0 {
				return failure("no episode could be analysed")
			}
			eps := analyse(c.Episodes, []policy.Policy{baseline, after}, recording, opts)
			d := report.NewDatasetWith(baseline, after, opts, eps, c.Skipped, c.Passed)
			if err := e.writeOutput(f.format, func(w io.Writer) error { return report.WriteDataset(w, f.format, d, f.summary) }); err != nil {
				return err
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
	f.dims = make([]int, len(policy.Dimensions()))
	for i, d := range policy.Dimensions() {
		f.dims[i] = d.Default
		fs.Var(&dimValue{&d, &f.dims[i]}, d.Flag, d.Key+" for both policies where --baseline or --after does not give it")
	}
	fs.StringVar(&f.config, "config", "", "a pyproject.toml whose [tool.zorkgpt.loop_break] (ZorkGPT) or [tool.zorkburr] (ZorkGPT2) sets the after policy (flags override it)")
	fs.IntVar(&f.callsPerTurn, "calls-per-turn", 4, "LLM calls one turn costs (agent, critic, extractor, synthesis)")
	fs.StringVar(&f.format, "format", "table", "output format: "+strings.Join(report.Formats, ", "))
	fs.IntVar(&f.jobs, "jobs", runtime.GOMAXPROCS(0), "how many files to read (and charts to draw) at once")
	fs.StringVar(&f.plots, "plots", "", "write into this directory a score timeline of every episode (timeline-ID.png) and the dataset charts")
	fs.StringVar(&f.html, "html", "", "write a self-contained HTML report (tables, review list, charts, timelines) to this file")
	fs.BoolVar(&f.summary, "summary", false, "print the metrics and the review list only, not the per-episode table (table, markdown, json)")
	f.analysis.register(fs)
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
	defaults := policy.DefaultParams()
	for i, d := range policy.Dimensions() {
		if changed(d.Flag) {
			d.Set(&defaults, f.dims[i])
		}
	}
	if err = defaults.Usable(); err != nil {
		err = usageError("%v", err)
		return
	}
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
		for i, d := range policy.Dimensions() {
			if changed(d.Flag) {
				d.Set(&afterDefaults, f.dims[i])
			}
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
	f.noteShared(cmd, e, baseline, after)
	warnRefusals(baseline, e)
	if after.Params != baseline.Params || len(baseline.Refusals()) == 0 {
		warnRefusals(after, e)
	}
	return
}

// readCorpus reads the logs found under paths (or, explicit, the files
// named), each once, jobs at a time, and tells on stderr what could not be used.
func (e *env) readCorpus(paths []string, jobs int, explicit bool) *corpus.Corpus {
	discover := corpus.Discover
	if explicit {
		discover = corpus.Files
	}
	files, c := discover(paths, corpus.Registry())
	bar, wait := e.progress(len(files))
	c.ReadFiles(files, corpus.Options{Jobs: jobs, Stdin: e.stdin, Progress: bar})
	wait()
	e.tell(c.Messages...)
	return c
}

// tell writes messages about the input to stderr.
func (e *env) tell(messages ...string) {
	for _, m := range messages {
		fmt.Fprintf(e.stderr, "lbanalyze: %s\n", report.Printable(m)) // one line, whatever an id holds
	}
}

// analyse replays the policies over every episode.
func analyse(eps []*episode.Episode, policies []policy.Policy, recording policy.Params, opts report.Options) []report.Episode {
	out := make([]report.Episode, len(eps))
	// Episodes in parallel, each into its own place: the same result as in
	// order. Replaying is most of the work with many configs.
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(len(eps), runtime.GOMAXPROCS(0)) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(eps); i = int(next.Add(1) - 1) {
				out[i] = report.AnalyseWith(eps[i], policies, recording, opts)
			}
		})
	}
	wg.Wait()
	return out
}

// progress shows a bar on stderr when it is a terminal and the run lasts more
// than a moment; it returns the step function and a wait for the bar's end.
func (e *env) progress(total int) (step func(), wait func()) {
	f, ok := e.terminal.(*os.File)
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

// noteShared says what a bare parameter flag applied to: both sides, unless
// --config set the after policy (then the baseline only and the after side).
func (f *batchFlags) noteShared(cmd *cobra.Command, e *env, baseline, after policy.Policy) {
	var set []string
	for i, d := range policy.Dimensions() {
		if cmd.Flags().Changed(d.Flag) {
			set = append(set, fmt.Sprintf("--%s %s", d.Flag, d.Format(f.dims[i])))
		}
	}
	if len(set) == 0 {
		return
	}
	fmt.Fprintf(e.stderr, "lbanalyze: note: %s applies to the baseline and the after policy where --baseline or --after does not set it: baseline %s, after %s. To change one side only, write NAME:MAX_TURNS_STUCK/CHECK_INTERVAL in --baseline or --after.\n",
		strings.Join(set, ", "), baseline, after)
}

// dimValue is a flag of one value of a parameter, read as its Dimension
// reads it (min_critic 0.5).
type dimValue struct {
	d *policy.Dimension
	v *int
}

func (f *dimValue) Type() string {
	if f.d.Scale > 1 {
		return "decimal"
	}
	return "int"
}

func (f *dimValue) String() string {
	if f.d.Scale > 1 {
		return f.d.Format(*f.v)
	}
	return strconv.Itoa(*f.v)
}

func (f *dimValue) Set(s string) error {
	v, err := f.d.Parse(s)
	if err == nil {
		*f.v = v
	}
	return err
}
