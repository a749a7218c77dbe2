package report

import (
	"bytes"
	"cmp"
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/lbanalyze/lbanalyze/internal/metrics"
	"github.com/lbanalyze/lbanalyze/internal/textout"
)

// Group is one group of a batch (docs/commands.md, "Groups"): its name, the
// system that ran its episodes, and their analysis.
type Group struct {
	Name    string
	System  string
	Dataset *Dataset
}

// Inputs are what the groups were read from, as a dataset has them: the
// inputs that could not be analysed, and the directories passed over.
type Inputs struct {
	Skipped []Skip
	Passed  []string
}

// NewInputs sorts them as a dataset does.
func NewInputs(skipped []Skip, passed []string) Inputs {
	slices.SortStableFunc(skipped, func(a, b Skip) int { return cmp.Compare(a.Source, b.Source) })
	slices.Sort(passed)
	return Inputs{skipped, passed}
}

// WriteGroups renders each group's analysis in format, as WriteDataset
// renders one: in a section of its own (table, markdown), an object of
// "groups" (JSON), rows with a first column "group" (CSV); then whether one
// setting serves every group (OneSetting). by is what grouped them (--by);
// in says what was left out of every group, said first; fit is what the
// tables fit (WriteDataset).
func WriteGroups(w io.Writer, format, by string, groups []Group, in Inputs, summary bool, fit *textout.Fit) error {
	switch format {
	case "json":
		return writeGroupsJSON(w, by, groups, in, summary)
	case "csv":
		if summary {
			return fmt.Errorf("csv is one row per episode: it has no summary")
		}
		return writeGroupsCSV(w, groups)
	case "table", "markdown":
		if lines := append(passedLines(in.Passed), skippedLines(in.Skipped)...); len(lines) > 0 {
			for _, l := range lines {
				if format == "markdown" {
					l = textout.MarkdownLine(l) + "  "
				}
				fmt.Fprintln(w, l)
			}
			fmt.Fprintln(w)
		}
		_, says := OneSetting(groups)
		return textout.GroupSections(w, format, len(groups), func(i int) (string, int) { return groups[i].Name, len(groups[i].Dataset.Episodes) },
			func(i int) error { return WriteDataset(w, format, groups[i].Dataset, summary, fit) }, says)
	}
	return textout.UnknownFormat(format)
}

// groupJSON is a group's analysis, as batch's JSON gives one, with its name,
// its system, and its bottom line (Dataset.Headline) as "answer".
type groupJSON struct {
	Name   string `json:"name"`
	System string `json:"system"`
	Answer string `json:"answer"`
	DatasetJSON
}

// OneSettingJSON says whether one setting serves every group: null when it
// cannot be told (logs of several systems, groups too small).
type OneSettingJSON struct {
	ServesAll *bool  `json:"serves_all"`
	Says      string `json:"says"`
}

// groupsJSON is batch's JSON with --by.
type groupsJSON struct {
	By                 string         `json:"by"`
	Skipped            []Skip         `json:"skipped"`
	SkippedDirectories []string       `json:"skipped_directories"`
	Groups             []groupJSON    `json:"groups"`
	OneSetting         OneSettingJSON `json:"one_setting"`
}

func writeGroupsJSON(w io.Writer, by string, groups []Group, in Inputs, summary bool) error {
	out := groupsJSON{By: by, Skipped: append([]Skip{}, in.Skipped...), SkippedDirectories: append([]string{}, in.Passed...), Groups: []groupJSON{}}
	out.OneSetting.ServesAll, out.OneSetting.Says = OneSetting(groups)
	b, err := textout.IndentedJSON(out, "")
	if err != nil {
		return err
	}
	// The groups are written one at a time, each as Dataset.writeJSON
	// writes a dataset, in the place of the empty list.
	at := bytes.Index(b, []byte("\n  \"groups\": []"))
	if at < 0 || len(groups) == 0 {
		_, err = w.Write(append(b, '\n'))
		return err
	}
	io.WriteString(w, string(b[:at])+"\n  \"groups\": [")
	for i, g := range groups {
		sep := "\n    "
		if i > 0 {
			sep = "," + sep
		}
		io.WriteString(w, sep)
		if err := g.Dataset.writeJSON(w, groupJSON{g.Name, g.System, g.Dataset.Headline(), g.Dataset.json()}, summary, "    "); err != nil {
			return err
		}
	}
	_, err = io.WriteString(w, "\n  ]"+string(b[at+len("\n  \"groups\": []"):])+"\n")
	return err
}

func writeGroupsCSV(w io.Writer, groups []Group) error {
	cw := csv.NewWriter(w)
	cw.Write(append([]string{"group"}, datasetCSVHeader()...))
	for _, g := range groups {
		name := textout.CSVText(g.Name)
		for i := range g.Dataset.Episodes {
			cw.Write(append([]string{name}, datasetCSVRow(&g.Dataset.Episodes[i])...))
		}
	}
	cw.Flush()
	return cw.Error()
}

// OneSetting says, in a line, whether the after policy serves every group:
// whether it is significantly worse than the baseline on a headline figure
// (Metric.Headline) in none of them. Groups of several systems are compared
// each on its own system's rules, and groups too small for intervals cannot
// tell; serves is nil when no group can.
func OneSetting(groups []Group) (serves *bool, says string) {
	if len(groups) == 0 {
		return nil, "No group to compare."
	}
	systems := map[string]bool{}
	for _, g := range groups {
		systems[g.System] = true
	}
	if len(systems) > 1 {
		return nil, textout.OneSettingLead(len(groups)) + fmt.Sprintf("No: their logs are of %d systems, each compared on its own rules above, and each runs its own setting.",
			len(systems))
	}
	d := groups[0].Dataset
	var worse, tooFew []string
	told := 0
	for _, g := range groups {
		w, ok := worseOn(g.Dataset)
		switch {
		case !ok:
			tooFew = append(tooFew, textout.Printable(g.Name))
		case len(w) > 0:
			told++
			worse = append(worse, textout.Printable(g.Name)+" ("+strings.Join(w, ", ")+")")
		default:
			told++
		}
	}
	var b strings.Builder
	b.WriteString(textout.OneSettingLead(len(groups)))
	switch {
	case told == 0:
		fmt.Fprintf(&b, "Cannot tell: every group has too few episodes for an interval (%d needed)", metrics.MinN)
	case len(worse) == 0:
		fmt.Fprintf(&b, "After %s is significantly worse than baseline %s on no headline figure in any group", d.After, d.Baseline)
	default:
		fmt.Fprintf(&b, "No: after %s is significantly worse than baseline %s in %d of %d groups: %s", d.After, d.Baseline, len(worse), told, textout.SomeOf(worse, "; "))
	}
	if told > 0 && len(tooFew) > 0 {
		fmt.Fprintf(&b, "; %s too few episodes to tell: %s", haveCount(len(tooFew)), textout.SomeOf(tooFew, "; "))
	}
	b.WriteString(".")
	if told == 0 {
		return nil, b.String()
	}
	ok := len(worse) == 0
	return &ok, b.String()
}

// worseOn lists the headline figures on which d's after policy is
// significantly worse than its baseline; false when d has too few episodes
// for intervals.
func worseOn(d *Dataset) ([]string, bool) {
	var worse []string
	told := false
	for i := range d.Metrics {
		m := &d.Metrics[i]
		if !m.Headline || !m.BaselineOK || !m.AfterOK || m.CI == nil {
			continue
		}
		told = true
		if m.Significant() && (m.CI[0] > 0) != (m.Better > 0) {
			worse = append(worse, m.Label)
		}
	}
	return worse, told
}

func haveCount(n int) string {
	if n == 1 {
		return "1 group has"
	}
	return fmt.Sprintf("%d groups have", n)
}
