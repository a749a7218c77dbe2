package charts

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/report"
)

// TestSVGForbiddenCharacters: a standalone SVG stays valid XML whatever a
// log's text holds: C0 controls, U+FFFE, U+FFFF, a lone surrogate (invalid
// UTF-8 in a Go string), in an id, an objective, an action, a location.
func TestSVGForbiddenCharacters(t *testing.T) {
	const bad = "a\uFFFEb\uFFFFc\x1b[31md\x0be\xed\xa0\x80f\x7f\u0085g"
	p := plan{id: "ep" + bad, n: 60, changes: map[int]int{50: 5}, objectives: map[int]string{20: "obj" + bad}, source: bad + ".jsonl"}
	e := p.analyse(scorePolicy, v2Policy)
	e.Ep.Turns[10].Action = bad
	e.Ep.Turns[10].Location = bad
	_, texts := timelineSVG(t, &e)
	if !strings.Contains(texts, "ep") || strings.ContainsAny(texts, "\uFFFE\uFFFF\x1b\x0b") {
		t.Errorf("the SVG's text is %q", texts)
	}
	for in, want := range map[string]string{"x\uFFFEy\uFFFFz": "x\uFFFDy\uFFFDz", "\xed\xa0\x80": "\uFFFD", "\x1b[1m": " [1m", "\u202egpj\u2028": " gpj "} {
		if got := printable(in, 40); got != want {
			t.Errorf("printable(%q) = %q, want %q", in, got, want)
		}
	}
}

// timelineSVG is e's timeline as SVG, and its text: all its character
// data, the SVG being well-formed XML.
func timelineSVG(t *testing.T, e *report.Episode) (svg, text string) {
	t.Helper()
	var buf bytes.Buffer
	if err := Timeline(e).Write(&buf, SVG); err != nil {
		t.Fatal(err)
	}
	var texts strings.Builder
	dec := xml.NewDecoder(bytes.NewReader(buf.Bytes()))
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return buf.String(), texts.String()
		}
		if err != nil {
			t.Fatalf("the SVG is not well-formed XML: %v", err)
		}
		if cd, ok := tok.(xml.CharData); ok {
			texts.Write(cd)
		}
	}
}
