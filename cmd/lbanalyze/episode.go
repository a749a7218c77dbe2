package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/lbanalyze/lbanalyze/jsonl"
	"github.com/lbanalyze/lbanalyze/replay"
	"github.com/lbanalyze/lbanalyze/report"
)

func newEpisodeCmd(e *env) *cobra.Command {
	var f policyFlags
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
  lbanalyze episode --config pyproject.toml --format json log.jsonl.gz`,
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
			return nil
		},
	}
	f.register(cmd.Flags())
	return cmd
}

// readLog reads one log and reports on stderr what could not be used: a file
// that cannot be opened, segments that cannot be replayed, bad lines (the
// first few of each episode, and how many in all).
func (e *env) readLog(path string) []*replay.Episode {
	lg, err := replay.ReadFile(path, e.stdin, replay.Options{})
	name := jsonl.DisplayName(path)
	if err != nil {
		fmt.Fprintf(e.stderr, "lbanalyze: %v\n", err)
		return nil
	}
	for _, p := range lg.Problems {
		fmt.Fprintf(e.stderr, "lbanalyze: %s:%s\n", name, lineMsg(p))
	}
	for _, r := range lg.Rejected {
		if len(lg.Rejected)+len(lg.Episodes) == 1 {
			fmt.Fprintf(e.stderr, "lbanalyze: %s: %s\n", name, r.Reason)
			continue
		}
		id := ""
		if r.ID != "" {
			id = " (" + r.ID + ")"
		}
		fmt.Fprintf(e.stderr, "lbanalyze: %s: segment %d%s skipped: %s\n", name, r.Segment, id, r.Reason)
	}
	for _, ep := range lg.Episodes {
		rep := report.Episode{Ep: ep}
		for _, p := range rep.Problems() {
			fmt.Fprintf(e.stderr, "lbanalyze: %s\n", p)
		}
		if ep.SkippedLines > 0 {
			fmt.Fprintf(e.stderr, "lbanalyze: %s: %d lines skipped in %s; the rest was analysed\n", name, ep.SkippedLines, ep.Name())
		}
	}
	return lg.Episodes
}

func lineMsg(p replay.Problem) string {
	if p.Line > 0 {
		return fmt.Sprintf("%d: %s", p.Line, p.Msg)
	}
	return " " + p.Msg
}
