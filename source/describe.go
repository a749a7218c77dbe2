package source

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/lbanalyze/lbanalyze/jsonl"
)

// Unreadable says why no source can read a file that begins with head, when
// its encoding is one none reads: UTF-16 or UTF-32 text, or lines that end in
// a carriage return alone. "" otherwise.
func Unreadable(head []byte) string {
	switch {
	case wide(head, 4, []byte{0xff, 0xfe, 0, 0}, []byte{0, 0, 0xfe, 0xff}):
		return "looks like UTF-32, not UTF-8: convert it first, e.g. iconv -f UTF-32 -t UTF-8"
	case wide(head, 2, []byte{0xff, 0xfe}, []byte{0xfe, 0xff}):
		return "looks like UTF-16, not UTF-8 (Windows PowerShell writes it with >): convert it first, e.g. iconv -f UTF-16 -t UTF-8"
	case bytes.IndexByte(head, '\r') >= 0 && bytes.IndexByte(head, '\n') < 0 && len(bytes.TrimSpace(head)) > 0:
		return "its lines end in a carriage return alone (classic Mac OS line endings), which no log uses: convert them first, e.g. tr '\\r' '\\n'"
	}
	return ""
}

// wide reports text of width bytes a character (UTF-16 or UTF-32): one of
// its byte order marks, or ASCII text written so, one position of every width
// bytes holding the letters and the others NUL (three quarters of them at
// least: a few characters beyond ASCII have no NUL there).
func wide(head []byte, width int, boms ...[]byte) bool {
	for _, bom := range boms {
		if bytes.HasPrefix(head, bom) {
			return true
		}
	}
	head = head[:min(len(head), 64)]
	if len(head) < 2*width {
		return false
	}
	zeros := make([]int, width)
	for i, c := range head {
		if c == 0 {
			zeros[i%width]++
		}
	}
	each := len(head) / width
	for text := range width {
		nulls := 0
		for i, z := range zeros {
			if i != text && z >= each*3/4 {
				nulls++
			}
		}
		if nulls == width-1 && zeros[text] == 0 {
			return true
		}
	}
	return false
}

// Describe says what a file that begins with head looks like, for a file no
// source claims: the user learns what was found, and, for JSON Lines, the keys
// a --fields map could name.
func Describe(head []byte) string {
	if len(head) == 0 {
		return "empty file"
	}
	text := bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	if len(bytes.TrimSpace(text)) == 0 {
		return "only blank lines"
	}
	if !utf8.Valid(text[:validPrefix(text)]) || bytes.IndexByte(text, 0) >= 0 {
		return "binary data, not text"
	}
	first := firstLine(text)
	trimmed := bytes.TrimSpace(first)
	switch {
	case len(trimmed) > 0 && trimmed[0] == '{' && (trimmed[len(trimmed)-1] == '}' || len(first) == len(text)):
		if keys := topKeys(trimmed); len(keys) > 0 {
			return "JSON Lines whose first object has the keys " + listKeys(keys)
		}
		return "JSON Lines, but its first line is not a JSON object"
	case len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '[' && opensArray(trimmed[1:])):
		return "a JSON document, not JSON Lines (one record per line)"
	}
	return fmt.Sprintf("text; its first line: %q", clip(string(trimmed), 60))
}

// opensArray reports whether what follows a '[' begins a JSON array's
// first element (not a TOML or INI section name).
func opensArray(rest []byte) bool {
	rest = bytes.TrimSpace(rest)
	if len(rest) == 0 || bytes.IndexByte([]byte("{[\"-0123456789]"), rest[0]) >= 0 {
		return true
	}
	for _, lit := range []string{"true", "false", "null"} {
		if bytes.HasPrefix(rest, []byte(lit)) {
			return true
		}
	}
	return false
}

// validPrefix is the length of head without a rune cut at its end.
func validPrefix(head []byte) int {
	n := len(head)
	for i := 0; i < utf8.UTFMax && n-i > 0; i++ {
		if utf8.RuneStart(head[n-i-1]) {
			if !utf8.FullRune(head[n-i-1:]) {
				return n - i - 1
			}
			break
		}
	}
	return n
}

func firstLine(b []byte) []byte {
	for {
		line, rest, found := bytes.Cut(b, []byte("\n"))
		if len(bytes.TrimSpace(line)) > 0 || !found {
			return line
		}
		b = rest
	}
}

// topKeys are the top-level keys of a JSON object, as far as line holds them
// (a line cut by the head gives the keys before the cut).
func topKeys(line []byte) []string {
	var keys []string
	err := jsonl.ScanObject(line, func(key, _ []byte) bool {
		keys = append(keys, string(key))
		return true
	})
	if err != nil && len(keys) == 0 {
		return nil
	}
	return keys
}

func listKeys(keys []string) string {
	const most = 8
	q := make([]string, 0, most)
	for _, k := range keys[:min(len(keys), most)] {
		q = append(q, fmt.Sprintf("%q", clip(k, 30)))
	}
	s := strings.Join(q, ", ")
	if len(keys) > most {
		s += fmt.Sprintf(" and %d more", len(keys)-most)
	}
	return s
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(slices.Clip(r[:n])) + "…"
}
