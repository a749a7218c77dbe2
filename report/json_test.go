package report

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/lbanalyze/lbanalyze/internal/corpus"
	"github.com/lbanalyze/lbanalyze/internal/metrics"
	"github.com/lbanalyze/lbanalyze/internal/patterns"
	"github.com/lbanalyze/lbanalyze/internal/synth"
	"github.com/lbanalyze/lbanalyze/internal/textout"
	"github.com/lbanalyze/lbanalyze/policy"
)

// WriteJSON, written an episode at a time with its results written directly,
// gives the bytes encoding/json gives for the whole array: on every bundled
// log under a grid of every policy (window objectives, later gains, censored
// and refused settings), and on episodes whose strings need escaping.
func TestWriteJSONEqualsEncodingJSON(t *testing.T) {
	eps := bundledEpisodes(t)
	odd := synth.Steps{ID: "<odd> \"id\" & é\u2028", N: 60, Objectives: map[int][]string{5: {"find the <lamp> & \"sword\"\t→"}}}
	oddEp := odd.Episode()
	for i := range oddEp.Turns {
		oddEp.Turns[i].To = synth.Room{ID: 7 + i%3, Name: []string{"Room <1> & \"2\"", "Cáve  ", "Tab\there"}[i%3]}
	}
	var buf bytes.Buffer
	if _, err := synth.Write(&buf, oddEp); err != nil {
		t.Fatal(err)
	}
	eps = append(eps, corpus.Read([]string{"-"}, corpus.Options{Jobs: 1, Stdin: &buf}).Episodes...)
	var policies []policy.Policy
	for _, name := range policy.Names() {
		for _, w := range []int{3, 12, 40} {
			for _, c := range []int{1, 10} {
				p := policy.Policy{Name: name}.With(policy.MaxTurnsStuck, w).With(policy.CheckInterval, c)
				policies = append(policies, p)
			}
		}
	}
	var all []Episode
	for _, ep := range eps {
		all = append(all, Analyse(ep, policies, policy.DefaultTimer(), Options{Costs: metrics.Costs{CallsPerTurn: 4}}))
	}
	for _, set := range [][]Episode{all, all[:1], all[len(all)-1:], nil} {
		var got, want bytes.Buffer
		if err := WriteEpisodes(&got, "json", set, nil); err != nil {
			t.Fatal(err)
		}
		js := make([]flatEpisode, len(set))
		for i := range set {
			js[i] = flat(set[i].JSON())
		}
		enc := json.NewEncoder(&want)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(js); err != nil {
			t.Fatal(err)
		}
		if len(set) == len(all) && !bytes.Contains(got.Bytes(), []byte(`"location_at_termination": "Tab\there"`)) {
			t.Error("no result names an escaped room: the test misses the escaping path")
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			os.WriteFile(filepath.Join(t.TempDir(), "got.json"), got.Bytes(), 0o644)
			i := 0
			for i < min(got.Len(), want.Len()) && got.Bytes()[i] == want.Bytes()[i] {
				i++
			}
			t.Fatalf("%d episodes: WriteJSON differs from encoding/json at byte %d:\ngot  …%s…\nwant …%s…", len(set), i,
				got.Bytes()[max(0, i-200):min(got.Len(), i+100)], want.Bytes()[max(0, i-200):min(want.Len(), i+100)])
		}
	}
}

// flatEpisode is a ZorkGPT episode's JSON as a plain struct, for
// encoding/json to encode without EpisodeJSON's own code: its facts, era and
// recorded_loop_break, after its head.
type flatEpisode struct {
	EpisodeHead
	Era               *string `json:"era"`
	RecordedLoopBreak *string `json:"recorded_loop_break"`
	EpisodeBody
	Patterns *patterns.Analysis `json:"patterns,omitempty"`
	Results  []ResultJSON       `json:"results"`
}

func flat(j EpisodeJSON) flatEpisode {
	f := flatEpisode{EpisodeHead: j.EpisodeHead, EpisodeBody: j.EpisodeBody, Patterns: j.Patterns, Results: j.Results}
	if len(j.Facts) != 2 || j.Facts[0].Key != "era" || j.Facts[1].Key != "recorded_loop_break" {
		panic("not the facts of a ZorkGPT log")
	}
	f.Era, f.RecordedLoopBreak = j.Facts[0].Value, j.Facts[1].Value
	return f
}

// The order episodes arrive in changes nothing: the dataset sorts them.
func TestDatasetIndependentOfOrder(t *testing.T) {
	var eps, rev []Episode
	for _, ep := range bundledEpisodes(t)[:12] {
		eps = append(eps, Analyse(ep, []policy.Policy{score, sor}, policy.DefaultTimer(), Options{Costs: metrics.Costs{CallsPerTurn: 4}}))
	}
	for i := range eps {
		rev = append(rev, eps[len(eps)-1-i])
	}
	var a, b bytes.Buffer
	WriteDataset(&a, "json", NewDataset(score, sor, Options{Costs: metrics.Costs{CallsPerTurn: 4}}, eps, nil, nil), false, nil)
	WriteDataset(&b, "json", NewDataset(score, sor, Options{Costs: metrics.Costs{CallsPerTurn: 4}}, rev, nil, nil), false, nil)
	if a.Len() == 0 || !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Errorf("the order of the episodes changes the dataset (%d bytes, %d reversed)", a.Len(), b.Len())
	}
}

// Batch's JSON, its episodes written one at a time in their place, is the
// bytes of the object encoded whole: of a dataset of many episodes, of one,
// as a summary, and of groups.
func TestDatasetJSONAsWhole(t *testing.T) {
	opts := Options{Costs: metrics.Costs{CallsPerTurn: 4}}
	var eps []Episode
	for _, ep := range bundledEpisodes(t)[:6] {
		eps = append(eps, Analyse(ep, []policy.Policy{score, sor}, policy.DefaultTimer(), opts).Summarised())
	}
	whole := func(d *Dataset, summary bool) DatasetJSON {
		j := d.json()
		for i := range d.Episodes {
			j.Episodes = append(j.Episodes, d.episodeJSON(i))
		}
		if summary {
			j.Episodes = nil
		}
		return j
	}
	many, one := NewDataset(score, sor, opts, eps[:5], nil, nil), NewDataset(score, sor, opts, eps[5:], nil, nil)
	groups := []Group{{"first", "ZorkGPT", many}, {"second", "ZorkGPT", one}}
	for _, summary := range []bool{false, true} {
		for _, d := range []*Dataset{many, one} {
			var got bytes.Buffer
			if err := WriteDataset(&got, "json", d, summary, nil); err != nil {
				t.Fatal(err)
			}
			want, err := textout.IndentedJSON(whole(d, summary), "")
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), append(want, '\n')) {
				t.Errorf("%d episodes, summary %v: the JSON differs from the object encoded whole:\n%s", len(d.Episodes), summary, got.Bytes())
			}
		}
		var got bytes.Buffer
		if err := WriteGroups(&got, "json", "dir:1", groups, Inputs{}, summary, nil); err != nil {
			t.Fatal(err)
		}
		out := groupsJSON{By: "dir:1", Skipped: []Skip{}, SkippedDirectories: []string{}}
		for _, g := range groups {
			out.Groups = append(out.Groups, groupJSON{g.Name, g.System, g.Dataset.Headline(), whole(g.Dataset, summary)})
		}
		out.OneSetting.ServesAll, out.OneSetting.Says = OneSetting(groups)
		want, err := textout.IndentedJSON(out, "")
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), append(want, '\n')) {
			t.Errorf("groups, summary %v: the JSON differs from the object encoded whole:\n%s", summary, got.Bytes())
		}
	}
}
