package sweep

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/lbanalyze/lbanalyze/internal/textout"
	"github.com/lbanalyze/lbanalyze/policy"
)

// Group is one group of a sweep (docs/commands.md, "Groups"): its name, and
// the sweep over its episodes alone, with its own answer.
type Group struct {
	Name   string
	Result *Result
}

// WriteGroups renders each group's sweep in format as Write renders one: in
// a section of its own (table, markdown), an object of "groups" (JSON: the
// sweep's object with the group's name first), rows with a first column
// "group" (CSV: the columns of every group, empty where a group has none);
// then whether one setting serves every group (OneSetting). by is what
// grouped them (--by).
func WriteGroups(w io.Writer, format, by string, groups []Group, l Layout) error {
	serves, says := OneSetting(groups)
	switch format {
	case "table", "markdown":
		return textout.GroupSections(w, format, len(groups), func(i int) (string, int) { return groups[i].Name, groups[i].Result.N },
			func(i int) error { return Write(w, format, groups[i].Result, l) }, says)
	case "json":
		return writeGroupsJSON(w, by, groups, serves, says)
	case "csv":
		return writeGroupsCSV(w, groups)
	}
	return textout.UnknownFormat(format)
}

func writeGroupsJSON(w io.Writer, by string, groups []Group, serves *policy.Policy, says string) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	enc := func(v any) {
		b, _ := textout.JSON(v) // strings and nil: no error
		bw.Write(b)
	}
	bw.WriteString(`{"by": `)
	enc(by)
	bw.WriteString(",\n\"groups\": [\n")
	for i, g := range groups {
		if i > 0 {
			bw.WriteString(",\n")
		}
		name, _ := textout.JSON(g.Name)
		if err := g.Result.writeJSON(&afterBrace{w: bw, add: `"name": ` + string(name) + ", "}); err != nil {
			return err
		}
	}
	bw.WriteString("],\n\"one_setting\": {\"config\": ")
	if serves != nil {
		enc(serves.String())
	} else {
		enc(nil)
	}
	bw.WriteString(`, "says": `)
	enc(says)
	bw.WriteString("}}\n")
	return bw.Flush()
}

// afterBrace writes an object with members added first: what it is given
// must begin with "{".
type afterBrace struct {
	w    io.Writer
	add  string
	done bool
}

func (a *afterBrace) Write(p []byte) (int, error) {
	if a.done || len(p) == 0 {
		return a.w.Write(p)
	}
	if p[0] != '{' {
		return 0, errors.New("a group's JSON is not an object")
	}
	a.done = true
	if _, err := io.WriteString(a.w, "{"+a.add); err != nil {
		return 0, err
	}
	n, err := a.w.Write(p[1:])
	return n + 1, err
}

// writeGroupsCSV writes a row a config of each group, the group first; the
// columns are every group's, in the order they first come.
func writeGroupsCSV(w io.Writer, groups []Group) error {
	cols := []string{"group"}
	for _, g := range groups {
		for _, c := range g.Result.columns() {
			if !slices.Contains(cols, c) {
				cols = append(cols, c)
			}
		}
	}
	cw := csv.NewWriter(w)
	cw.Write(cols)
	row := make([]string, len(cols))
	for _, g := range groups {
		r := g.Result
		at := make([]int, 0, len(cols)) // where each of r's columns goes
		for _, c := range r.columns() {
			at = append(at, slices.Index(cols, c))
		}
		for i := range r.Configs {
			clear(row)
			row[0] = textout.CSVText(g.Name)
			for k, v := range r.values(&r.Configs[i]) {
				row[at[k]] = csvCell(v)
			}
			if err := cw.Write(row); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// OneSetting says, in a line, whether one setting serves every group: the
// config, among those the system runs as it is, that meets both targets in
// the most groups with an answer (ties: the first of the grid); serves is it
// when it meets them in all, nil otherwise. The groups' own answers follow.
// Groups of several systems never share one: each runs its own setting.
func OneSetting(groups []Group) (serves *policy.Policy, says string) {
	lead := textout.OneSettingLead(len(groups))
	var systems []string
	for _, g := range groups {
		if !slices.Contains(systems, g.Result.System.Name) {
			systems = append(systems, g.Result.System.Name)
		}
	}
	if len(systems) > 1 {
		return nil, lead + fmt.Sprintf("No: their logs are of %d systems (%s), each answered on its own above, and each runs its own setting.",
			len(systems), strings.Join(systems, ", "))
	}
	var answered []*Result
	var unanswered []string
	answers := map[string]int{}
	var order []string // the answers, in the order of the groups
	for _, g := range groups {
		r := g.Result
		if r.Answer == nil {
			unanswered = append(unanswered, textout.Printable(g.Name))
			continue
		}
		answered = append(answered, r)
		a := r.Answer.config(r).Policy.String()
		switch r.Answer.Verdict {
		case Keep:
			a = "keep " + a
		case NoClearWinner:
			a = "no clear winner (" + r.Configs[r.Answer.Config].Policy.String() + " leads)"
		}
		if answers[a]++; answers[a] == 1 {
			order = append(order, a)
		}
	}
	if len(answered) == 0 {
		return nil, lead + "Cannot tell: no group has an answer (each says why above)."
	}
	best, met := closest(answered)
	var b strings.Builder
	b.WriteString(lead)
	switch {
	case best == nil:
		b.WriteString("No: no config " + answered[0].System.Name + " runs as it is was swept in every group with an answer")
	case met == len(answered) && len(order) == 1:
		fmt.Fprintf(&b, "Yes: %s, the answer in every group with one", best)
	case met == len(answered):
		fmt.Fprintf(&b, "Yes: %s meets both targets in every group with an answer, though their answers differ (%s)", best, tally(order, answers))
	default:
		fmt.Fprintf(&b, "No: no config meets both targets in every group with an answer; %s comes closest, in %d of %d; their answers: %s",
			best, met, len(answered), tally(order, answers))
	}
	if len(unanswered) > 0 {
		fmt.Fprintf(&b, "; %s no answer: %s", textout.Count(len(unanswered), "group")+" with", textout.SomeOf(unanswered, ", "))
	}
	b.WriteString(".")
	if best == nil || met < len(answered) {
		return nil, b.String()
	}
	return best, b.String()
}

// closest is the config the system runs as it is, swept in every result,
// that meets both targets in the most of them (ties: the first of the
// grid), and in how many; nil when no such config was swept in all.
func closest(rs []*Result) (*policy.Policy, int) {
	type count struct{ swept, met int }
	counts := map[policy.Policy]*count{}
	for i := range rs[0].Configs {
		if rs[0].Runnable[i] {
			counts[rs[0].Configs[i].Policy] = &count{}
		}
	}
	for _, r := range rs {
		for i := range r.Configs {
			c := &r.Configs[i]
			if n := counts[c.Policy]; n != nil {
				n.swept++
				if r.FalseRate(c) <= r.MaxFalseRate && r.CensoredShare(c) <= r.MaxCensored {
					n.met++
				}
			}
		}
	}
	var best *policy.Policy
	most := -1
	for i := range rs[0].Configs {
		p := &rs[0].Configs[i].Policy
		if n := counts[*p]; n != nil && n.swept == len(rs) && n.met > most {
			best, most = p, n.met
		}
	}
	return best, most
}

// tally lists the answers with how many groups gave each.
func tally(order []string, n map[string]int) string {
	parts := make([]string, len(order))
	for i, a := range order {
		parts[i] = fmt.Sprintf("%s in %s", a, textout.Count(n[a], "group"))
	}
	return strings.Join(parts, ", ")
}
