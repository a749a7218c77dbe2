package sweep

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"slices"
	"testing"

	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/system"
)

// made is a result over 10 episodes of the configs score 20/10, 30/10 and
// 40/10, each with false terminations false[i] (the target: at most 0.5 of
// the 10 episodes, so 0 meets it), none censored; the answer is answer (-1:
// none).
func made(sys *system.System, false3 [3]int, answer int) *Result {
	r := &Result{Options: Options{MaxFalseRate: 0.05, MaxCensored: 0.10, System: sys}, N: 10}
	for i, w := range []int{20, 30, 40} {
		p := policy.Policy{Name: policy.Score}.With(policy.MaxTurnsStuck, w).With(policy.CheckInterval, 10)
		r.Configs = append(r.Configs, Config{Policy: p, Tally: Tally{FalseTerminations: false3[i]}})
		r.Runnable = append(r.Runnable, true)
	}
	r.Current = &Config{Policy: policy.Policy{Name: policy.None}}
	if answer >= 0 {
		r.Answer = &Answer{Choice: Choice{Config: answer}}
	}
	return r
}

// One setting serves every group when one config the system runs meets both
// targets in each group with an answer: the answer of each, or another; else
// the config that meets them in the most comes closest. Groups without an
// answer are named, and logs of two systems never share one setting.
func TestOneSetting(t *testing.T) {
	h := system.Harness
	for _, c := range []struct {
		name   string
		groups []Group
		serves string
		says   string
	}{
		{"the same answer", []Group{{"a", made(h, [3]int{0, 0, 0}, 0)}, {"b", made(h, [3]int{0, 1, 0}, 0)}}, "score 20/10",
			"One setting for both groups? Yes: score 20/10, the answer in every group with one."},
		{"answers differ", []Group{{"a", made(h, [3]int{0, 0, 1}, 2)}, {"b", made(h, [3]int{1, 0, 0}, 1)}}, "score 30/10",
			"One setting for both groups? Yes: score 30/10 meets both targets in every group with an answer, though their answers differ (score 40/10 in 1 group, score 30/10 in 1 group)."},
		{"none in all", []Group{{"a", made(h, [3]int{0, 1, 1}, 0)}, {"b", made(h, [3]int{1, 1, 0}, 2)}, {"c", made(h, [3]int{0, 1, 1}, 0)},
			{"d", made(h, [3]int{0, 0, 0}, -1)}}, "",
			"One setting for all 4 groups? No: no config meets both targets in every group with an answer; score 20/10 comes closest, in 2 of 3; their answers: score 20/10 in 2 groups, score 40/10 in 1 group; 1 group with no answer: d."},
		{"no answer", []Group{{"a", made(h, [3]int{0, 0, 0}, -1)}}, "",
			"One setting for 1 group? Cannot tell: no group has an answer (each says why above)."},
		{"two systems", []Group{{"ZorkGPT", made(system.ZorkGPT, [3]int{0, 0, 0}, 0)}, {"your harness", made(h, [3]int{0, 0, 0}, 0)}}, "",
			"One setting for both groups? No: their logs are of 2 systems (ZorkGPT, your harness), each answered on its own above, and each runs its own setting."},
	} {
		serves, says := OneSetting(c.groups)
		got := ""
		if serves != nil {
			got = serves.String()
		}
		if got != c.serves || says != c.says {
			t.Errorf("%s: serves %q, says\n%s\nwant %q,\n%s", c.name, got, says, c.serves, c.says)
		}
	}
}

// The JSON of groups is an object of "groups", each a sweep's object with
// its name first; the CSV one table of every group's configs.
func TestWriteGroupsJSONAndCSV(t *testing.T) {
	eps := bundled(t)
	grid := defaultGrid()[:30]
	groups := []Group{{"first", Run(eps[:40], grid, current, opts())}, {"second", Run(eps[40:], grid, current, opts())}}
	var b bytes.Buffer
	if err := WriteGroups(&b, "json", "dir:1", groups, Layout{}); err != nil {
		t.Fatal(err)
	}
	var got struct {
		By     string `json:"by"`
		Groups []struct {
			Name    string          `json:"name"`
			N       int             `json:"n"`
			Answer  json.RawMessage `json:"answer"`
			Configs []any           `json:"configs"`
		} `json:"groups"`
		OneSetting struct {
			Says string `json:"says"`
		} `json:"one_setting"`
	}
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatalf("%v:\n%.400s", err, b.String())
	}
	_, says := OneSetting(groups)
	if got.By != "dir:1" || len(got.Groups) != 2 || got.Groups[0].Name != "first" || got.Groups[0].N != 40 || got.Groups[1].N != 35 ||
		len(got.Groups[1].Configs) != 30 || len(got.Groups[0].Answer) == 0 || got.OneSetting.Says != says {
		t.Errorf("%+v", got)
	}
	b.Reset()
	if err := WriteGroups(&b, "csv", "dir:1", groups, Layout{}); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 61 || !slices.Equal(rows[0], append([]string{"group"}, groups[0].Result.columns()...)) || rows[1][0] != "first" || rows[60][0] != "second" {
		t.Errorf("%d rows, header %q", len(rows), rows[0])
	}
}
