package synth

import (
	"fmt"
	"math"
	"strconv"
	"time"
	"unicode/utf16"
	"unicode/utf8"
)

// KV is one key and value of an ordered JSON object: Python dicts keep the
// order the caller wrote, and so does every ZorkGPT log line.
type KV struct {
	Key   string
	Value any
}

// Obj is a JSON object with its key order.
type Obj []KV

// appendPy appends v as Python's json.dumps writes it with its defaults:
// separators ", " and ": ", ensure_ascii (non-ASCII as \uXXXX, astral runes as
// surrogate pairs), allow_nan (bare NaN, Infinity, -Infinity), floats in repr
// form (0.9, 1.0, 1e-05).
func appendPy(b []byte, v any) []byte {
	switch v := v.(type) {
	case nil:
		return append(b, "null"...)
	case bool:
		return strconv.AppendBool(b, v)
	case int:
		return strconv.AppendInt(b, int64(v), 10)
	case int64:
		return strconv.AppendInt(b, v, 10)
	case float64:
		return appendPyFloat(b, v)
	case string:
		return appendPyString(b, v)
	case []string:
		return appendPyList(b, v, appendPyString)
	case []any:
		return appendPyList(b, v, appendPy)
	case Obj:
		b = append(b, '{')
		for i, kv := range v {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = appendPyString(b, kv.Key)
			b = append(b, ": "...)
			b = appendPy(b, kv.Value)
		}
		return append(b, '}')
	case raw:
		return append(b, v...)
	}
	panic(fmt.Sprintf("synth: cannot encode a %T", v))
}

// appendPyList appends xs as a JSON list, each element by each.
func appendPyList[T any](b []byte, xs []T, each func([]byte, T) []byte) []byte {
	b = append(b, '[')
	for i, x := range xs {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = each(b, x)
	}
	return append(b, ']')
}

// raw is text written as it is (used by tests to write broken lines).
type raw string

// appendPyFloat writes float repr: shortest round-trip digits, positional for
// exponents in [-4, 16), with ".0" on integral values.
func appendPyFloat(b []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(b, "NaN"...)
	case math.IsInf(f, 1):
		return append(b, "Infinity"...)
	case math.IsInf(f, -1):
		return append(b, "-Infinity"...)
	}
	if f == 0 {
		if math.Signbit(f) {
			return append(b, "-0.0"...)
		}
		return append(b, "0.0"...)
	}
	e := strconv.AppendFloat(nil, f, 'e', -1, 64) // d.ddde±XX: read the exponent
	i := len(e) - 1
	for e[i] != 'e' {
		i--
	}
	exp, _ := strconv.Atoi(string(e[i+1:]))
	if exp < -4 || exp >= 16 {
		return append(b, e...)
	}
	start := len(b)
	b = strconv.AppendFloat(b, f, 'f', -1, 64)
	for _, c := range b[start:] {
		if c == '.' {
			return b
		}
	}
	return append(b, ".0"...)
}

const hex = "0123456789abcdef"

func appendPyString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch c {
			case '"':
				b = append(b, `\"`...)
			case '\\':
				b = append(b, `\\`...)
			case '\n':
				b = append(b, `\n`...)
			case '\r':
				b = append(b, `\r`...)
			case '\t':
				b = append(b, `\t`...)
			case '\b':
				b = append(b, `\b`...)
			case '\f':
				b = append(b, `\f`...)
			default:
				if c < 0x20 || c == 0x7f { // Python escapes all but ' '..'~'

					b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
				} else {
					b = append(b, c)
				}
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if r >= 0x10000 {
			r1, r2 := utf16.EncodeRune(r)
			b = appendU(b, r1)
			b = appendU(b, r2)
		} else {
			b = appendU(b, r)
		}
	}
	return append(b, '"')
}

func appendU(b []byte, r rune) []byte {
	return append(b, '\\', 'u', hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
}

// pyTimestamp is datetime.isoformat() of a naive local time: the fraction is
// left out when the microsecond is 0.
func pyTimestamp(t time.Time) string {
	if t.Nanosecond()/1000 == 0 {
		return t.Format("2006-01-02T15:04:05")
	}
	return t.Format("2006-01-02T15:04:05.000000")
}
