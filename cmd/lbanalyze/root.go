package main

import (
	"github.com/spf13/cobra"

	"github.com/lbanalyze/lbanalyze/internal/report"
)

const version = "0.1.0"

func newRootCmd(e *env) *cobra.Command {
	root := &cobra.Command{
		Use:   "lbanalyze",
		Short: "Replay ZorkGPT's loop-break policies over its episode logs",
		Long: `lbanalyze streams ZorkGPT's episode_log.jsonl files, rebuilds every episode turn by turn,
replays the loop-break policy under any setting, and reports where each policy would
have stopped, the turns and LLM calls that saves, the score it would have lost, and
which stops look premature.`,
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
