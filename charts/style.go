// Package charts draws what the tables say, for people who would rather look:
// the score timeline of one episode, the dataset charts of a batch analysis
// (termination turns under baseline and after, turns saved), and a
// self-contained HTML report that holds them all.
//
// Charts are drawn with gonum/plot. The same input gives the same bytes: the
// fonts are gonum's embedded Liberation fonts, and nothing random or dated is
// written. Every text that comes from a log is passed through printable and
// escaped by the SVG backend (vgsvg escapes what it writes) or html/template.
package charts

import (
	"bufio"
	"fmt"
	"image/color"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	xfont "golang.org/x/image/font"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/lbanalyze/lbanalyze/internal/textout"
	"github.com/lbanalyze/lbanalyze/policy"
)

// DPI turns the charts' sizes in points into pixels: 96, the web's, so that a
// 900×450 pt chart is a 1200×600 px PNG and shows at 1200×600 px as SVG.
const DPI = 96

// Px is a length of n pixels at DPI.
func Px(n float64) vg.Length { return vg.Length(n * 72 / DPI) }

// The colours: Okabe and Ito's palette, told apart by people with any common
// colour-vision deficiency. A policy has one colour, its Kind's, in every
// chart and in the HTML report; in print its lines differ by dash as well.
var (
	otherPolicyColor = color.NRGBA{0x55, 0x55, 0x55, 0xFF}
	scoreColor       = color.NRGBA{0x00, 0x00, 0x00, 0xFF}
	objectiveColor   = color.NRGBA{0x00, 0x9E, 0x73, 0xFF} // bluish green
	deathColor       = color.NRGBA{0x00, 0x00, 0x00, 0xFF}
	warningColor     = color.NRGBA{0xF0, 0xE4, 0x42, 0x66} // yellow, light enough to read through
	endColor         = color.NRGBA{0x33, 0x33, 0x33, 0xFF}
	gridColor        = color.NRGBA{0xDD, 0xDD, 0xDD, 0xFF}
)

// PolicyColor is the colour of a policy in every chart and in the HTML
// report: its Kind's (policy.Kind.Color), otherPolicyColor for a name the
// registry does not know.
func PolicyColor(n policy.Name) color.NRGBA {
	if k, ok := policy.Lookup(n); ok {
		return k.Color
	}
	return otherPolicyColor
}

// darker is c darkened, for text: the lighter colours (window's) are too
// pale for small letters on white.
func darker(c color.Color) color.Color {
	n := color.NRGBAModel.Convert(c).(color.NRGBA)
	return color.NRGBA{uint8(int(n.R) * 3 / 5), uint8(int(n.G) * 3 / 5), uint8(int(n.B) * 3 / 5), n.A}
}

// hexColor is c as CSS writes it.
func hexColor(c color.NRGBA) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

// dashes tell lines apart in greyscale print: the k-th result of a chart
// gets dashes[k % len].
var dashes = [][]vg.Length{
	nil,                          // solid
	{Px(9), Px(4)},               // dashed
	{Px(2), Px(3)},               // dotted
	{Px(9), Px(3), Px(2), Px(3)}, // dash-dot
	{Px(14), Px(4)},              // long dash
	{Px(5), Px(3), Px(5), Px(3), Px(1), Px(3)},
}

// Fonts: sans serif reads better than gonum's default serif on screen.
var sans = font.Font{Typeface: "Liberation", Variant: "Sans"}

func textStyle(size vg.Length) text.Style {
	return text.Style{Color: color.Black, Font: font.From(sans, size), Handler: plot.DefaultTextHandler}
}

func boldStyle(size vg.Length) text.Style {
	s := textStyle(size)
	s.Font.Weight = xfont.WeightBold
	return s
}

// newPlot is a plot with the charts' fonts and a light grid.
func newPlot(xLabel, yLabel string) *plot.Plot {
	p := plot.New()
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = font.From(sans, 11)
		a.Tick.Label.Font = font.From(sans, 9)
		a.Tick.Length = Px(6)
		a.Padding = Px(4)
	}
	p.X.Label.Text, p.Y.Label.Text = xLabel, yLabel
	p.Legend.TextStyle.Font = font.From(sans, 9)
	return p
}

// Chart is a drawing of a fixed size, written as PNG or SVG.
type Chart struct {
	Width, Height vg.Length
	draw          func(c draw.Canvas)
}

// Format is an image format a chart can be written in.
type Format string

const (
	PNG Format = "png"
	SVG Format = "svg"
)

// FormatOf is the format a file name asks for by its extension.
func FormatOf(path string) (Format, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".png":
		return PNG, nil
	case ".svg":
		return SVG, nil
	}
	return "", fmt.Errorf("%s: the file name must end in .png or .svg", path)
}

// Write writes the chart in format f.
func (ch *Chart) Write(w io.Writer, f Format) error {
	switch f {
	case PNG:
		c := vgimg.NewWith(vgimg.UseWH(ch.Width, ch.Height), vgimg.UseDPI(DPI))
		ch.draw(draw.New(c))
		bw := bufio.NewWriter(w)
		if err := pngEncoder.Encode(bw, c.Image()); err != nil {
			return err
		}
		return bw.Flush()
	case SVG:
		c := vgsvg.New(ch.Width, ch.Height)
		ch.draw(draw.New(c))
		var b strings.Builder
		if _, err := c.WriteTo(&b); err != nil {
			return err
		}
		_, err := io.WriteString(w, withFallbackFonts(b.String()))
		return err
	}
	return fmt.Errorf("unknown image format %q", f)
}

// pngEncoder compresses for speed: a chart's flat colours compress about as
// well as at the default level (a timeline: 60 KB, not 58) in two thirds of
// the time (13 ms, not 19), which is much of drawing a thousand timelines.
var pngEncoder = png.Encoder{CompressionLevel: png.BestSpeed}

// withFallbackFonts lets a viewer without the Liberation fonts use their
// metric-compatible twins (Arial, Helvetica) rather than its default serif,
// so that text keeps the width it was laid out with.
func withFallbackFonts(svg string) string {
	return strings.ReplaceAll(svg, "font-family:Liberation Sans;", "font-family:'Liberation Sans',Arial,Helvetica,sans-serif;")
}

// Save writes the chart to path, in the format its extension names.
func (ch *Chart) Save(path string) error {
	f, err := FormatOf(path)
	if err != nil {
		return err
	}
	file, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := ch.Write(file, f); err != nil {
		file.Close()
		return err
	}
	return file.Close()
}

// printable is chartText(s), at most max runes with an ellipsis.
func printable(s string, max int) string {
	s = chartText(s)
	if utf8.RuneCountInString(s) > max {
		s = strings.TrimRight(string([]rune(s)[:max-1]), " ") + "…"
	}
	return s
}

// chartText makes a text from a log fit for a chart: valid UTF-8 (a lone
// surrogate is invalid UTF-8), a space for each rune textout.Printable
// escapes (a newline would break the layout, most control characters are not
// even allowed in SVG, a bidi control would reorder the label), nothing XML
// forbids (U+FFFE and U+FFFF are shown as U+FFFD).
func chartText(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case textout.Unprintable(r):
			return ' '
		case r == 0xFFFE || r == 0xFFFF:
			return '\uFFFD'
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
}

// intTicks labels whole numbers only (scores and turns have no halves),
// about target labels over the range, with unlabelled ticks between.
type intTicks struct{ target int }

func (t intTicks) Ticks(lo, hi float64) []plot.Tick {
	step := niceStep((hi - lo) / float64(t.target))
	var ticks []plot.Tick
	minor := step / 5
	if step <= 2 || step == 25 {
		minor = step
	}
	// Whole multiples of minor, counted in integers so that no rounding
	// error creeps in.
	for i := math.Ceil(lo / minor); i*minor <= hi; i++ {
		v := i * minor
		if v == 0 {
			v = 0 // not -0, which would be labelled "-0"
		}
		tk := plot.Tick{Value: v}
		if math.Mod(v, step) == 0 {
			tk.Label = strconv.FormatFloat(v, 'f', 0, 64)
		}
		ticks = append(ticks, tk)
	}
	return ticks
}

// niceStep is the smallest of 1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500 …
// that is at least x.
func niceStep(x float64) float64 {
	for m := 1.0; ; m *= 10 {
		for _, s := range []float64{1, 2, 2.5, 5} {
			if s*m >= x && (s != 2.5 || m >= 10) {
				return s * m
			}
		}
	}
}

// gridLines is a plotter drawing light horizontal lines at the y axis's
// labelled ticks, behind the data.
type gridLines struct{}

func (gridLines) Plot(c draw.Canvas, p *plot.Plot) {
	_, trY := p.Transforms(&c)
	sty := draw.LineStyle{Color: gridColor, Width: Px(1)}
	for _, tk := range p.Y.Tick.Marker.Ticks(p.Y.Min, p.Y.Max) {
		if tk.Label != "" {
			y := trY(tk.Value)
			c.StrokeLine2(sty, c.Min.X, y, c.Max.X, y)
		}
	}
}
