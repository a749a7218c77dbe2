package jsonscan

import (
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/internal/benchdata"
)

// strByByte is str a byte at a time: the reference the word-wise str is
// held to.
func strByByte(b []byte, from int) (int, error) {
	for i := from + 1; i < len(b); {
		switch x := b[i]; {
		case x == '"':
			return i + 1, nil
		case x == '\\':
			n, err := escape(b[i:])
			if err != nil {
				return 0, err
			}
			i += n
		case x < 0x20:
			return 0, ErrUnsure
		default:
			i++
		}
	}
	return 0, ErrMore
}

// strings a skip meets: JSON written into a string (a tool's result, an
// escape every few bytes), prose without escapes, prose with a line break
// now and then, and a run of backslashes across words.
var benchStrings = map[string]string{
	"json-in-string": `"` + strings.Repeat(`{\"flight\": \"HAT001\", \"date\": \"2024-05-15\"} `, 30) + `"`,
	"prose":          `"` + strings.Repeat("The user wants a change; check the policy first. ", 30) + `"`,
	"lines":          `"` + strings.Repeat(`Cellar\nYou are in a dark and damp cellar with a narrow passageway leading north.\n`, 20) + `"`,
}

// TestStrAsByByte: str ends where, and fails as, strByByte does, on strings
// whose escapes, controls and closing quote fall at every place of a word,
// and at the buffer's end.
func TestStrAsByByte(t *testing.T) {
	pieces := []string{`\"`, `\\`, `\\\"`, `\n`, `\/`, `\u00e9`, `\ud83d\ude00`, `\ud800`, `\x`, "\x01", `\`, `\\\`, "é", `"`}
	for pad := range 17 {
		for _, p := range pieces {
			for _, q := range pieces {
				s := `"` + strings.Repeat("a", pad) + p + strings.Repeat("b", pad%5) + q + `xyz" tail`
				for end := 1; end <= len(s); end++ {
					asByByte(t, []byte(s[:end]))
				}
			}
		}
	}
}

// FuzzStr: on any bytes after a quote, str is strByByte.
func FuzzStr(f *testing.F) {
	for _, s := range benchStrings {
		f.Add([]byte(s[1:]))
	}
	f.Add([]byte(`\\\\\"\\\\\\\\\\\\\\\\\\\"\u00e9 x" `))
	f.Fuzz(func(t *testing.T, data []byte) {
		asByByte(t, append([]byte{'"'}, data...))
	})
}

// asByByte fails unless str, from the quote b begins with, ends where, and
// fails as, strByByte does.
func asByByte(t *testing.T, b []byte) {
	t.Helper()
	c := Cursor{B: b}
	err := c.str()
	want, wantErr := strByByte(b, 0)
	if err != wantErr || err == nil && c.I != want {
		t.Fatalf("%q: str at %d, %v; byte by byte %d, %v", b, c.I, err, want, wantErr)
	}
}

// BenchmarkStr passes over each kind of string.
func BenchmarkStr(b *testing.B) {
	for _, name := range []string{"json-in-string", "prose", "lines"} {
		s := []byte(benchStrings[name])
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(s)))
			stop := benchdata.CPU(b)
			for b.Loop() {
				c := Cursor{B: s}
				if c.str() != nil || c.I != len(s) {
					b.Fatal(c.I)
				}
			}
			stop()
		})
	}
}
