package textout

import (
	"fmt"
	"io"
	"strings"
)

// Formats are the output formats of the commands.
var Formats = []string{"table", "markdown", "json", "csv"}

// UnknownFormat is the error of a format that is none of Formats.
func UnknownFormat(format string) error {
	return fmt.Errorf("unknown format %q (known: %s)", format, strings.Join(Formats, ", "))
}

// GroupSections writes the groups of a batch or a sweep in format, table or
// markdown (docs/commands.md, "Groups"): n sections, each headed by group i's
// name and how many episodes it has, and written by section; then the line
// that says whether one setting serves every group, bold in markdown. A
// name is a value from the logs, escaped (Printable), so that it forges no
// line.
func GroupSections(w io.Writer, format string, n int, group func(i int) (name string, episodes int), section func(i int) error, says string) error {
	for i := range n {
		name, episodes := group(i)
		title := fmt.Sprintf("Group %d of %d: %s, %s", i+1, n, Printable(name), Count(episodes, "episode"))
		if format == "markdown" {
			fmt.Fprintf(w, "# %s\n\n", MarkdownText(title))
		} else {
			fmt.Fprintf(w, "== %s ==\n", title)
		}
		if err := section(i); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}
	if format == "markdown" {
		says = "**" + MarkdownText(says) + "**"
	}
	_, err := fmt.Fprintln(w, says)
	return err
}

// OneSettingLead opens the line that says whether one setting serves all n
// groups.
func OneSettingLead(n int) string {
	switch n {
	case 1:
		return "One setting for 1 group? "
	case 2:
		return "One setting for both groups? "
	}
	return fmt.Sprintf("One setting for all %d groups? ", n)
}

// SomeOf lists the first few names, separated by sep, and counts the rest.
func SomeOf(names []string, sep string) string {
	const shown = 5
	if len(names) <= shown {
		return strings.Join(names, sep)
	}
	return strings.Join(names[:shown], sep) + fmt.Sprintf("%sand %d more", sep, len(names)-shown)
}
