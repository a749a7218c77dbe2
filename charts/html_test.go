package charts

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
)

// TestHTMLReport checks the report's structure: one row, one section and
// one timeline an episode, every link landing on an element of the page,
// and nothing fetched from anywhere.
func TestHTMLReport(t *testing.T) {
	d := dataset(t, 12)
	var a, b bytes.Buffer
	if err := WriteHTML(&a, d); err != nil {
		t.Fatal(err)
	}
	if err := WriteHTML(&b, d); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("two renderings differ")
	}
	page := a.String()

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
