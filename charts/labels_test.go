package charts

import (
	"encoding/xml"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/lbanalyze/lbanalyze/internal/corpus"
	"github.com/lbanalyze/lbanalyze/internal/metrics"
	"github.com/lbanalyze/lbanalyze/internal/realdata"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/report"
)

// talesNames are the names of the five real TALES rollouts (docs/sources.md):
// the two of the Walkthrough Agent run differ only in their last word, past
// the 40th rune.
var talesNames = []string{
	"gpt-4o c10 / JerichoEnvDetective",
	"gpt-4o c5 / JerichoEnvDetective",
	"gpt-4o-mini c10 / JerichoEnvDetective",
	"gpt-4o-mini c1000 Walkthrough Agent / JerichoEnvDetective",
	"gpt-4o-mini c1000 Walkthrough Agent / JerichoEnvZork1",
}

// TestRowLabels: a label that fits is kept whole; one too long loses its
// middle, between words, and keeps what tells it from the others, whichever
// end that is at.
func TestRowLabels(t *testing.T) {
	mid := func(c string) string { return strings.Repeat("a", 30) + " " + c + " " + strings.Repeat("b", 30) }
	tests := []struct {
		name   string
		labels []string
		want   []string
	}{
		{"TALES: the run at the head, the game at the tail", talesNames, []string{
			"gpt-4o c10 / JerichoEnvDetective",
			"gpt-4o c5 / JerichoEnvDetective",
			"gpt-4o-mini c10 / JerichoEnvDetective",
			// 18 runes of head, "/ JerichoEnvDetective" 21: 40 with the ellipsis.
			"gpt-4o-mini c1000 …/ JerichoEnvDetective",
			// " / JerichoEnvZork1" is 18 runes: both sides end between words.
			"gpt-4o-mini c1000 … / JerichoEnvZork1",
		}},
		{"a repeated id told apart by its source", []string{
			"ep96 [/work/shared/real/zorkgpt2/ep96/burr/default/zorkburr-ep96/log.jsonl]",
			"ep96 [/work/shared/real/zorkgpt2/ep96/run_log_ep96.txt]",
		}, nil},
		// Only the middle differs: the head must reach past the 31 runes the
		// two share, leaving at most 39 − 32 = 7 runes of tail.
		{"they differ in the middle", []string{mid("X"), mid("Y")}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := rowLabels(tc.labels, 40)
			if tc.want != nil && !slices.Equal(got, tc.want) {
				t.Errorf("got %q\nwant %q", got, tc.want)
			}
			seen := map[string]bool{}
			for i, l := range got {
				if n := utf8.RuneCountInString(l); n > 40 {
					t.Errorf("%q: %d runes", l, n)
				}
				if seen[l] {
					t.Errorf("%q names two rows", l)
				}
				seen[l] = true
				if len(tc.labels[i]) <= 40 && l != tc.labels[i] {
					t.Errorf("%q fits, but is shown as %q", tc.labels[i], l)
				}
			}
		})
	}
}

// TestRowLabelsReal: on the real TALES rollouts and ZorkGPT2's ep96 (read
// twice, from its tracker directory and its run log), every row of the
// terminations chart has its own label, which names its run and its game.
func TestRowLabelsReal(t *testing.T) {
	for _, tc := range []struct {
		dir   string
		parts [][]string // the words each episode's label keeps
	}{
		{"tales/logs", nil},
		{"zorkgpt2/ep96", [][]string{{"ep96 [", "-89d64233a23f]"}, {"ep96 [", "/run_log_ep96.txt]"}}}, // the tracker directory and the run log
	} {
		t.Run(tc.dir, func(t *testing.T) {
			dir := realdata.Dir(t, tc.dir)
			c := corpus.Read([]string{dir}, corpus.Options{Jobs: 2})
			if len(c.Episodes) == 0 || len(c.Skipped) > 0 {
				t.Fatalf("%d episodes, skipped %v", len(c.Episodes), c.Skipped)
			}
			none := policy.Policy{Name: policy.None}
			var eps []report.Episode
			for _, ep := range c.Episodes {
				eps = append(eps, report.Analyse(ep, []policy.Policy{none, none}, policy.DefaultTimer(), report.Options{Costs: metrics.Costs{CallsPerTurn: 4}}))
			}
			d := report.NewDataset(none, none, report.Options{Costs: metrics.Costs{CallsPerTurn: 4}}, eps, nil, nil)
			texts := svgTexts(t, Terminations(d))
			var rows []string
			for _, s := range texts {
				if strings.Contains(s, "ep96") || strings.Contains(s, "JerichoEnv") {
					rows = append(rows, s)
				}
			}
			if len(rows) != len(d.Episodes) {
				t.Fatalf("%d row labels, want %d: %q", len(rows), len(d.Episodes), rows)
			}
			if tc.parts == nil { // TALES: the run's model and context, and the game
				for _, name := range talesNames {
					run, game, _ := strings.Cut(name, " / ")
					tc.parts = append(tc.parts, []string{strings.Join(strings.Fields(run)[:2], " ") + " ", game})
				}
			}
			for _, l := range rows {
				if utf8.RuneCountInString(l) > maxRowLabel {
					t.Errorf("%q is longer than %d runes", l, maxRowLabel)
				}
			}
			// Each episode's words are in one row's label, and in no other.
			for _, parts := range tc.parts {
				var in []string
				for _, l := range rows {
					if !slices.ContainsFunc(parts, func(p string) bool { return !strings.Contains(l, p) }) {
						in = append(in, l)
					}
				}
				if len(in) != 1 {
					t.Errorf("%q are in %d row labels %q, want 1 of %q", parts, len(in), in, rows)
				}
			}
		})
	}
}

// svgTexts are the texts of a chart's SVG, in the order drawn.
func svgTexts(t *testing.T, ch *Chart) []string {
	t.Helper()
	var texts []string
	dec := xml.NewDecoder(strings.NewReader(written(t, ch.Write, SVG)))
	inText := false
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return texts
		}
		if err != nil {
			t.Fatal(err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			inText = tok.Name.Local == "text"
		case xml.EndElement:
			inText = false
		case xml.CharData:
			if inText {
				texts = append(texts, string(tok))
			}
		}
	}
}
