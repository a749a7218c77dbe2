package main

import (
	"github.com/spf13/cobra"

	"github.com/lbanalyze/lbanalyze/internal/report"
)

const version = "0.1.0"

func newRootCmd(e *env) *cobra.Command {
	root := &cobra.Command{
		Use:   "lbanalyze",
		Short: "Replay stop rules over the logs LLM agents wrote, and say which setting to ship",
		Long: `lbanalyze streams the logs LLM agents already wrote (ZorkGPT's episode_log.jsonl,
ZorkGPT2's Burr tracker directories, run logs and state snapshots, TALES rollouts, BALROG's
runs, any per-step JSONL, CSV or TSV through --fields), rebuilds every episode turn by turn, replays stop rules
(a loop break: stop when nothing moved for W turns, checked every I) under any setting, and
reports where each would have stopped, the turns, LLM calls and tokens that saves, the score
it would have lost, which stops look premature, and over a grid which setting to ship.`,
		Version:       version,
		SilenceErrors: true, // run prints errors, once, and maps them to exit codes
		SilenceUsage:  true,
	}
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError("%v", err) })
	root.AddCommand(newEpisodeCmd(e))
	root.AddCommand(newSynthCmd(e))
	root.AddCommand(newBatchCmd(e))
	root.AddCommand(newSweepCmd(e))
	// cobra's completion command (bash, zsh, fish, powershell), made now
	// rather than when the command line is run, so that it is listed like the
	// others; flags that take names complete them.
	root.InitDefaultCompletionCmd()
	for _, cmd := range root.Commands() {
		names := map[string][]string{"format": report.Formats, "policy": nameStrings(), "baseline": nameStrings(), "after": nameStrings()}
		for flag, values := range names {
			if cmd.Flags().Lookup(flag) != nil {
				cmd.RegisterFlagCompletionFunc(flag, cobra.FixedCompletions(values, cobra.ShellCompDirectiveNoFileComp))
			}
		}
	}
	return root
}
