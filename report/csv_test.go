package report

import (
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/policy"
)

// TestCSVSettings: the settings cell spells a policy's own settings as
// --policy takes them, with the defaults of docs/policies.md ("Settings"),
// and reads back to the same policy.
func TestCSVSettings(t *testing.T) {
	for _, c := range []struct{ spec, want string }{
		{"score", ""},
		{"window:30/5", ""},
		{"patience", "objective_patience=0:room_patience=0:score_mode=changes:min_delta=1:min_turns=0"},
		{"patience:40/10:room_patience=30:min_delta=5", "objective_patience=0:room_patience=30:score_mode=changes:min_delta=5:min_turns=0"},
		{"increase:min_turns=100", "min_delta=1:min_turns=100"},
		{"supervisor:checkpoint=50:min_critic=0.4", "checkpoint=50:flat_checkpoints=2:min_critic=0.4:max_rejected_turns=7:spiral_rejections=3:room_streak=10"},
	} {
		p, err := policy.Parse(c.spec, nil)
		if err != nil {
			t.Fatal(err)
		}
		got := SettingsOf(p).String()
		if got != c.want {
			t.Errorf("%s: settings %q, want %q", c.spec, got, c.want)
		}
		if got == "" {
			continue
		}
		// Pasted after the name, the cell gives the same settings back.
		back, err := policy.Parse(string(p.Name)+":"+got, nil)
		if err != nil || SettingsOf(back).String() != got {
			t.Errorf("%s: %q reads back as %q (%v)", c.spec, got, SettingsOf(back).String(), err)
		}
	}
}

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
	if row[9] != `'-West\u2028` || row[12] != "-5" {
		t.Errorf("csvResult = %q", row)
	}
}
