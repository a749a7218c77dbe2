package main

import (
	"io"
	"runtime"
	"slices"

	"github.com/spf13/cobra"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/report"
	"github.com/lbanalyze/lbanalyze/internal/sweep"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/system"
)

type sweepFlags struct {
	policyFlags
	maxFalse, maxCensored float64
	folds, jobs           int
	plots, html           string
	top                   int
	all                   bool
	costs                 costFlags
	rank                  string
}

func newSweepCmd(e *env) *cobra.Command {
	f := sweepFlags{policyFlags: policyFlags{configIsNow: true}}
	cmd := &cobra.Command{
		Use:   "sweep DIR|FILE...",
		Short: "Search the loop-break settings over a dataset and answer which one to ship",
		Long: `Replay every config of a grid — policies × max_turns_stuck × check_interval (× the
parameters of the variants) — over every episode found, as batch finds them, and answer
first: the config to ship among those ZorkGPT runs as it is (the most turns saved with a
false-termination rate within --max-false-rate and censored outcomes within
--max-censored), or "keep your current setting" when that is the current one or cannot be
told apart from it, with the [tool.zorkgpt.loop_break] block to paste.

The answer comes with what is known of its error: 95% bootstrap intervals, its
false-termination rate and turns saved out of sample by k-fold cross-validation (chosen on
k-1 folds, measured on the fold held out: the figures to expect on new episodes), how
often it is chosen again on bootstrap resamples, and its change from the current setting
(--config's, else ZorkGPT's defaults; the grid stays the flags'). When ZorkGPT cannot run
the best config overall, that one follows, with the change it needs and what it would add.
Fewer than 20 episodes, or too few stops to tell the configs apart, get a description and
no answer. Then the Pareto front of turns saved against false terminations and score
forgone, best first (--top rows, --all); every metric of batch for every config is in the
CSV and JSON. --rank tokens ranks by the tokens saved instead, where the logs record them.

Logs of harnesses with no stop rule of their own (TALES, BALROG, logs read with --fields) are
swept over score and increase unless --policy says otherwise and compared with no stop
rule unless --config says otherwise; the answer is then a config the harness can run on
its score alone, as the rule to add to its step loop, in words and settings. ZorkGPT2's
logs are swept over score, supervisor, zorkburr and increase, against no stop rule (its
runner enforces none) unless --config names its [tool.zorkburr]; the answer is then a
zorkburr config and its [tool.zorkburr] block. A policy that needs a signal some log does
not record (objectives, rooms) is left out of the grid before anything is chosen, and a
setting that reads one (the supervisor's triggers) is off; each is said so.
`,
		Example: `  lbanalyze sweep testdata/episodes
  lbanalyze sweep --config pyproject.toml --format markdown game_files/episodes
  lbanalyze sweep --policy score-or-objective --max-turns-stuck 20:120:5 --check-interval 1:10 game_files/episodes
  lbanalyze sweep --format csv testdata/episodes > sweep.csv
  lbanalyze sweep --plots plots --html sweep.html testdata/episodes`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageError("sweep needs at least one directory or log file")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := f.resolve(cmd, e, true)
			if err != nil {
				return err
			}
			if err := f.check(); err != nil {
				return err
			}
			costs, err := f.costs.options()
			if err != nil {
				return err
			}
			f.jobs = workers(f.jobs)
			c := e.readCorpus(args, f.jobs, false, s.sources)
			if len(c.Episodes) == 0 {
				return failure("no episode could be analysed")
			}
			// The default of 5 folds on fewer episodes is no error: so few
			// get no answer, and so no cross-validation, anyway.
			if n := len(c.Episodes); f.folds > n && cmd.Flags().Changed("folds") {
				return usageError("--folds %d: more folds than the %s read, so some would hold none; give at most %d, or 0 for none",
					f.folds, report.Count(n, "episode"), n)
			}
			if f.rank == "tokens" && !slices.ContainsFunc(c.Episodes, func(ep *episode.Episode) bool { return ep.Signals.Has(episode.Tokens) }) {
				return usageError("--rank tokens: no log read records tokens")
			}
			sys := system.OfAll(c.Episodes)
			configs, current := f.grid(s, sys)
			costs.CallsPerTurn = f.calls.of(sys)
			r := sweep.Run(c.Episodes, configs, current, sweep.Options{MaxFalseRate: f.maxFalse / 100,
				MaxCensored: f.maxCensored / 100, Folds: f.folds, Jobs: replayers(f.jobs), Costs: costs, ByTokens: f.rank == "tokens",
				System: sys, Progress: e.progress})
			e.tell(r.LeftOut...)
			if len(r.Configs) == 0 {
				return failure("no config of the grid can be replayed on these logs")
			}
			layout := sweep.Layout{Rows: f.top, Width: e.width}
			if f.all {
				layout.Rows = 0
			}
			if err := e.writeOutput(f.format, func(w io.Writer) error { return sweep.Write(w, f.format, r, layout) }); err != nil {
				return err
			}
			if f.plots != "" {
				if err := e.writeSweepPlots(f.plots, r); err != nil {
					return err
				}
			}
			if f.html != "" {
				return e.writeSweepHTML(f.html, r)
			}
			return nil
		},
	}
	fs := cmd.Flags()
	f.register(fs, []policy.Name{policy.Score, policy.ScoreOrObjective, policy.Window},
		map[string][]int{"max_turns_stuck": seq(10, 150, 5), "check_interval": {1, 5, 10}})
	fs.Float64Var(&f.maxFalse, "max-false-rate", 5, "the highest false-termination rate to recommend, in % (the loop-break design's target)")
	fs.Float64Var(&f.maxCensored, "max-censored", 10, "the highest share of censored outcomes, in %, of a config to recommend")
	fs.IntVar(&f.folds, "folds", 5, "k of the k-fold cross-validation (0: none; at most the number of episodes)")
	fs.IntVar(&f.top, "top", sweep.DefaultRows, "rows of the Pareto front the table and markdown show, best first (the answer's and now are always shown)")
	fs.BoolVar(&f.all, "all", false, "show every row of the Pareto front")
	fs.IntVar(&f.jobs, "jobs", runtime.GOMAXPROCS(0), "how many files to read (at most 4 a core) and episodes to replay (at most 1 a core) at once")
	fs.StringVar(&f.plots, "plots", "", "write into this directory the trade-off chart (tradeoff.png, .svg) and the heat map of the recommended policy (heatmap.png, .svg)")
	fs.StringVar(&f.html, "html", "", "write a self-contained HTML report (recommendation, TOML block, charts, Pareto front) to this file")
	f.costs.register(fs)
	fs.StringVar(&f.rank, "rank", "turns", "what the answer and the front rank configs by: turns (saved) or tokens (saved, from logs that record them)")
	return cmd
}

// grid is what the sweep compares over the logs of sys: with no policy asked
// for, the policies they are offered (system.System.Offered), and what it
// runs now unless --config names it (system.System.Now: for a system that
// stops no run on a rule of its own, no stop rule; docs/sources.md, "Which
// system ran a log"). sweep.Run leaves out what the logs cannot replay.
func (f *sweepFlags) grid(s settings, sys *system.System) (configs []policy.Policy, current policy.Policy) {
	configs, current = s.policiesFor(sys).Policies(), sys.Now
	if s.current != nil {
		current = *s.current
	}
	return configs, current
}

// check refuses settings that cannot give an answer, before any work.
func (f *sweepFlags) check() error {
	switch {
	case !inRange(f.maxFalse, 0, 100):
		return usageError("--max-false-rate is a percentage, from 0 to 100, not %g", f.maxFalse)
	case !inRange(f.maxCensored, 0, 100):
		return usageError("--max-censored is a percentage, from 0 to 100, not %g", f.maxCensored)
	case f.folds < 0 || f.folds == 1 || f.folds > 100:
		return usageError("--folds must be 0 (none) or from 2 to 100, not %d", f.folds)
	case f.jobs < 1:
		return usageError("--jobs must be at least 1")
	case f.top < 1:
		return usageError("--top must be at least 1 (--all shows every row), not %d", f.top)
	case f.rank != "turns" && f.rank != "tokens":
		return usageError("--rank must be turns or tokens, not %q", f.rank)
	}
	if f.plots != "" {
		if err := checkDirPath("--plots", f.plots); err != nil {
			return err
		}
	}
	if f.html != "" {
		return checkFilePath("--html", f.html)
	}
	return nil
}

// seq is from, from+step, … up to to.
func seq(from, to, step int) []int {
	var s []int
	for v := from; v <= to; v += step {
		s = append(s, v)
	}
	return s
}
