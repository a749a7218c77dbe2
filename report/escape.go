package report

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Text from a log (episode ids, sources, actions, locations, objectives,
// problem messages) is data, never markup or terminal control: these helpers
// are applied where it is written, at the cell helpers (TextTable, MarkdownTable,
// the CSV rows).

// Printable shows the control characters of s as visible escapes — \n, \r,
// \t, \x1b, \u0085 (C1) — and each byte of invalid UTF-8 as \xNN, so that a
// text from a log can neither move the cursor, recolour the terminal nor
// break a line or a table. Everything else is kept as it is.
func Printable(s string) string {
	if !needsEscape(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r >= 0x80 && r < 0xa0:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// needsEscape says whether Printable would change s.
func needsEscape(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c == 0x7f {
			return true
		}
		if c >= 0x80 {
			r, size := utf8.DecodeRuneInString(s[i:])
			if (r == utf8.RuneError && size == 1) || (r >= 0x80 && r < 0xa0) {
				return true
			}
			i += size - 1
		}
	}
	return false
}

// markdownEscaper makes a text literal in a markdown table cell or list item
// that a pull request renders: no HTML (< > & as entities), no cell break
// (\|), no code span (\`).
var markdownEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "|", `\|`, "`", "\\`")

// MarkdownText is s, printable, escaped for markdown.
func MarkdownText(s string) string { return markdownEscaper.Replace(Printable(s)) }

// CSVText neutralises a text cell that a spreadsheet would read as a formula
// (OWASP's CSV injection: a cell beginning with = + - @, tab or carriage
// return) by a leading single quote. Apply it to text columns only: a number
// such as -3 in a number column must stay a number. A lone character ("-",
// standard input's name) is no formula and stays as it is.
func CSVText(s string) string {
	if len(s) > 1 && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// printableRow is Printable of each cell.
func printableRow(r []string) []string {
	out := make([]string, len(r))
	for i, c := range r {
		out[i] = Printable(c)
	}
	return out
}

// codeSpan is s, printable, as a markdown code span: fenced by more
// backticks than any run in s, so that s cannot close it (in a code span,
// < and & are shown as they are).
func codeSpan(s string) string {
	s = Printable(s)
	run, longest := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if longest > 0 {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}
