package textout

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Text from a log (episode ids, file names, rooms, actions, objectives,
// problem messages) is data, never terminal control, markup or a formula.
// Each kind of output has one rule, applied where the text is written:
//
//   - text (tables, lines, messages): Printable;
//   - markdown: MarkdownText inside a line or a table cell, markdownLine at
//     the start of a line (a heading, a list item);
//   - CSV: CSVText, on text columns;
//   - HTML: Printable, then html/template's escaping (charts);
//   - JSON: the exact text, which the encoder escapes.

// Unprintable says whether Printable shows r as an escape: a control
// character (C0, DEL, C1), which can move the cursor, recolour the terminal,
// ring it or end a line; a bidirectional control (U+202E and the others),
// which reorders the text around it so that it reads otherwise than it is;
// a line or paragraph separator (U+2028, U+2029), which ends a line in
// editors, browsers and JavaScript.
func Unprintable(r rune) bool {
	return unicode.IsControl(r) || unicode.In(r, unicode.Bidi_Control, unicode.Zl, unicode.Zp)
}

// Printable shows the unprintable runes of s as visible escapes — \n, \r,
// \t, \x1b, \u0085, \u202e — and each byte of invalid UTF-8 as \xNN, so that
// a text from a log can neither drive the terminal, break a line or a table,
// nor pass for another text. Everything else is kept as it is: wide and
// combining runes, emoji, joiners.
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
		case r < 0x80 && Unprintable(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case Unprintable(r):
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
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				return true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || Unprintable(r) {
			return true
		}
		i += size
	}
	return false
}

// MarkdownText is s, printable, written so that markdown (CommonMark, and
// GitHub's tables, strikethrough and math) shows it as it is, as a table
// cell or words within a line: no HTML, autolink or entity (< > & become
// &lt; &gt; &amp;), no cell break (\|), no code span (\`), no link or image
// (a ] before ( or [ is escaped), no emphasis, strikethrough or math (* _ ~ $
// are escaped unless they cannot act: between spaces; _ also between letters
// or digits, as in episode_log.jsonl; $ also before a digit, as in $0.05), no
// escape undone (a \ before punctuation is doubled). A bare URL may still be
// shown as a link to itself, never as an image or under other words. The
// text must stand between spaces or line ends, as in a cell or a list item.
func MarkdownText(s string) string {
	s = Printable(s)
	if !strings.ContainsAny(s, markdownSpecials) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '&':
			b.WriteString("&amp;")
		case c == '<':
			b.WriteString("&lt;")
		case c == '>':
			b.WriteString("&gt;")
		case c == '|', c == '`',
			c == '\\' && i+1 < len(s) && isASCIIPunct(s[i+1]),
			c == ']' && i+1 < len(s) && (s[i+1] == '(' || s[i+1] == '['),
			strings.IndexByte("*_~$", c) >= 0 && !inert(s, i):
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// markdownSpecials are the characters MarkdownText may escape.
const markdownSpecials = `&<>|` + "`" + `\\]*_~$`

// inert says whether the delimiter s[i] (* _ ~ $) cannot open or close
// emphasis, strikethrough or math: it stands between spaces (the text's ends
// count as spaces), an _ between letters or digits, a $ before a digit
// (math cannot end there).
func inert(s string, i int) bool {
	before, after := ' ', ' '
	if i > 0 {
		before, _ = utf8.DecodeLastRuneInString(s[:i])
	}
	if i+1 < len(s) {
		after, _ = utf8.DecodeRuneInString(s[i+1:])
	}
	alnum := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
	switch {
	case unicode.IsSpace(before) && unicode.IsSpace(after):
		return true
	case s[i] == '_':
		return alnum(before) && alnum(after)
	case s[i] == '$':
		return unicode.IsDigit(after)
	}
	return false
}

// isASCIIPunct says whether c is one of the characters a backslash escapes
// in markdown.
func isASCIIPunct(c byte) bool {
	return c > ' ' && c < 0x7f && !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z')
}

// MarkdownLine is MarkdownText for a text that begins a line (a heading, a
// list item, a line of a summary), where a leading # * + - = [ or "1." or
// "1)", or a space, would begin another block (a heading, a list, a task box,
// a rule, a link definition, code), and a final # would be taken for a
// heading's closing mark: those are escaped too.
func MarkdownLine(s string) string {
	s = MarkdownText(s)
	if strings.HasSuffix(s, "#") {
		s = s[:len(s)-1] + `\#`
	}
	digits := len(s) - len(strings.TrimLeft(s, "0123456789"))
	switch {
	case s == "":
	case strings.IndexByte("#*+-=[", s[0]) >= 0:
		s = `\` + s
	case s[0] == ' ':
		s = "&#32;" + s[1:]
	case digits > 0 && digits < len(s) && (s[digits] == '.' || s[digits] == ')'):
		s = s[:digits] + `\` + s[digits:]
	}
	return s
}

// CSVText is a text cell of CSV: printable, so that each record stays one
// line that neither a terminal nor a spreadsheet acts on; and, when it begins
// with = + - or @, which a spreadsheet would run as a formula (OWASP's CSV
// injection), after a single quote. Apply it to text columns only: a number
// such as -3 in a number column must stay a number. A lone character ("-",
// standard input's name) is no formula and stays as it is.
func CSVText(s string) string {
	s = Printable(s)
	if len(s) > 1 && strings.ContainsRune("=+-@", rune(s[0])) {
		return "'" + s
	}
	return s
}

// CodeSpan is s, printable, as a markdown code span: fenced by more
// backticks than any run in s, so that s cannot close it (in a code span,
// < and & are shown as they are).
func CodeSpan(s string) string {
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
