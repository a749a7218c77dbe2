package report

import (
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
)

// TestCSVStopReason: a result's stop reason has its column, empty for null.
func TestCSVStopReason(t *testing.T) {
	reason := "score flat over 2 checkpoints"
	col := map[string]int{}
	for i, h := range csvResultHeader {
		col[h] = i
	}
	for _, r := range []ResultJSON{{Policy: "supervisor", StopReason: &reason}, {Policy: "score"}} {
		row := csvResult(&r)
		if len(row) != len(csvResultHeader) {
			t.Fatalf("%d cells for %d columns", len(row), len(csvResultHeader))
		}
		if got, want := row[col["stop_reason"]], optS(r.StopReason); got != want {
			t.Errorf("%s: stop_reason %q, want %q", r.Policy, got, want)
		}
	}
}

// TestCSVTextColumns: in a row, only the text columns are made safe from a
// spreadsheet (textout.CSVText); a negative score stays a number.
func TestCSVTextColumns(t *testing.T) {
	// In a row, only the text columns are changed: a negative score stays a number.
	j := EpisodeJSON{EpisodeHead: EpisodeHead{EpisodeID: "=cmd|' /C calc'!A0", Source: "@x.jsonl"}, EpisodeBody: EpisodeBody{FinalScore: ptr(episode.Score(-3)), EndReason: "none"}}
	row := csvEpisode(&j)
	if row[0] != "'=cmd|' /C calc'!A0" || row[1] != "'@x.jsonl" || row[5] != "-3" {
		t.Errorf("csvEpisode = %q", row)
	}
	loc := "-West\u2028"
	r := ResultJSON{Policy: "score", LocationAtTermination: &loc, ScoreForgone: -5}
	row = csvResult(&r)
	if row[6] != `'-West\u2028` || row[9] != "-5" {
		t.Errorf("csvResult = %q", row)
	}
}
