package report

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/corpus"
	"github.com/lbanalyze/lbanalyze/internal/synth"
	"github.com/lbanalyze/lbanalyze/policy"
)

// segmentedEpisodes are the episodes of one file of three segments.
func segmentedEpisodes(t *testing.T) []*episode.Episode {
	var buf bytes.Buffer
	for i, n := range []int{30, 70, 45} {
		if _, err := synth.Write(&buf, synth.Steps{N: n, ID: fmt.Sprintf("2025-11-12T1%d:00:00", i), Changes: map[int]int{10: 5}}.Episode()); err != nil {
			t.Fatal(err)
		}
	}
	eps := corpus.Read([]string{"-"}, corpus.Options{Jobs: 1, Stdin: &buf}).Episodes
	if len(eps) != 3 || eps[2].Name() != "2025-11-12T12:00:00 (segment 3 of 3)" {
		t.Fatalf("%d episodes", len(eps))
	}
	return eps
}

// An episode rendered before its file's segments are counted, and written
// once they are, is written as WriteEpisodes writes it: in every format, with
// a few results and with many (which JSON writes out as it goes, and which
// are held compressed a block at a time).
func TestRenderBeforeSegmentsCounted(t *testing.T) {
	eps := append(bundledEpisodes(t)[:20], segmentedEpisodes(t)...)
	var grid []policy.Policy
	for w := 3; w < 200; w++ {
		grid = append(grid, policy.Policy{Name: policy.Window}.WithTimer(policy.Timer{MaxTurnsStuck: w, CheckInterval: 1}))
	}
	for _, policies := range [][]policy.Policy{{score, sor}, grid} {
		var all []Episode
		for _, ep := range eps {
			all = append(all, Analyse(ep, policies, policy.DefaultTimer(), Options{CallsPerTurn: 4, CostPerCall: 0.01}))
		}
		for _, format := range Formats {
			var want, got bytes.Buffer
			if err := WriteEpisodes(&want, format, all, nil); err != nil {
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

// A cost that is no number fails an episode's JSON before any of it is
// written: the episodes before it are written, and the comma after them;
// nothing of it, however many results it has before the one that fails.
func TestWriteJSONFailsBeforeTheEpisode(t *testing.T) {
	eps := bundledEpisodes(t)[:2]
	finite := Options{CallsPerTurn: 4, CostPerCall: 0.01}
	ok := Analyse(eps[0], []policy.Policy{score, sor}, policy.DefaultTimer(), finite)
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
		Analyse(eps[1], []policy.Policy{score, sor}, policy.DefaultTimer(), Options{CallsPerTurn: 4, CostPerCall: math.Inf(1)}),
		Analyse(eps[1], policies, policy.DefaultTimer(), Options{CallsPerTurn: 4, CostPerCall: math.MaxFloat64}),
	} {
		var got bytes.Buffer
		if err := WriteEpisodes(&got, "json", []Episode{ok, bad}, nil); err == nil {
			t.Fatal("no error")
		}
		if got.String() != want {
			t.Errorf("%d results: wrote %d bytes, want %d: the first episode and a comma", len(bad.Outcomes), got.Len(), len(want))
		}
	}
}
