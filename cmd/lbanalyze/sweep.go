package main

import (
	"io"
	"runtime"
	"slices"

	"github.com/spf13/cobra"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/report"
	"github.com/lbanalyze/lbanalyze/sweep"
)

type sweepFlags struct {
	policyFlags
	maxFalse, maxCensored float64
	folds, jobs           int
	plots, html           string
	costs                 costFlags
	rank                  string
}

func newSweepCmd(e *env) *cobra.Command {
	var f sweepFlags
	cmd := &cobra.Command{
		Use:   "sweep DIR|FILE...",
		Short: "Search the loop-break settings over a dataset and recommend the one to ship",
		Long: `Replay every config of a grid — policies × max_turns_stuck × check_interval (× the
parameters of the variants) — over every episode found, as batch finds them, and report
every metric of batch for each config, the Pareto front of turns saved against the
false-termination rate and the score forgone, and the config that saves the most turns
with a false-termination rate within --max-false-rate.

The recommendation comes with what is known of its error: 95% bootstrap intervals,
how often the same config is chosen on bootstrap resamples, and its false-termination
rate and turns saved out of sample, by k-fold cross-validation (chosen on k-1 folds,
measured on the fold held out). The held-out figures are the ones to expect on new
episodes. A config whose outcomes are censored in more than --max-censored of the
episodes (the recording's own loop break cut the log before it would stop) has only a
lower bound on its length; it is marked and not recommended.

Where ZorkGPT can run the config, the [tool.zorkgpt.loop_break] block to paste is
printed; otherwise the change ZorkGPT would need, and the best config it can run as is.
It is compared with the current setting: --config's, else ZorkGPT's defaults. Logs of
harnesses with no stop rule of their own (TALES, JSONL read with --fields) are swept over
score and increase unless --policy says otherwise, compared with no stop rule, and the
recommendation is the rule to add to the harness's step loop, in words and settings.`,
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
			costs, err := f.costs.options(f.callsPerTurn)
			if err != nil {
				return err
			}
			c := e.readCorpus(args, f.jobs, false, s.sources)
			if len(c.Episodes) == 0 {
				return failure("no episode could be analysed")
			}
			configs, current, harness, err := f.grid(e, s, c.Episodes)
			if err != nil {
				return err
			}
			r := sweep.Run(c.Episodes, configs, current, sweep.Options{MaxFalseRate: f.maxFalse / 100,
				MaxCensored: f.maxCensored / 100, Folds: f.folds, CallsPerTurn: f.callsPerTurn, Jobs: f.jobs,
				CostPerCall: costs.CostPerCall, CostPerMTok: costs.CostPerMTok, ByTokens: f.rank == "tokens", Harness: harness})
			if err := e.writeOutput(f.format, func(w io.Writer) error { return sweep.Write(w, f.format, r) }); err != nil {
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
	fs.IntVar(&f.folds, "folds", 5, "k of the k-fold cross-validation (0: none)")
	fs.IntVar(&f.jobs, "jobs", runtime.GOMAXPROCS(0), "how many files to read (and episodes to replay) at once")
	fs.StringVar(&f.plots, "plots", "", "write into this directory the trade-off chart (tradeoff.png, .svg) and the heat map of the recommended policy (heatmap.png, .svg)")
	fs.StringVar(&f.html, "html", "", "write a self-contained HTML report (recommendation, TOML block, charts, Pareto front) to this file")
	f.costs.register(fs)
	fs.StringVar(&f.rank, "rank", "turns", "what the front and the recommendation rank configs by: turns (saved) or tokens (saved, from logs that record them)")
	return cmd
}

// grid is what the sweep compares, once the episodes are read: the configs
// their logs can replay (a note for the others), and the setting run now —
// for harnesses' logs, with no policy asked for, the policies a harness can
// run on its score, against no stop rule (docs/sources.md, "Harness logs").
func (f *sweepFlags) grid(e *env, s settings, eps []*episode.Episode) (configs []policy.Policy, current policy.Policy, harness bool, err error) {
	configs, current, harness = s.policies, s.current, harnessOnly(eps)
	if harness {
		current = noStop(policy.DefaultParams())
		if s.harness != nil {
			configs = s.harness
		}
	}
	configs, notes := report.Sweepable(eps, configs)
	if _, cur := report.Comparable(eps, []policy.Policy{current}, "the sweep compares with no stop rule instead"); len(cur) > 0 {
		notes = append(notes, cur...)
		current = noStop(current.Params)
	}
	e.tell(notes...)
	if len(configs) == 0 {
		return nil, current, harness, failure("no config of the grid can be replayed on these logs")
	}
	if f.rank == "tokens" && !slices.ContainsFunc(eps, func(ep *episode.Episode) bool { return ep.Signals.Has(episode.Tokens) }) {
		return nil, current, harness, usageError("--rank tokens: no log read records tokens")
	}
	return configs, current, harness, nil
}

// check refuses settings that cannot give an answer, before any work.
func (f *sweepFlags) check() error {
	switch {
	case f.maxFalse < 0 || f.maxFalse > 100:
		return usageError("--max-false-rate is a percentage, from 0 to 100, not %g", f.maxFalse)
	case f.maxCensored < 0 || f.maxCensored > 100:
		return usageError("--max-censored is a percentage, from 0 to 100, not %g", f.maxCensored)
	case f.folds < 0 || f.folds == 1 || f.folds > 100:
		return usageError("--folds must be 0 (none) or from 2 to 100, not %d", f.folds)
	case f.jobs < 1:
		return usageError("--jobs must be at least 1")
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
