package report

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/internal/metrics"
	"github.com/lbanalyze/lbanalyze/internal/textout"
	"github.com/lbanalyze/lbanalyze/policy"
)

// Reports rendered at once, in any order, are written in theirs, as
// WriteEpisodes writes them: in every format, small ones held until their
// turn, and in JSON and CSV a large one (a grid's, drawn as quickly as these
// formats draw it, past a limit of 1 MiB held) written straight out once its
// turn comes; with a file of several episodes among them, whose end is said.
func TestReportsWrittenInTurn(t *testing.T) {
	eps := bundledEpisodes(t)[:4]
	two := *eps[2] // a second episode of the third one's file
	two.Segment = 2
	eps[3] = &two
	var large []policy.Policy
	for w := 1; w <= 100; w++ {
		for i := 1; i <= 80; i++ {
			large = append(large, policy.Policy{Name: policy.Score}.WithTimer(policy.Timer{MaxTurnsStuck: w, CheckInterval: i}))
		}
	}
	opts := Options{Costs: metrics.Costs{CallsPerTurn: 4, CostPerCall: 0.01}}
	grid := AnalyseGrid(eps[1], policy.List(large...), policy.DefaultTimer(), opts)
	for _, format := range textout.Formats {
		var all []Episode
		for _, ep := range eps {
			all = append(all, Analyse(ep, []policy.Policy{score, sor}, policy.DefaultTimer(), opts))
		}
		if format == "json" || format == "csv" {
			all[1] = grid
		}
		var want, got bytes.Buffer
		if err := WriteEpisodes(&want, format, all, nil); err != nil {
			t.Fatal(err)
		}
		ew, err := NewEpisodeWriter(&got, format)
		if err != nil {
			t.Fatal(err)
		}
		ew.limit = 1 << 20
		reports := make([]*Report, len(all))
		for i := range all {
			reports[i] = ew.Report(all[i].Ep)
		}
		for i := len(all) - 1; i >= 0; i-- { // the last first
			go reports[i].Render(&all[i])
		}
		for _, r := range reports {
			if err := ew.Write(r); err != nil {
				t.Fatal(err)
			}
		}
		if err := ew.Close(); err != nil {
			t.Fatal(err)
		}
		if held := ew.held.Load(); held != 0 {
			t.Errorf("%s: %d bytes still counted as held once every report is written", format, held)
		}
		var one bytes.Buffer
		WriteEpisodes(&one, format, all[1:2], nil)
		if all[1].Results() > 2 && one.Len() <= int(ew.limit) || all[1].Results() == 2 && !strings.Contains(want.String(), "2 episodes") {
			t.Fatalf("%s: a report of %d bytes, within the limit; or no file of two episodes said", format, one.Len())
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("%s: rendered at once, %d bytes; WriteEpisodes, %d", format, got.Len(), want.Len())
		}
	}
}

// A cost that is no number fails an episode's JSON, however many results it
// has before the one that fails: the episodes before it are written whole,
// nothing after it, and the output fails.
func TestWriteJSONFailsTheEpisode(t *testing.T) {
	eps := bundledEpisodes(t)[:3]
	finite := Options{Costs: metrics.Costs{CallsPerTurn: 4, CostPerCall: 0.01}}
	ok := Analyse(eps[0], []policy.Policy{score, sor}, policy.DefaultTimer(), finite)
	after := Analyse(eps[2], []policy.Policy{score, sor}, policy.DefaultTimer(), finite)
	var whole bytes.Buffer
	if err := WriteEpisodes(&whole, "json", []Episode{ok}, nil); err != nil {
		t.Fatal(err)
	}
	want := strings.TrimSuffix(whole.String(), "\n]\n") + ",\n"
	// Many results that do not stop (0 calls saved: cost 0), then one that
	// does and costs +Inf: past jsonFlushAt bytes of results.
	var policies []policy.Policy
	for w := range 300 {
		policies = append(policies, policy.Policy{Name: policy.Score}.WithTimer(policy.Timer{MaxTurnsStuck: 10_000 + w, CheckInterval: 1}))
	}
	policies = append(policies, policy.Policy{Name: policy.Score}.WithTimer(policy.Timer{MaxTurnsStuck: 3, CheckInterval: 1}))
	for _, bad := range []Episode{
		Analyse(eps[1], []policy.Policy{score, sor}, policy.DefaultTimer(), Options{Costs: metrics.Costs{CallsPerTurn: 4, CostPerCall: math.Inf(1)}}),
		Analyse(eps[1], policies, policy.DefaultTimer(), Options{Costs: metrics.Costs{CallsPerTurn: 4, CostPerCall: math.MaxFloat64}}),
	} {
		var got bytes.Buffer
		if err := WriteEpisodes(&got, "json", []Episode{ok, bad, after}, nil); err == nil {
			t.Fatal("no error")
		}
		rest, whole := strings.CutPrefix(got.String(), want)
		if !whole || !strings.HasPrefix(rest, `  {
    "episode_id": "`+bad.Ep.ID) || strings.Contains(rest, after.Ep.ID) || strings.Contains(rest, "Inf") {
			t.Errorf("%d results: wrote %d bytes: not the first episode and a comma, then at most part of the second:\n%.300s",
				len(bad.Outcomes), got.Len(), rest)
		}
	}
}
