package main

import (
	"io"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/corpus"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/report"
	"github.com/lbanalyze/lbanalyze/system"
)

func newEpisodeCmd(e *env) *cobra.Command {
	var f policyFlags
	var plot string
	var analysis analysisFlags
	cmd := &cobra.Command{
		Use:   "episode FILE...",
		Short: "Replay stop rules over episode logs, a report per episode",
		Long: `Replay the loop-break policies over one or more episode logs (episode_log.jsonl,
plain, gzip or zstd; - for stdin) and report, for each episode and each policy, where it
would have stopped, what that saves and what it would have lost.

By default the two policies ZorkGPT shipped are replayed at its defaults, 40/10:
score (09a7cc2) and score-or-objective (36546b7, ZorkGPT's default today); on the log of a
harness with no stop rule of its own (TALES, BALROG, or a log read with --fields), score and
increase, the policies it can run on its score alone; on ZorkGPT2's, score, supervisor,
zorkburr and increase.`,
		Example: `  lbanalyze episode game_files/episodes/2025-11-04T09:35:24/episode_log.jsonl
  lbanalyze episode --policy score,window --max-turns-stuck 30,40,60 log.jsonl
  lbanalyze episode --config pyproject.toml --format json log.jsonl.gz
  lbanalyze episode --policy score,window --plot timeline.png log.jsonl
  lbanalyze episode --fields turn=step,score=info.score,tokens=usage.n run.jsonl
  lbanalyze episode --fields turn=Step,reward=Reward --policy increase --min-delta 0.25 run.csv`,
		Args: needsArgs("episode needs at least one log file (or - for stdin)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := f.resolve(cmd, e, false)
			if err != nil {
				return err
			}
			opts, err := analysis.options()
			if err != nil {
				return err
			}
			if plot == "" {
				return e.episodes(args, f.format, s, opts)
			}
			if err := checkPlotPath(plot); err != nil {
				return err
			}
			c := e.readCorpus(args, runtime.GOMAXPROCS(0), true, s.sources, "")
			if len(c.Episodes) == 0 {
				return errNoEpisode
			}
			first := s.firstOfSystem()
			for _, ep := range c.Episodes {
				e.tell(first(ep)...)
			}
			step, end := e.progress("replaying", len(c.Episodes))
			eps := analyse(c.Episodes, s.analyseGrid(opts), step)
			end()
			if err := e.writeOutput(f.format, func(w io.Writer) error { return report.WriteEpisodes(w, f.format, eps, e.fit) }); err != nil {
				return err
			}
			return e.writeTimelines(plot, eps) // they need every episode: a stream will not do
		},
	}
	f.register(cmd.Flags(), []policy.Name{policy.Score, policy.ScoreOrObjective}, nil)
	analysis.register(cmd.Flags())
	cmd.Flags().StringVar(&plot, "plot", "", "write the score timeline to this .png or .svg file (several episodes: one file each, named after it and the episode id)")
	return cmd
}

var errNoEpisode = failure("no episode could be read")

// analyseGrid analyses an episode over the policies asked for (or offered
// to the system that ran it), its turns priced at that system's calls:
// their outcomes are replayed as they are written, never held
// (report.AnalyseGrid).
func (s settings) analyseGrid(opts report.Options) func(*episode.Episode) report.Episode {
	return func(ep *episode.Episode) report.Episode {
		sys, o := system.Of(ep), opts
		o.CallsPerTurn = s.calls.of(sys)
		return report.AnalyseGrid(ep, s.policiesFor(sys), s.recording, o)
	}
}

// episodes writes the report of each episode of the files named in args, a
// stream: episode by episode, never the whole input held.
func (e *env) episodes(args []string, format string, s settings, opts report.Options) error {
	files, c := corpus.Files(args, s.sources)
	n := 0
	err := e.writeOutput(format, func(w io.Writer) error {
		var err error
		n, err = e.streamEpisodes(w, format, files, c, runtime.GOMAXPROCS(0), s.sources, s.firstOfSystem(), s.analyseGrid(opts))
		return err
	})
	if n == 0 {
		return errNoEpisode // nothing was written
	}
	return err
}
