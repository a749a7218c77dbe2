package charts

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/replay"
	"github.com/lbanalyze/lbanalyze/report"
)

//go:embed report.html.tmpl
var reportHTML string

// reportTemplate is parsed on first use, not at start: every command would
// pay for it otherwise.
var reportTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("report").Parse(reportHTML))
})

// htmlReport is what the report template shows. Every string in it is
// escaped by html/template; the charts are SVG written by vgsvg, which
// escapes every text it writes, and are the only template.HTML.
type htmlReport struct {
	Title           string
	Summary         []string
	Baseline, After htmlPolicy
	MetricsTitle    string
	MetricHeader    []string
	MetricRows      [][]string
	ReviewSummary   string
	ReviewGroups    []reviewGroup
	Charts          []template.HTML
	EpisodeHeader   []string
	Numeric         []bool // the per-episode columns that hold numbers, aligned right
	Episodes        []htmlEpisode
}

type htmlPolicy struct {
	Policy string
	Color  template.CSS
}

type reviewGroup struct {
	Title string
	Items []reviewItem
}

type reviewItem struct {
	Anchor, Label, Evidence string
}

type htmlEpisode struct {
	Anchor     string // the id of its timeline's section; its table row is row-Anchor
	Label      string
	Source     string
	Cells      []string
	Objectives []replay.Completion
	Timeline   template.HTML
}

// WriteHTML writes the report of a batch analysis as one self-contained HTML
// page: no network, no external script, style or font. It holds the summary,
// the metrics table, the review list, the dataset charts, the per-episode
// table (sorted by clicking a header) and every episode's score timeline
// (linked from its row), the charts inline as SVG.
func WriteHTML(w io.Writer, d *report.Dataset) error {
	summary, metricsTitle := d.Summary(), d.MetricsTitle()
	r := htmlReport{
		Title:        fmt.Sprintf("Loop-break replay: baseline %s vs after %s", d.Baseline, d.After),
		Summary:      summary,
		Baseline:     colorOf(d.Baseline),
		After:        colorOf(d.After),
		MetricsTitle: metricsTitle,
	}
	r.MetricHeader, r.MetricRows = d.MetricTable()
	var rows [][]string
	r.EpisodeHeader, rows = d.EpisodeTable()
	r.Numeric = numericColumns(len(r.EpisodeHeader), rows)

	anchor := map[*report.Episode]string{}
	for i := range d.Episodes {
		e := &d.Episodes[i]
		anchor[e] = "ep-" + strconv.Itoa(i+1)
		svg, err := inlineSVG(Timeline(e))
		if err != nil {
			return err
		}
		r.Episodes = append(r.Episodes, htmlEpisode{Anchor: anchor[e], Label: d.Label(e), Source: e.Ep.Source,
			Cells: rows[i], Objectives: e.Ep.Objectives, Timeline: svg})
	}

	reviewSummary, groups := d.ReviewList()
	r.ReviewSummary = reviewSummary
	if rescued, still := d.Review(); len(groups) > 0 {
		r.ReviewSummary = fmt.Sprintf("The baseline's %d false-termination candidates: the after policy rescues %d and still stops %d.",
			len(rescued)+len(still), len(rescued), len(still))
	}
	for _, g := range groups {
		group := reviewGroup{Title: g.Title}
		for _, e := range g.Episodes {
			group.Items = append(group.Items, reviewItem{Anchor: anchor[e], Label: d.Label(e), Evidence: report.Evidence(e)})
		}
		r.ReviewGroups = append(r.ReviewGroups, group)
	}

	for _, ch := range []*Chart{Terminations(d), TurnsSaved(d)} {
		svg, err := inlineSVG(ch)
		if err != nil {
			return err
		}
		r.Charts = append(r.Charts, svg)
	}
	return reportTemplate().Execute(w, r)
}

func colorOf(p policy.Policy) htmlPolicy {
	return htmlPolicy{Policy: p.String(), Color: template.CSS(hexColor(PolicyColor(p.Name)))}
}

// inlineSVG is a chart as an <svg> element to put in HTML: the SVG without
// its XML declaration and comment. Its texts were escaped by vgsvg, which is
// why it may be trusted as HTML.
func inlineSVG(ch *Chart) (template.HTML, error) {
	var b strings.Builder
	if err := ch.Write(&b, SVG); err != nil {
		return "", err
	}
	s := b.String()
	return template.HTML(s[strings.Index(s, "<svg"):]), nil
}

// numericColumns says which columns hold only numbers (or "—", none).
func numericColumns(n int, rows [][]string) []bool {
	num := make([]bool, n)
	for c := range num {
		num[c] = len(rows) > 0
		for _, row := range rows {
			if _, err := strconv.Atoi(row[c]); err != nil && row[c] != "—" {
				num[c] = false
				break
			}
		}
	}
	return num
}
