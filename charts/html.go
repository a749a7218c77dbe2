package charts

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/base64"
	"html/template"
	"io"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/textout"
	"github.com/lbanalyze/lbanalyze/report"
)

//go:embed report.html.tmpl
var reportHTML string

// reportTemplate is parsed on first use, not at start: every command would
// pay for it otherwise.
var reportTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("report").Funcs(template.FuncMap{"inc": func(i int) int { return i + 1 }}).Parse(reportHTML))
})

// htmlReport is what the report template shows. Every string in it is
// escaped by html/template, and every text from a log is printable first
// (pageText); the charts are SVG written by vgsvg, which escapes every text
// it writes, and are the only template.HTML.
type htmlReport struct {
	Title         string
	Headline      string // the bottom line, report.Dataset.Headline
	Summary       []string
	Policies      []htmlPolicy // the dataset's, in the order of its outcomes
	MetricsTitle  string
	MetricClass   []string // a policy's column: "side0", "side1" …; else ""
	MetricHeader  []string
	MetricRows    [][]string
	ReviewSummary string
	ReviewHeader  []string
	ReviewGroups  []reviewGroup
	ReviewLegend  string
	// PatternTables are the pattern summary's tables, each header first.
	PatternTables [][][]string
	PatternLines  []string
	Charts        []template.HTML
	EpisodeHeader []string
	EpisodeClass  []string
	Numeric       []bool // the per-episode columns that hold numbers, aligned right
	Episodes      []htmlEpisode
	// Lazy: the timelines are gzipped in the page, timelinesPerChunk to a
	// stream (they share most of their text), and drawn when opened: more
	// than MaxEpisodeRows episodes would make a page of tens of MB.
	Lazy   bool
	Chunks []string // Lazy: each a gzip stream, base64url
}

type htmlPolicy struct {
	Side   string // baseline, after
	Policy string
	Color  template.CSS
}

type reviewGroup struct {
	Title string
	Items []reviewItem
}

type reviewItem struct {
	Anchor string
	Cells  []string // report.Dataset.ReviewRow; the first is the episode's label
}

type htmlEpisode struct {
	Anchor     string // the id of its timeline's section; its table row is row-Anchor
	Label      string
	Source     string
	Cells      []string
	Objectives []episode.Completion
	Timeline   template.HTML
	Chunk      int // Lazy: the chunk holding the timeline, and its place in it
	Part       int
}

// timelinesPerChunk is how many timelines share a gzip stream in a lazy
// page: enough that their common text compresses away, few enough that
// opening one inflates little.
const timelinesPerChunk = 25

// chunkSeparator ends each timeline in a chunk; SVG text never holds it.
const chunkSeparator = "\x1e"

// WriteHTML writes the report of a batch analysis as one self-contained HTML
// page: no network, no external script, style or font. It holds the bottom
// line in a sentence, the summary, the metrics table, the review list, the
// dataset charts, the per-episode table (sorted by clicking a header) and
// every episode's score timeline (linked from its row), the charts inline as
// SVG.
func WriteHTML(w io.Writer, d *report.Dataset) error {
	summary, metricsTitle := d.Summary(), d.MetricsTitle()
	sides := sidesOf(d)
	r := htmlReport{
		Title:        "Loop-break replay: " + sidesTitle(sides),
		Headline:     d.Headline(),
		Summary:      pageText(summary),
		MetricsTitle: metricsTitle,
		Lazy:         len(d.Episodes) > MaxEpisodeRows,
	}
	for _, sd := range sides {
		r.Policies = append(r.Policies, htmlPolicy{Side: sd.name, Policy: sd.pol.String(), Color: template.CSS(hexColor(PolicyColor(sd.pol.Name)))})
	}
	r.MetricHeader, r.MetricRows = d.MetricTable()
	// The metrics table: the metric, then one column a policy.
	r.MetricClass = make([]string, len(r.MetricHeader))
	for s := range sides {
		if 1+s < len(r.MetricClass) {
			r.MetricClass[1+s] = "side" + strconv.Itoa(s)
		}
	}
	header, episodes, _ := d.EpisodeTable()
	r.EpisodeHeader = header
	rows := slices.Collect(episodes)
	r.Numeric = numericColumns(len(r.EpisodeHeader), rows)
	// The episode table: the columns of the episode (four, five with
	// objectives), then as many a policy (three, four with tokens), the
	// first named "baseline".
	r.EpisodeClass = make([]string, len(r.EpisodeHeader))
	own := max(0, slices.Index(r.EpisodeHeader, "baseline"))
	per := max(1, (len(r.EpisodeHeader)-own)/len(sides))
	for i := own; i < len(r.EpisodeClass) && (i-own)/per < len(sides); i++ {
		r.EpisodeClass[i] = "side" + strconv.Itoa((i-own)/per)
	}

	// The timelines are drawn (and, in a lazy page, gzipped a chunk at a
	// time, so that only the chunks being drawn are held whole) on every
	// core, each into its own place: the same page as one at a time.
	var svgs []template.HTML
	var err error
	if r.Lazy {
		r.Chunks, err = timelineChunks(d)
	} else {
		svgs = make([]template.HTML, len(d.Episodes))
		err = inParallel(len(d.Episodes), func(i int) (err error) {
			svgs[i], err = inlineSVG(Timeline(&d.Episodes[i]))
			return err
		})
	}
	if err != nil {
		return err
	}
	anchor := map[*report.Episode]string{}
	for i := range d.Episodes {
		e := &d.Episodes[i]
		anchor[e] = "ep-" + strconv.Itoa(i+1)
		he := htmlEpisode{Anchor: anchor[e], Label: textout.Printable(d.Label(e)), Source: textout.Printable(e.Ep.Source),
			Cells: pageText(rows[i]), Objectives: slices.Clone(e.Ep.Objectives)}
		for k := range he.Objectives {
			he.Objectives[k].Objective = textout.Printable(he.Objectives[k].Objective)
		}
		if r.Lazy {
			he.Chunk, he.Part = i/timelinesPerChunk, i%timelinesPerChunk
		} else {
			he.Timeline = svgs[i]
		}
		r.Episodes = append(r.Episodes, he)
	}

	r.PatternTables, r.PatternLines = d.PatternTables()
	for _, t := range r.PatternTables {
		for k, row := range t {
			t[k] = pageText(row)
		}
	}
	r.PatternLines = pageText(r.PatternLines)
	review := d.ReviewList()
	r.ReviewSummary, r.ReviewHeader, r.ReviewLegend = review.Summary, review.Header, review.Legend
	for _, g := range review.Groups {
		group := reviewGroup{Title: g.Title}
		for _, e := range g.Episodes {
			group.Items = append(group.Items, reviewItem{Anchor: anchor[e], Cells: pageText(d.ReviewRow(e))})
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

// timelineChunks are the timelines of d, timelinesPerChunk to a gzip
// stream (base64url), each ending in chunkSeparator.
func timelineChunks(d *report.Dataset) ([]string, error) {
	n := len(d.Episodes)
	chunks := make([]string, (n+timelinesPerChunk-1)/timelinesPerChunk)
	err := inParallel(len(chunks), func(k int) error {
		var chunk strings.Builder
		for i := k * timelinesPerChunk; i < min((k+1)*timelinesPerChunk, n); i++ {
			svg, err := inlineSVG(Timeline(&d.Episodes[i]))
			if err != nil {
				return err
			}
			chunk.WriteString(string(svg) + chunkSeparator)
		}
		var err error
		chunks[k], err = gzipBase64(chunk.String())
		return err
	})
	return chunks, err
}

// inParallel runs f(0) … f(n−1) on every core and gives the first error in
// the order of i, whatever order they ended in.
func inParallel(n int, f func(i int) error) error {
	errs := make([]error, n)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(n, runtime.GOMAXPROCS(0)) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				errs[i] = f(i)
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// pageText is textout.Printable of each text: a log's text shows in the page
// as in the text output (control characters, bidi controls and line
// separators as visible escapes), then html/template escapes it for HTML.
func pageText(texts []string) []string {
	out := make([]string, len(texts))
	for i, s := range texts {
		out[i] = textout.Printable(s)
	}
	return out
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
	return template.HTML(mergeStrokes(compactStyles(compactSpace(s[strings.Index(s, "<svg"):])))), nil
}

// compactStyles drops from an SVG to be inlined what the page's style gives
// every chart anyway (the font family; normal variant, weight and style), and
// compactSpace the layout whitespace inside tags: a timeline shrinks by about
// a third. Only what vgsvg writes is replaced; texts are untouched.
var compactStyles = strings.NewReplacer(
	`style="font-family:'Liberation Sans',Arial,Helvetica,sans-serif;font-variant:normal;font-weight:normal;font-style:normal;`, `style="`,
	`style="font-family:'Liberation Sans',Arial,Helvetica,sans-serif;font-variant:normal;font-weight:bold;font-style:normal;`, `style="font-weight:bold;`,
).Replace

var compactSpace = strings.NewReplacer("\n\tstyle=", " style=", "\n\txmlns", " xmlns").Replace

// mergeStrokes joins runs of consecutive stroked, unfilled paths of one
// style (vgsvg writes each tick mark, grid line and row line as its own
// element) into one path: the same drawing in a fraction of the bytes.
func mergeStrokes(svg string) string {
	const open, mid, end = `<path d="`, `" style="`, `" />`
	lines := strings.SplitAfter(svg, "\n")
	var b strings.Builder
	b.Grow(len(svg))
	var runStyle string
	var runD []string
	flush := func() {
		if len(runD) > 0 {
			b.WriteString(open + strings.Join(runD, "") + mid + runStyle + end + "\n")
			runD = runD[:0]
		}
	}
	for _, l := range lines {
		body := strings.TrimSuffix(l, "\n")
		i := strings.Index(body, mid)
		if strings.HasPrefix(body, open) && strings.HasSuffix(body, end) && i > 0 {
			d, style := body[len(open):i], body[i+len(mid):len(body)-len(end)]
			if strings.HasPrefix(style, "fill:none;stroke:") && !strings.Contains(style, "opacity") && !strings.ContainsAny(d, `"<>`) {
				if style != runStyle {
					flush()
					runStyle = style
				}
				runD = append(runD, d)
				continue
			}
		}
		flush()
		b.WriteString(l)
	}
	flush()
	return b.String()
}

// gzipBase64 is s gzipped (no name, no time: the same bytes every time) and
// base64url-encoded without padding (html/template would escape '+' and '='
// in an attribute), for the page's script to inflate.
func gzipBase64(s string) (string, error) {
	var b bytes.Buffer
	zw, err := gzip.NewWriterLevel(&b, gzip.BestCompression)
	if err != nil {
		return "", err
	}
	if _, err := io.WriteString(zw, s); err != nil {
		return "", err
	}
	if err := zw.Close(); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(b.Bytes()), nil
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
