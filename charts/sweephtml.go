package charts

import (
	_ "embed"
	"html/template"
	"io"
	"strings"

	"github.com/lbanalyze/lbanalyze/internal/sweep"
	"github.com/lbanalyze/lbanalyze/internal/textout"
)

//go:embed sweep.html.tmpl
var sweepHTML string

var sweepTemplate = template.Must(template.New("sweep").Parse(sweepHTML))

// sweepReport is what the sweep page shows; as in the batch report, the
// charts (SVG written by vgsvg) are the only template.HTML.
type sweepReport struct {
	Title       string
	Sections    []sweep.Section
	Summary     string
	Charts      []template.HTML
	NoHeatMap   string // why there is no heat map, if there is none
	FrontTitle  string
	FrontHeader []string
	NoteColumn  int // the front table's last column, of words, not numbers
	FrontRows   []frontRow
	FrontLegend string
	Policies    []htmlPolicy
}

type frontRow struct {
	Cells []string
	Class string // answer, best-overall, now
	Color template.CSS
}

// WriteSweepHTML writes the report of a sweep as one self-contained HTML page:
// the answer and the block to paste, the trade-off chart and the heat map
// (inline SVG), and the Pareto front table, every row of it.
func WriteSweepHTML(w io.Writer, r *sweep.Result) error {
	s := sweepReport{
		Title:       "Loop-break sweep: " + textout.Count(len(r.Configs), "config") + " over " + textout.Count(r.N, "episode"),
		Sections:    r.Sections(),
		Summary:     strings.ReplaceAll(r.Summary(), "<=", "≤"),
		FrontHeader: r.FrontHeader(),
		FrontLegend: r.FrontLegend(),
	}
	s.NoteColumn = len(s.FrontHeader) - 1
	rows, front := r.FrontTable(0)
	s.FrontTitle = r.FrontTitle(len(rows)-1, front)
	for _, row := range rows {
		fr := frontRow{Cells: row.Cells}
		var class []string
		if row.Answer {
			class = append(class, "answer")
		}
		if row.Best {
			class = append(class, "best-overall")
		}
		c := r.Current
		if row.Config >= 0 {
			c = &r.Configs[row.Config]
		} else {
			class = append(class, "now")
		}
		fr.Class = strings.Join(class, " ")
		fr.Color = template.CSS(hexColor(PolicyColor(c.Policy.Name)))
		s.FrontRows = append(s.FrontRows, fr)
	}
	for _, n := range sweepPolicies(r) {
		s.Policies = append(s.Policies, htmlPolicy{Policy: string(n), Color: template.CSS(hexColor(PolicyColor(n)))})
	}
	heat, whyNot := HeatMap(r)
	if heat == nil {
		s.NoHeatMap = "No heat map: " + whyNot + "."
	}
	for _, ch := range []*Chart{TradeOff(r), heat} {
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
