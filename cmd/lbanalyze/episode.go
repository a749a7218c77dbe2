package main

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/spf13/cobra"

	"github.com/lbanalyze/lbanalyze/jsonl"
	"github.com/lbanalyze/lbanalyze/replay"
	"github.com/lbanalyze/lbanalyze/report"
)

func newEpisodeCmd(e *env) *cobra.Command {
	var f policyFlags
	var plot string
	cmd := &cobra.Command{
		Use:   "episode FILE...",
		Short: "Replay the loop-break policies over episode logs, one report per episode",
		Long: `Replay the loop-break policies over one or more episode logs (episode_log.jsonl,
plain, gzip or zstd; - for stdin) and report, for each episode and each policy, where it
would have stopped, what that saves and what it would have lost.

By default the two policies ZorkGPT shipped are replayed at its defaults, 40/10:
score (09a7cc2) and score-or-objective (36546b7, ZorkGPT's default today).`,
		Example: `  lbanalyze episode game_files/episodes/2025-11-04T09:35:24/episode_log.jsonl
  lbanalyze episode --policy score,window --max-turns-stuck 30,40,60 log.jsonl
  lbanalyze episode --config pyproject.toml --format json log.jsonl.gz
  lbanalyze episode --policy score,score-or-objective,window --plot timeline.png log.jsonl`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageError("episode needs at least one log file (or - for stdin)")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := f.resolve(cmd, e)
			if err != nil {
				return err
			}
			if plot != "" {
				if err := checkPlotPath(plot); err != nil {
					return err
				}
			}
			var eps []report.Episode
			for _, path := range args {
				for _, ep := range e.readLog(path) {
					eps = append(eps, report.Analyse(ep, s.policies, s.recording, f.callsPerTurn))
				}
			}
			if len(eps) == 0 {
				return failure("no episode could be read")
			}
			if err := report.WriteEpisodes(e.stdout, f.format, eps); err != nil {
				return failure("%v", err)
			}
			if plot != "" {
				return e.writeTimelines(plot, eps)
			}
			return nil
		},
	}
	f.register(cmd.Flags())
	cmd.Flags().StringVar(&plot, "plot", "", "write the score timeline to this .png or .svg file (several episodes: one file each, named after it and the episode id)")
	return cmd
}

// readLog reads one log and reports on stderr what could not be used.
func (e *env) readLog(path string) []*replay.Episode {
	lg, err := replay.ReadFile(path, e.stdin, replay.Options{})
	if err != nil {
		fmt.Fprintf(e.stderr, "lbanalyze: %s: %s\n", jsonl.DisplayName(path), openReason(err))
		return nil
	}
	for _, s := range rejections(path, lg) {
		fmt.Fprintf(e.stderr, "lbanalyze: %s: %s\n", s.Source, s.Reason)
	}
	for _, m := range problems(lg) {
		fmt.Fprintf(e.stderr, "lbanalyze: %s\n", m)
	}
	return lg.Episodes
}

// openReason says why a file could not be read, without repeating its path.
func openReason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Op + ": " + pe.Err.Error()
	}
	return err.Error()
}

// rejections are the parts of a log that cannot be analysed: a read error that
// ended it early, segments that cannot be replayed.
func rejections(path string, lg *replay.Log) []report.Skip {
	name := jsonl.DisplayName(path)
	var s []report.Skip
	for _, p := range lg.Problems {
		s = append(s, report.Skip{Source: fmt.Sprintf("%s:%d", name, p.Line), Reason: p.Msg})
	}
	for _, r := range lg.Rejected {
		src := name
		if len(lg.Rejected)+len(lg.Episodes) > 1 {
			src = fmt.Sprintf("%s (segment %d)", name, r.Segment)
			if r.ID != "" {
				src = fmt.Sprintf("%s (segment %d, %s)", name, r.Segment, r.ID)
			}
		}
		s = append(s, report.Skip{Source: src, Reason: r.Reason})
	}
	return s
}

// problems are the messages about the lines of a log's episodes: the first
// few word for word with file and line, then how many lines were skipped.
func problems(lg *replay.Log) []string {
	var m []string
	for _, ep := range lg.Episodes {
		rep := report.Episode{Ep: ep}
		m = append(m, rep.Problems()...)
		if ep.SkippedLines > 0 {
			lines := "lines"
			if ep.SkippedLines == 1 {
				lines = "line"
			}
			m = append(m, fmt.Sprintf("%s: %d %s skipped in %s; the rest was analysed",
				jsonl.DisplayName(ep.Source), ep.SkippedLines, lines, ep.Name()))
		}
	}
	return m
}
