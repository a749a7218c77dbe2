package charts

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"

	"github.com/lbanalyze/lbanalyze/sweep"
)

//go:embed sweep.html.tmpl
var sweepHTML string

var sweepTemplate = template.Must(template.New("sweep").Parse(sweepHTML))

// sweepReport is what the sweep page shows; as in the batch report, the
// charts (SVG written by vgsvg) are the only template.HTML.
type sweepReport struct {
	Title           string
	Summary         string
	Recommendation  []string
	TOML, TOMLWhat  string
	Charts          []template.HTML
	FrontTitle      string
	FrontHeader     []string
	FrontRows       []frontRow
	Policies        []htmlPolicy
	MaxFalse, MaxCS string
}

type frontRow struct {
	Cells []string
	Class string // recommended, now, best-runnable
	Color template.CSS
}

// WriteSweepHTML writes the report of a sweep as one self-contained HTML page:
// the recommendation and the block to paste, the trade-off chart and the heat
// map (inline SVG), and the Pareto front table.
func WriteSweepHTML(w io.Writer, r *sweep.Result) error {
	s := sweepReport{
		Title: fmt.Sprintf("Loop-break sweep: %d configs over %d episodes", len(r.Configs), r.N),
		Summary: fmt.Sprintf("%d configs over %d episodes (%d logged turns); targets: false-termination rate ≤ %s, censored outcomes ≤ %s; %d LLM calls a turn.",
			len(r.Configs), r.N, r.TotalTurns, pctText(r.MaxFalseRate), pctText(r.MaxCensored), r.CallsPerTurn),
		Recommendation: r.RecommendationLines(),
		FrontTitle:     r.FrontTitle(),
	}
	s.TOML, s.TOMLWhat = r.PasteBlock()
	var rows [][]string
	var idx []int
	s.FrontHeader, rows, idx = r.FrontTable()
	for k, row := range rows {
		fr := frontRow{Cells: row}
		switch i := idx[k]; {
		case i < 0:
			fr.Class = "now"
			fr.Color = template.CSS(hexColor(PolicyColor(r.Current.Policy.Name)))
		default:
			fr.Color = template.CSS(hexColor(PolicyColor(r.Configs[i].Policy.Name)))
			if r.Recommended != nil && i == r.Recommended.Config {
				fr.Class = "recommended"
			} else if r.Recommended != nil && r.Recommended.TOML == "" && i == r.BestRunnable {
				fr.Class = "best-runnable"
			}
		}
		s.FrontRows = append(s.FrontRows, fr)
	}
	for _, n := range sweepPolicies(r) {
		s.Policies = append(s.Policies, htmlPolicy{Policy: string(n), Color: template.CSS(hexColor(PolicyColor(n)))})
	}
	for _, ch := range []*Chart{TradeOff(r), HeatMap(r)} {
		if ch == nil {
			continue
		}
		svg, err := inlineSVG(ch)
		if err != nil {
			return err
		}
		s.Charts = append(s.Charts, svg)
	}
	return sweepTemplate.Execute(w, s)
}
