package report

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/internal/metrics"
	"github.com/lbanalyze/lbanalyze/policy"
)

// dataset is a batch whose one headline figure, turns saved, changes by an
// interval ci (nil: too few episodes for one).
func dataset(ci *[2]float64) *Dataset {
	return &Dataset{Baseline: policy.Policy{Name: policy.None}, After: policy.Policy{Name: policy.Increase},
		Metrics: []metrics.Metric{
			{Label: "turns saved", Headline: true, Better: 1, BaselineOK: true, AfterOK: true, CI: ci},
			// Not a headline figure: never counts.
			{Label: "LLM calls saved", Better: 1, BaselineOK: true, AfterOK: true, CI: &[2]float64{-9, -1}},
		}}
}

// The after policy serves every group when it is significantly worse on no
// headline figure in any; a group too small for intervals cannot tell, and
// groups of two systems never share one setting.
func TestOneSetting(t *testing.T) {
	better, worse, within := &[2]float64{1, 5}, &[2]float64{-5, -1}, &[2]float64{-1, 2}
	for _, c := range []struct {
		name   string
		groups []Group
		serves string // "yes", "no" or "" (cannot tell)
		says   string
	}{
		{"all serve", []Group{{"a", "your harness", dataset(better)}, {"b", "your harness", dataset(within)}}, "yes",
			"One setting for both groups? After increase 40/10 is significantly worse than baseline none on no headline figure in any group."},
		{"one worse", []Group{{"a", "your harness", dataset(better)}, {"b", "your harness", dataset(worse)}, {"c", "your harness", dataset(nil)}}, "no",
			"One setting for all 3 groups? No: after increase 40/10 is significantly worse than baseline none in 1 of 2 groups: b (turns saved); 1 group has too few episodes to tell: c."},
		{"too few", []Group{{"a", "your harness", dataset(nil)}}, "",
			"One setting for 1 group? Cannot tell: every group has too few episodes for an interval (5 needed)."},
		{"two systems", []Group{{"ZorkGPT", "ZorkGPT", dataset(better)}, {"your harness", "your harness", dataset(better)}}, "",
			"One setting for both groups? No: their logs are of 2 systems, each compared on its own rules above, and each runs its own setting."},
	} {
		serves, says := OneSetting(c.groups)
		got := ""
		if serves != nil {
			got = map[bool]string{true: "yes", false: "no"}[*serves]
		}
		if got != c.serves || says != c.says {
			t.Errorf("%s: serves %q, says\n%s\nwant %q,\n%s", c.name, got, says, c.serves, c.says)
		}
	}
}

// Grouped CSV is one table: the group first, then batch's columns, a row an
// episode of each group in turn.
func TestGroupsCSV(t *testing.T) {
	pair := []policy.Policy{{Name: policy.Score}, {Name: policy.ScoreOrObjective}}
	eps := bundledEpisodes(t)[:2]
	var groups []Group
	for i, name := range []string{"first", "second, with a comma"} {
		d := NewDataset(pair[0], pair[1], Options{}, []Episode{Analyse(eps[i], pair, policy.DefaultTimer(), Options{})}, nil, nil)
		groups = append(groups, Group{name, "ZorkGPT", d})
	}
	var b bytes.Buffer
	if err := WriteGroups(&b, "csv", "dir:1", groups, Inputs{}, false, nil); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3 || rows[0][0] != "group" || rows[1][0] != "first" || rows[2][0] != "second, with a comma" ||
		strings.Join(rows[0][1:], ",") != strings.Join(datasetCSVHeader(), ",") {
		t.Errorf("rows %q", rows)
	}
}
