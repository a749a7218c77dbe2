package jsonscan

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/goccy/go-json/jsontext"
	jsonv2 "github.com/goccy/go-json/v2"
)

// valid is whether goccy/go-json reads data as one JSON value, with the
// readers' options.
func valid(data []byte) bool {
	return jsontext.Value(data).IsValid(jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(true))
}

// skips is whether the cursor passes over data as one value, to its end
// (a space after it, for a number to end).
func skips(data []byte) (bool, error) {
	c := Cursor{B: append(data[:len(data):len(data)], ' ')}
	err := c.Skip()
	c.Space()
	return err == nil && c.I == len(c.B), err
}

func TestCursorSkip(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want error // nil: passed over
	}{
		{`{"a": [1, -2.5e+3, true, false, null, "x\"\\\/\b\f\n\r\t\u00e9"], "b": {}}`, nil},
		{"\"\\ud83d\\ude00 \xff\"", nil}, // a pair; invalid UTF-8 is allowed
		{`[]`, nil},
		{` {"a":{"b":[[]]}} `, nil},
		{`"\ud800"`, ErrUnsure}, // a lone surrogate: goccy/go-json takes it, the cursor leaves it
		{`"\udc00\ud800"`, ErrUnsure},
		{"\"a\x01\"", ErrUnsure}, // a control character
		{`"\x"`, ErrUnsure},
		{`"\u12g4"`, ErrUnsure},
		{`{"a" 1}`, ErrUnsure},
		{`{"a": 1,}`, ErrUnsure},
		{`[1 2]`, ErrUnsure},
		{`[01]`, ErrUnsure},
		{`[1.]`, ErrUnsure},
		{`[NaN]`, ErrUnsure},
		{`[nul]`, ErrUnsure},
		{`{"a": "b`, ErrMore},
		{`{"a": "b\`, ErrMore},
		{`{"a": "\u00`, ErrMore},
		{`{"a": "\ud800\`, ErrMore},
		{`{"a": [`, ErrMore},
		{strings.Repeat("[", 1001) + strings.Repeat("]", 1001), ErrUnsure},
	} {
		ok, err := skips([]byte(tc.in))
		if tc.want == ErrMore {
			c := Cursor{B: []byte(tc.in)}
			err = c.Skip()
		}
		if !errors.Is(err, tc.want) || ok != (tc.want == nil) {
			t.Errorf("%q: passed %v, %v; want %v", tc.in, ok, err, tc.want)
		}
		if ok != valid([]byte(tc.in)) && tc.want != ErrUnsure && tc.want != ErrMore {
			t.Errorf("%q: passed %v, goccy/go-json says valid %v", tc.in, ok, !ok)
		}
	}
}

// TestCursorValues: what the cursor reads of a scalar is what goccy/go-json
// decodes, and a value it is not sure of it leaves.
func TestCursorValues(t *testing.T) {
	for _, tc := range []struct {
		in            string
		text          string
		n             int64
		f             float64
		b, null, fail bool
	}{
		{in: `"plain"`, text: "plain"},
		{in: `"tab\tand \u00e9 \ud83d\ude00"`, text: "tab\tand é 😀"},
		{in: `null`, null: true},
		{in: `42`, n: 42, f: 42},
		{in: `-0`, n: 0, f: math.Copysign(0, -1)},
		{in: `1.5e3`, f: 1500},
		{in: `9223372036854775808`, f: 9223372036854775808},
		{in: `1e400`, fail: true},
		{in: `true`, b: true},
		{in: `false`},
	} {
		c := Cursor{B: []byte(tc.in)}
		if text, null, err := c.Text(); tc.in[0] == '"' && (string(text) != tc.text || null || err != nil) || tc.null && !null {
			t.Errorf("%s: text %q %v %v", tc.in, text, null, err)
		}
		c = Cursor{B: []byte(tc.in + ",")}
		n, _, err := c.Int()
		isInt := !strings.ContainsAny(tc.in, `".et`) && tc.in != "9223372036854775808" && tc.in != "null"
		if isInt && (err != nil || n != tc.n) || !isInt && tc.in != "null" && err != ErrUnsure {
			t.Errorf("%s: int %d, %v", tc.in, n, err)
		}
		c = Cursor{B: []byte(tc.in + ",")}
		f, _, err := c.Float()
		isNum := tc.in[0] != '"' && tc.in != "null" && tc.in != "true" && tc.in != "false"
		if isNum && !tc.fail && (err != nil || f != tc.f || math.Signbit(f) != math.Signbit(tc.f)) || tc.fail && err != ErrUnsure {
			t.Errorf("%s: float %v, %v", tc.in, f, err)
		}
		c = Cursor{B: []byte(tc.in + ",")}
		b, null, err := c.Bool()
		isBool := tc.in == "true" || tc.in == "false" || tc.in == "null"
		if isBool && (err != nil || b != tc.b || null != tc.null) || !isBool && err != ErrUnsure {
			t.Errorf("%s: bool %v %v, %v", tc.in, b, null, err)
		}
	}
}

// FuzzCursor: the cursor is as strict as goccy/go-json or stricter — a value
// it passes over goccy/go-json reads, and a value goccy/go-json reads never
// runs off the cursor's buffer — and what it reads of a scalar is what
// goccy/go-json decodes.
func FuzzCursor(f *testing.F) {
	for _, s := range []string{`{"a": [1, "b\n", {"c": null}]}`, `"\ud83d\ude00"`, `-12.5e-3`, `"é\u00e9\\"`, `[true, false]`, `9223372036854775807`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ok, err := skips(data)
		isValid := valid(data)
		if ok && !isValid || isValid && errors.Is(err, ErrMore) {
			t.Fatalf("%q: cursor %v %v, goccy/go-json valid %v", data, ok, err, isValid)
		}
		if !ok {
			return
		}
		opts := jsonv2.JoinOptions(jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(true))
		c := Cursor{B: data}
		if text, null, err := c.Text(); err == nil && !null {
			var s string
			if jsonv2.Unmarshal(data, &s, opts) != nil || s != string(text) {
				t.Fatalf("%q: text %q, goccy/go-json %q", data, text, s)
			}
		}
		c = Cursor{B: append(data, ',')}
		if n, null, err := c.Int(); err == nil && !null {
			var m int64
			if jsonv2.Unmarshal(data, &m, opts) != nil || m != n {
				t.Fatalf("%q: int %d, goccy/go-json %d", data, n, m)
			}
		}
		c = Cursor{B: append(data, ',')}
		if x, null, err := c.Float(); err == nil && !null {
			var y float64
			if jsonv2.Unmarshal(data, &y, opts) != nil || math.Float64bits(x) != math.Float64bits(y) {
				t.Fatalf("%q: float %v, goccy/go-json %v", data, x, y)
			}
		}
	})
}
