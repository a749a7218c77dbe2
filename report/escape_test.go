package report

import "testing"

func TestPrintable(t *testing.T) {
	for in, want := range map[string]string{
		"West of House":        "West of House",
		"é → ✓":                "é → ✓",
		"\x1b[31mred\x1b[0m":   `\x1b[31mred\x1b[0m`,
		"a\r\nb\tc":            `a\r\nb\tc`,
		"\x00\x07\x7f":         `\x00\x07\x7f`,
		"c1 \u009b2J \u0085":   `c1 \u009b2J \u0085`,
		"bad \xff\xfe byte":    `bad \xff\xfe byte`,
		`already \x1b as text`: `already \x1b as text`,
	} {
		if got := Printable(in); got != want {
			t.Errorf("Printable(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestMarkdownText(t *testing.T) {
	for in, want := range map[string]string{
		"plain":                           "plain",
		`<img src=x onerror=alert(1)>`:    `&lt;img src=x onerror=alert(1)&gt;`,
		"a & b | c `code`":                "a &amp; b \\| c \\`code\\`",
		"id\r\nwith lines\x1b[2J":         `id\r\nwith lines\x1b[2J`,
		"&lt; stays literal, not an &lt;": "&amp;lt; stays literal, not an &amp;lt;",
	} {
		if got := MarkdownText(in); got != want {
			t.Errorf("MarkdownText(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{
		"plain.jsonl": "`plain.jsonl`",
		"a`b.jsonl":   "`` a`b.jsonl ``",
		"a``b\n":      "``` a``b\\n ```",
	} {
		if got := codeSpan(in); got != want {
			t.Errorf("codeSpan(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestCSVFormulaInjection: text cells a spreadsheet would run as a formula
// get a leading quote; numbers (in number columns) and ordinary text do not.
func TestCSVFormulaInjection(t *testing.T) {
	for in, want := range map[string]string{
		"=HYPERLINK(\"http://x\")": "'=HYPERLINK(\"http://x\")",
		"+1+2":                     "'+1+2",
		"-2+3":                     "'-2+3",
		"@SUM(A1)":                 "'@SUM(A1)",
		"\t=1":                     "'\t=1",
		"\r=1":                     "'\r=1",
		"West of House":            "West of House",
		"-":                        "-", // standard input's name
		"":                         "",
		"2025-11-04T09:35:24":      "2025-11-04T09:35:24",
	} {
		if got := CSVText(in); got != want {
			t.Errorf("CSVText(%q) = %q, want %q", in, got, want)
		}
	}
	// In a row, only the text columns are neutralised: a negative score stays a number.
	j := EpisodeJSON{EpisodeHead: EpisodeHead{EpisodeID: "=cmd|' /C calc'!A0", Source: "@x.jsonl"}, EpisodeBody: EpisodeBody{FinalScore: -3, EndReason: "none"}}
	row := csvEpisode(&j)
	if row[0] != "'=cmd|' /C calc'!A0" || row[1] != "'@x.jsonl" || row[5] != "-3" {
		t.Errorf("csvEpisode = %q", row)
	}
	loc := "-West"
	r := ResultJSON{Policy: "score", LocationAtTermination: &loc, ScoreForgone: -5}
	row = csvResult(&r)
	if row[7] != "'-West" || row[10] != "-5" {
		t.Errorf("csvResult = %q", row)
	}
}
