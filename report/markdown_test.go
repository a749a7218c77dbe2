package report

import (
	"bytes"
	"html"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"

	"github.com/lbanalyze/lbanalyze/internal/textout"
)

// gfm renders markdown as GitHub does, less its autolinks of bare URLs
// (which show a URL as a link to itself) and its math.
var gfm = goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.TaskList))

// markupFragments are pieces of text that markdown may act on, beside
// ordinary ones.
var markupFragments = []string{
	"*", "_", "~", "~~", "**", "[", "]", "(", ")", "![", "](", "][", "http://host/x.png", "<b>", "<", ">", "&amp;", "&", "`",
	"``", "|", `\`, "#", "-", "+", "=", "1.", "2)", ":", "!", " ", "  ", "a", "b", "west of house", "é", "漢字", "\x1b[2J",
	"\n", "\t", "\u202e", "\u2028", "x.jsonl",
}

// TestMarkdownShowsTextAsIs renders random texts made of markdown's special
// characters with a CommonMark and GitHub tables parser, as a table cell
// (textout.MarkdownTable), a list item and a heading (textout.MarkdownLine): each must come
// out as the text itself (textout.Printable, trimmed as markdown trims), in one cell,
// item or heading, with no element inside it.
func TestMarkdownShowsTextAsIs(t *testing.T) {
	r := rand.New(rand.NewPCG(22, 5))
	cell := regexp.MustCompile(`(?s)^<table>\n<thead>\n<tr>\n<th[^>]*>h</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td[^>]*>(.*)</td>\n</tr>\n</tbody>\n</table>\n$`)
	item := regexp.MustCompile(`(?s)^<ul>\n<li>(.*)</li>\n</ul>\n$`)
	heading := regexp.MustCompile(`(?s)^<h3>(.*)</h3>\n$`)
	for range 3000 {
		var b strings.Builder
		for range 1 + r.IntN(6) {
			b.WriteString(markupFragments[r.IntN(len(markupFragments))])
		}
		s := b.String()
		want := strings.TrimSpace(textout.Printable(s))
		if want == "" {
			continue
		}
		var table bytes.Buffer
		textout.MarkdownTable(&table, []string{"h"}, [][]string{{s}})
		for _, c := range []struct {
			what, md string
			re       *regexp.Regexp
		}{
			{"cell", table.String(), cell},
			{"list item", "- " + textout.MarkdownLine(s) + "\n", item},
			{"heading", "### " + textout.MarkdownLine(s) + "\n", heading},
		} {
			var out bytes.Buffer
			if err := gfm.Convert([]byte(c.md), &out); err != nil {
				t.Fatal(err)
			}
			m := c.re.FindStringSubmatch(out.String())
			if m == nil || strings.Contains(m[1], "<") || strings.TrimSpace(html.UnescapeString(m[1])) != want {
				t.Fatalf("%q as a %s:\n%s\nrenders as\n%s\nwant the text %q", s, c.what, c.md, out.String(), want)
			}
		}
	}
}
