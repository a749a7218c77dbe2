package report

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/replay"
	"github.com/lbanalyze/lbanalyze/synth"
)

// segmentedEpisodes are the episodes of one file of three segments.
func segmentedEpisodes(t *testing.T) []*replay.Episode {
	var buf bytes.Buffer
	for i, n := range []int{30, 70, 45} {
		if _, err := synth.Write(&buf, synth.Steps{N: n, ID: fmt.Sprintf("2025-11-12T1%d:00:00", i), Changes: map[int]int{10: 5}}.Episode()); err != nil {
			t.Fatal(err)
		}
	}
	lg := replay.Read(&buf, "three.jsonl", replay.Options{})
	if len(lg.Episodes) != 3 || lg.Episodes[2].Name() != "2025-11-12T12:00:00 (segment 3 of 3)" {
		t.Fatalf("%d episodes", len(lg.Episodes))
	}
	return lg.Episodes
}

// An episode rendered before its file's segments are counted, and written
// once they are, is written as WriteEpisodes writes it: in every format, with
// a few results and with many (which JSON writes out as it goes, and which
// are held compressed a block at a time).
func TestRenderBeforeSegmentsCounted(t *testing.T) {
	eps := append(bundledEpisodes(t)[:20], segmentedEpisodes(t)...)
	var grid []policy.Policy
	for w := 3; w < 200; w++ {
		grid = append(grid, policy.Policy{Name: policy.Window, Params: policy.Params{MaxTurnsStuck: w, CheckInterval: 1}})
	}
	for _, policies := range [][]policy.Policy{{score, sor}, grid} {
		var all []Episode
		for _, ep := range eps {
			all = append(all, AnalyseWith(ep, policies, policy.DefaultParams(), Options{CallsPerTurn: 4, CostPerCall: 0.01}))
		}
		for _, format := range Formats {
			var want, got bytes.Buffer
			if err := WriteEpisodes(&want, format, all); err != nil {
				t.Fatal(err)
			}
			ew, err := NewEpisodeWriter(&got, format)
			if err != nil {
				t.Fatal(err)
			}
			var held []*Rendered
			for i := range all {
				ep := *all[i].Ep // as Stream hands it over: Segments unknown
				ep.Segments = 0
				e := all[i]
				e.Ep = &ep
				held = append(held, ew.Render(&e))
			}
			for i, r := range held {
				if err := ew.Write(r, all[i].Ep.Segments); err != nil {
					t.Fatal(err)
				}
			}
			if err := ew.Close(); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(want.String(), "segment 3 of 3") && format != "csv" && format != "json" {
				t.Fatalf("%s: no episode named by its segment", format)
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Errorf("%s, %d policies: rendered early, %d bytes; WriteEpisodes, %d", format, len(policies), got.Len(), want.Len())
			}
		}
	}
}

// A cost that is no number fails an episode's JSON where the results were
// last written out: the episodes before it, then its results up to the last
// write (every jsonFlushAt bytes), are written; nothing after.
func TestWriteJSONFailsWhereItWroteLast(t *testing.T) {
	eps := bundledEpisodes(t)[:2]
	finite := Options{CallsPerTurn: 4, CostPerCall: 0.01}
	ok := AnalyseWith(eps[0], []policy.Policy{score, sor}, policy.DefaultParams(), finite)
	var whole bytes.Buffer
	if err := WriteJSON(&whole, []Episode{ok}); err != nil {
		t.Fatal(err)
	}
	// A few results: the episode before, and the comma after it.
	bad := AnalyseWith(eps[1], []policy.Policy{score, sor}, policy.DefaultParams(), Options{CallsPerTurn: 4, CostPerCall: math.Inf(1)})
	var got bytes.Buffer
	if err := WriteJSON(&got, []Episode{ok, bad}); err == nil {
		t.Fatal("no error")
	}
	if want := strings.TrimSuffix(whole.String(), "\n]\n") + ",\n"; got.String() != want {
		t.Errorf("wrote %d bytes, want %d: the first episode and a comma", got.Len(), len(want))
	}

	// Many results that do not stop, then one that does and costs +Inf:
	// written up to the end of a result, at least jsonFlushAt bytes in.
	var policies []policy.Policy
	for w := range 300 {
		policies = append(policies, policy.Policy{Name: policy.Score, Params: policy.Params{MaxTurnsStuck: 10_000 + w, CheckInterval: 1}})
	}
	policies = append(policies, policy.Policy{Name: policy.Score, Params: policy.Params{MaxTurnsStuck: 3, CheckInterval: 1}})
	bad = AnalyseWith(eps[1], policies, policy.DefaultParams(), Options{CallsPerTurn: 4, CostPerCall: math.MaxFloat64}) // 0 calls: 0; more: +Inf
	good := AnalyseWith(eps[1], policies, policy.DefaultParams(), finite)
	if !bad.Outcomes[300].Terminated() {
		t.Fatal("the last policy does not stop the episode")
	}
	var all bytes.Buffer
	if err := WriteJSON(&all, []Episode{good}); err != nil {
		t.Fatal(err)
	}
	got.Reset()
	if err := WriteJSON(&got, []Episode{bad}); err == nil {
		t.Fatal("no error")
	}
	failed := bytes.Index(all.Bytes(), []byte(`"max_turns_stuck": 3,`))
	if !bytes.HasPrefix(all.Bytes(), got.Bytes()) || !bytes.HasSuffix(got.Bytes(), []byte("      },\n")) ||
		got.Len() < jsonFlushAt || failed-got.Len() >= jsonFlushAt {
		t.Errorf("wrote %d bytes of %d, the failing result at %d: want a prefix ending with a result, between %d and %d bytes", got.Len(), all.Len(), failed, failed-jsonFlushAt, failed)
	}
}
