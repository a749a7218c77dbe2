package main

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/lbanalyze/lbanalyze/internal/nearest"
	"github.com/lbanalyze/lbanalyze/internal/textout"
	"github.com/lbanalyze/lbanalyze/policy"
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
	root.SetFlagErrorFunc(flagError)
	if e.width > 0 {
		fitHelp(root, e.width)
	}
	root.AddCommand(newEpisodeCmd(e))
	root.AddCommand(newSynthCmd(e))
	root.AddCommand(newBatchCmd(e))
	root.AddCommand(newSweepCmd(e))
	root.AddCommand(newCheckCmd(e))
	// cobra's completion command (bash, zsh, fish, powershell), made now
	// rather than when the command line is run, so that it is listed like the
	// others; flags that take names complete them.
	root.InitDefaultCompletionCmd()
	policies := nameStrings(policy.Names())
	for _, cmd := range root.Commands() {
		names := map[string][]string{"format": textout.Formats, "policy": policies, "baseline": policies, "after": policies}
		for flag, values := range names {
			if cmd.Flags().Lookup(flag) != nil {
				cmd.RegisterFlagCompletionFunc(flag, cobra.FixedCompletions(values, cobra.ShellCompDirectiveNoFileComp))
			}
		}
	}
	return root
}

// flagError is the usage error for a flag cobra refused; for one it does not
// know, with the flags of the command it may have meant, as cobra suggests
// commands.
func flagError(c *cobra.Command, err error) error {
	name, ok := strings.CutPrefix(err.Error(), "unknown flag: --")
	if !ok {
		return usageError("%v", err)
	}
	name, _, _ = strings.Cut(name, "=")
	if s := similarFlags(c, name); len(s) > 0 {
		return laidOutUsage("%v\n\nDid you mean this?\n\t--%s\n", err, strings.Join(s, "\n\t--"))
	}
	if p := policyNamed(c); len(p) > 0 && slices.Contains(nameStrings(policy.Names()), name) {
		return laidOutUsage("%v\n\n%s is a policy, not a flag: give it as --%s %s\n", err, name, strings.Join(p, " "+name+" or --"), name)
	}
	if flag, cmds := elsewhere(c, name); flag != "" {
		lead := "--" + flag + " is"
		if flag != name {
			lead = "Did you mean --" + flag + "? It is"
		}
		return laidOutUsage("%v\n\n%s a flag of %s, not of %s ('%s --help' lists its flags)\n",
			err, lead, strings.Join(cmds, " and "), c.Name(), c.CommandPath())
	}
	return usageError("%v", err)
}

// elsewhere is the flag of another command than c nearest name (as
// similarFlags finds them), and the commands that have it; "" when none has
// one near.
func elsewhere(c *cobra.Command, name string) (flag string, cmds []string) {
	for _, other := range c.Root().Commands() {
		if s := similarFlags(other, name); other != c && len(s) > 0 && (flag == "" || nearest.Distance(name, s[0]) < nearest.Distance(name, flag)) {
			flag = s[0]
		}
	}
	for _, other := range c.Root().Commands() {
		if flag != "" && other != c && other.Flags().Lookup(flag) != nil {
			cmds = append(cmds, other.CommandPath())
		}
	}
	return flag, cmds
}

// policyNamed are the flags of c that take a policy's name.
func policyNamed(c *cobra.Command) []string {
	var out []string
	for _, f := range []string{"policy", "after", "baseline"} {
		if c.Flags().Lookup(f) != nil {
			out = append(out, f)
		}
	}
	return out
}

// similarFlags are the flags of c within two edits of name, or that begin
// with it, the nearest first (at most three).
func similarFlags(c *cobra.Command, name string) []string {
	type near struct {
		flag string
		d    int
	}
	var found []near
	c.Flags().VisitAll(func(f *pflag.Flag) {
		d := nearest.Distance(name, f.Name)
		if strings.HasPrefix(f.Name, name) && len(name) >= 3 {
			d = min(d, 1)
		}
		if d <= 2 {
			found = append(found, near{f.Name, d})
		}
	})
	slices.SortFunc(found, func(a, b near) int { return cmp.Or(a.d-b.d, strings.Compare(a.flag, b.flag)) })
	var out []string
	for _, n := range found[:min(len(found), 3)] {
		out = append(out, n.flag)
	}
	return out
}

// fitHelp makes every command's help fit a terminal of width columns: its
// text reflowed, paragraph by paragraph, and its flags' usages wrapped under
// them (pflag's FlagUsagesWrapped). Elsewhere help is cobra's, as written.
func fitHelp(root *cobra.Command, width int) {
	cobra.AddTemplateFunc("reflow", reflow)
	cobra.AddTemplateFunc("flagUsagesWrapped", func(fs *pflag.FlagSet, cols int) string { return fs.FlagUsagesWrapped(cols) })
	root.SetHelpTemplate(strings.Replace(root.HelpTemplate(), "{{. | trimTrailingWhitespaces}}", fmt.Sprintf("{{reflow . %d}}", width), 1))
	usage := root.UsageTemplate()
	for _, flags := range []string{".LocalFlags", ".InheritedFlags"} {
		usage = strings.Replace(usage, flags+".FlagUsages", fmt.Sprintf("flagUsagesWrapped %s %d", flags, width), 1)
	}
	root.SetUsageTemplate(usage)
}

// reflow fills the paragraphs of text (separated by blank lines) to width
// columns; lines that begin with a space are left as they are.
func reflow(text string, width int) string {
	var out []string
	for para := range strings.SplitSeq(strings.TrimRight(text, " \n"), "\n\n") {
		if strings.HasPrefix(para, " ") {
			out = append(out, para)
			continue
		}
		out = append(out, strings.Join(textout.WrapWords(para, width), "\n"))
	}
	return strings.Join(out, "\n\n")
}

// needsArgs refuses a command line without an argument, in a usage error
// that says what the command needs.
func needsArgs(need string) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		if len(args) == 0 {
			return usageError("%s", need)
		}
		return nil
	}
}
