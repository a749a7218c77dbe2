package textout

import "testing"

// checkEscapes checks that escape, named name, writes each text in cases as
// its value.
func checkEscapes(t *testing.T, name string, escape func(string) string, cases map[string]string) {
	t.Helper()
	for in, want := range cases {
		if got := escape(in); got != want {
			t.Errorf("%s(%q) = %q, want %q", name, in, got, want)
		}
	}
}

func TestPrintable(t *testing.T) {
	checkEscapes(t, "Printable", Printable, map[string]string{
		"West of House": "West of House",
		"é → ✓ 漢字 👨‍👩‍👧 e\u0301": "é → ✓ 漢字 👨‍👩‍👧 e\u0301", // joiners and combining marks kept
		"\x1b[31mred\x1b[0m":     `\x1b[31mred\x1b[0m`,
		"a\r\nb\tc":              `a\r\nb\tc`,
		"\x00\x07\x7f":           `\x00\x07\x7f`,
		"c1 \u009b2J \u0085":     `c1 \u009b2J \u0085`,
		"bad \xff\xfe byte":      `bad \xff\xfe byte`,
		`already \x1b as text`:   `already \x1b as text`,
		// Bidi controls: the override that makes "gpj.exe" read "exe.jpg",
		// embeddings, marks, isolates, the Arabic letter mark.
		"\u202egpj.exe":                           `\u202egpj.exe`,
		"\u202a\u202b\u202c\u202d\u200e\u200f":    `\u202a\u202b\u202c\u202d\u200e\u200f`,
		"\u2066a\u2069\u2067b\u2069\u2068c\u061c": `\u2066a\u2069\u2067b\u2069\u2068c\u061c`,
		// Line and paragraph separators.
		"a\u2028b\u2029c": `a\u2028b\u2029c`,
	})
}

// TestMarkdownText: each construct that markdown (CommonMark, GitHub's
// tables, strikethrough and math) would act on is escaped; what cannot act
// is left as it is, so that ordinary text reads as it did.
func TestMarkdownText(t *testing.T) {
	checkEscapes(t, "MarkdownText", MarkdownText, map[string]string{
		"plain":                        "plain",
		`<img src=x onerror=alert(1)>`: `&lt;img src=x onerror=alert(1)&gt;`,
		"a & b | c `code`":             "a &amp; b \\| c \\`code\\`",
		"id\r\nwith lines\x1b[2J":      `id\r\nwith lines\x1b[2J`, // \ before a letter is no escape
		"&lt; stays literal":           "&amp;lt; stays literal",
		// Images and links: the ] that would end their text is escaped.
		"![i](http://host/x.png)": `![i\](http://host/x.png)`,
		"[a][b] and [c]":          `[a\][b] and [c]`,
		"[x] (y)":                 "[x] (y)",
		// Emphasis, strikethrough, math; a backslash that would escape.
		"*the* _window_ ~~now~~ $x$": `\*the\* \_window\_ \~\~now\~\~ \$x\$`,
		`a\|b \* c\d`:                `a\\\|b \\\* c\d`,
		// What cannot act stays: a delimiter between spaces, _ inside a
		// word, $ before a digit.
		"~ (expected -30% to -50%)":          "~ (expected -30% to -50%)",
		"episode_log.jsonl 2025-11-01_error": "episode_log.jsonl 2025-11-01_error",
		"$0.05 a call, 3 * 4":                "$0.05 a call, 3 * 4",
		"_x x_ a_ _b":                        `\_x x\_ a\_ \_b`,
		"*_error":                            `\*\_error`,
		// Printable first: a bidi override is shown, not obeyed.
		"\u202e[i](x)": `\u202e[i\](x)`,
	})
	checkEscapes(t, "CodeSpan", CodeSpan, map[string]string{
		"plain.jsonl": "`plain.jsonl`",
		"a`b.jsonl":   "`` a`b.jsonl ``",
		"a``b\n":      "``` a``b\\n ```",
	})
}

// TestMarkdownLine: a text that begins a line (a heading, a list item)
// cannot begin another block, nor lose a final # to a heading.
func TestMarkdownLine(t *testing.T) {
	checkEscapes(t, "MarkdownLine", MarkdownLine, map[string]string{
		"2025-11-04T09:35:24":  "2025-11-04T09:35:24",
		"# title":              `\# title`,
		"- item":               `\- item`,
		"+ item":               `\+ item`,
		"* item":               `\* item`,
		"===":                  `\===`,
		"---":                  `\---`,
		"[ ] task":             `\[ ] task`,
		"[x]: http://host":     `\[x]: http://host`,
		"> quote":              "&gt; quote",
		"1. first":             `1\. first`,
		"12) twelfth":          `12\) twelfth`,
		"3.5 turns":            `3\.5 turns`,
		"40 turns":             "40 turns",
		"    code":             "&#32;   code",
		"```":                  "\\`\\`\\`",
		"~~~":                  `\~\~\~`,
		"episode #":            `episode \#`,
		"75 episodes analysed": "75 episodes analysed",
		"":                     "",
	})
}

// TestCSVText: text cells are printable (one line each, nothing a terminal
// acts on), and those a spreadsheet would run as a formula get a leading
// quote; numbers (in number columns) and ordinary text do not.
func TestCSVText(t *testing.T) {
	checkEscapes(t, "CSVText", CSVText, map[string]string{
		"=HYPERLINK(\"http://x\")": "'=HYPERLINK(\"http://x\")",
		"+1+2":                     "'+1+2",
		"-2+3":                     "'-2+3",
		"@SUM(A1)":                 "'@SUM(A1)",
		"\t=1":                     `\t=1`, // a backslash leads: no formula
		"\r=1":                     `\r=1`,
		"id\x1b[2J\x07\x00\r\n":    `id\x1b[2J\x07\x00\r\n`,
		"\u202egpj.exe":            `\u202egpj.exe`,
		"West of House":            "West of House",
		"-":                        "-", // standard input's name
		"":                         "",
		"2025-11-04T09:35:24":      "2025-11-04T09:35:24",
	})
}
