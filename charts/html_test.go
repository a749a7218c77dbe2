package charts

import (
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/internal/metrics"
	"github.com/lbanalyze/lbanalyze/internal/textout"
	"github.com/lbanalyze/lbanalyze/report"
)

// TestHTMLReport checks the report's structure: one row, one section and
// one timeline an episode, every link landing on an element of the page,
// and nothing fetched from anywhere.
func TestHTMLReport(t *testing.T) {
	d := dataset(t, 12)
	page := written(t, WriteHTML, d)
	if written(t, WriteHTML, d) != page {
		t.Error("two renderings differ")
	}

	rescued, still, fresh := d.Review()
	for what, want := range map[string]int{
		`<section id="ep-`:      len(d.Episodes),
		`<tr id="row-ep-`:       len(d.Episodes),
		"<svg":                  len(d.Episodes) + 2, // and the two dataset charts
		`<tr><td><a href="#ep-`: len(rescued) + len(still) + len(fresh),
		`<table id="episodes-table" class="sortable">`: 1,
	} {
		if got := strings.Count(page, what); got != want {
			t.Errorf("%d × %q, want %d", got, what, want)
		}
	}
	metrics := page[strings.Index(page, `<table id="metrics-table">`):]
	metrics = metrics[:strings.Index(metrics, "</table>")]
	if got := strings.Count(metrics, "<tr>") - 1; got != len(d.Metrics) { // less the header
		t.Errorf("%d metric rows, want %d", got, len(d.Metrics))
	}

	ids := map[string]bool{}
	for _, m := range regexp.MustCompile(` id="([^"]+)"`).FindAllStringSubmatch(page, -1) {
		ids[m[1]] = true
	}
	for _, m := range regexp.MustCompile(`href="([^"]*)"`).FindAllStringSubmatch(page, -1) {
		if !strings.HasPrefix(m[1], "#") || !ids[m[1][1:]] {
			t.Errorf("link %q leads nowhere on the page", m[1])
		}
	}
	// Self-contained: the only URLs are the SVG namespaces, which are names,
	// not addresses anything fetches.
	rest := strings.NewReplacer(`xmlns="http://www.w3.org/2000/svg"`, "", `xmlns:xlink="http://www.w3.org/1999/xlink"`, "").Replace(page)
	for _, bad := range []string{"http:", "https:", "src=", "<link", "@import", "url(", "@font-face"} {
		if i := strings.Index(rest, bad); i >= 0 {
			t.Errorf("the page holds %q: %q", bad, rest[max(0, i-40):min(len(rest), i+40)])
		}
	}
	for _, want := range []string{hexColor(PolicyColor(d.Baseline.Name)), hexColor(PolicyColor(d.After.Name))} {
		if !strings.Contains(page, "border-top: 4px solid "+want) {
			t.Errorf("the page does not use the policy colour %s", want)
		}
	}
}

// TestHTMLShowsLogTextAsText: the page shows a log's id, source, room and
// objective as the text output does, control characters, bidi controls and
// line separators as visible escapes (html/template escapes < & " after):
// no rune of them reaches the page, the charts' SVG included.
func TestHTMLShowsLogTextAsText(t *testing.T) {
	const id = "![i](http://host/x.png)\u202egpj.exe\x1b]0;t\x07\x00\r"
	p := plan{id: id, source: "logs/\u2028a\x1b.jsonl", n: 100, changes: map[int]int{75: 10},
		objectives: map[int]string{30: "Open\x1b[2J \u202e the <b>window</b>\n"}}
	e := p.analyse(scorePolicy, v2Policy)
	for i := range e.Ep.Turns {
		e.Ep.Turns[i].Location = "West\u2029of House\u2066"
	}
	d := report.NewDataset(scorePolicy, v2Policy, report.Options{Costs: metrics.Costs{CallsPerTurn: 4}}, []report.Episode{e, premature.analyse(scorePolicy, v2Policy)}, nil, nil)
	page := written(t, WriteHTML, d)
	for i, r := range page {
		if textout.Unprintable(r) && r != '\n' {
			t.Fatalf("the page holds %U: %q", r, page[max(0, i-60):min(len(page), i+60)])
		}
	}
	for text, want := range map[string]int{
		`![i](http://host/x.png)\u202egpj.exe\x1b]0;t\x07\x00\r`: 3, // the review list, the episode table, the section's heading
		`logs/\u2028a\x1b.jsonl`:                                 1, // the section's source
		`Open\x1b[2J \u202e the &lt;b&gt;window&lt;/b&gt;\n`:     1, // the objectives completed
	} {
		if got := strings.Count(page, text); got != want {
			t.Errorf("%d × %q in the page, want %d", got, text, want)
		}
	}
}

// TestHTMLHeadline: the page opens with the bottom line, batch's sentence
// (report.Dataset.Headline), under the title and before the metrics.
func TestHTMLHeadline(t *testing.T) {
	d := dataset(t, 12)
	page := written(t, WriteHTML, d)
	want := `<p class="headline">` + html.EscapeString(d.Headline()) + "</p>"
	if !strings.HasPrefix(d.Headline(), "Over 12 episodes, after score-or-objective 40/10 against baseline score 40/10: ") {
		t.Errorf("the headline is %q", d.Headline())
	}
	at, title, metrics := strings.Index(page, want), strings.Index(page, "<h1>"), strings.Index(page, `<table id="metrics-table">`)
	if strings.Count(page, want) != 1 || !(title < at && at < metrics) {
		t.Errorf("the page holds %q %d times, at %d (the title at %d, the metrics at %d)", want, strings.Count(page, want), at, title, metrics)
	}
}
