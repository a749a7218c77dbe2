package jsonl

import (
	"bytes"
	stdjson "encoding/json"
	"errors"
	"fmt"
	"reflect"
	"unicode/utf8"

	gojson "github.com/goccy/go-json"
)

// Codec decodes one JSON document into v.
type Codec func(data []byte, v any) error

// The two codecs lbanalyze can use; BenchmarkDecode compares them on real lines.
var (
	StdCodec   Codec = stdjson.Unmarshal
	GoccyCodec Codec = gojson.Unmarshal
)

// DefaultCodec is goccy/go-json, the design's decoder (batch over 1,000
// realistic episodes takes about 1.45× the CPU with encoding/json alone:
// 1.10 against 1.57–1.64 s, 2026-11-25), with encoding/json behind it: a
// line goccy rejects or panics on is decoded again by the standard library,
// whose verdict (and error message) stands.
var DefaultCodec = Fallback(GoccyCodec, StdCodec)

// Fallback decodes with fast, and with sure when fast fails or panics.
func Fallback(fast, sure Codec) Codec {
	return func(data []byte, v any) (err error) {
		defer func() {
			if p := recover(); p != nil {
				err = sure(data, v)
			}
		}()
		if err = fast(data, v); err != nil {
			return sure(data, v)
		}
		return nil
	}
}

// Repair lists what Decode had to mend in a line before decoding it.
type Repair uint8

const (
	// RepairedUTF8 means invalid UTF-8 bytes were replaced with U+FFFD.
	RepairedUTF8 Repair = 1 << iota
	// RepairedNaN means bare NaN or ±Infinity tokens were read as null.
	RepairedNaN
)

// Decode decodes data into v with Python's leniency: bare NaN, Infinity and
// -Infinity outside strings read as null (a missing value), and invalid UTF-8
// is replaced with U+FFFD (reported in the Repair result) so that both codecs
// agree. A panic inside the codec becomes an error.
func (c Codec) Decode(data []byte, v any) (rep Repair, err error) {
	if !utf8.Valid(data) {
		data = bytes.ToValidUTF8(data, []byte("\uFFFD"))
		rep |= RepairedUTF8
	}
	if bytes.Contains(data, []byte("NaN")) || bytes.Contains(data, []byte("Infinity")) {
		if fixed, n := nullNonFinite(data); n > 0 {
			data = fixed
			rep |= RepairedNaN
		}
	}
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("decoder panic: %v", p)
		}
	}()
	return rep, typeError(c(data, v))
}

// Unescape is a JSON string's content (between its quotes) with its escapes
// undone; s itself when it has none, nil when it is not a valid string.
func Unescape(s []byte) []byte {
	if bytes.IndexByte(s, '\\') < 0 {
		return s
	}
	var v string
	if stdjson.Unmarshal(append(append([]byte{'"'}, s...), '"'), &v) != nil {
		return nil
	}
	return []byte(v)
}

// typeError names a member of the wrong type by its key and what it should
// be, in a log's words rather than the Go struct's: "score: number 5.5, not a
// whole number".
func typeError(err error) error {
	var te *stdjson.UnmarshalTypeError
	if !errors.As(err, &te) || te.Type == nil {
		return err
	}
	want := te.Type.String()
	switch te.Type.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		want = "a whole number"
	case reflect.Float32, reflect.Float64:
		want = "a number"
	case reflect.String:
		want = "a string"
	case reflect.Bool:
		want = "true or false"
	case reflect.Slice, reflect.Array:
		want = "a list"
	case reflect.Struct, reflect.Map:
		want = "an object"
	}
	return fmt.Errorf("%s: %s, not %s", te.Field, te.Value, want)
}

// nullNonFinite returns a copy of data with the bare tokens NaN, Infinity and
// -Infinity outside string literals replaced by null, and how many it replaced.
func nullNonFinite(data []byte) ([]byte, int) {
	var out []byte
	n, last := 0, 0
	inString := false
	for i := 0; i < len(data); i++ {
		c := data[i]
		if inString {
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
			}
			continue
		}
		if c == '"' {
			inString = true
			continue
		}
		for _, tok := range [...]string{"NaN", "Infinity", "-Infinity"} {
			if bytes.HasPrefix(data[i:], []byte(tok)) && (i == 0 || delimiter(data[i-1])) &&
				(i+len(tok) == len(data) || delimiter(data[i+len(tok)])) {
				out = append(out, data[last:i]...)
				out = append(out, "null"...)
				i += len(tok) - 1
				last = i + 1
				n++
				break
			}
		}
	}
	if n == 0 {
		return data, 0
	}
	return append(out, data[last:]...), n
}

func delimiter(c byte) bool {
	switch c {
	case ',', ':', '[', ']', '{', '}', ' ', '\t', '\n', '\r':
		return true
	}
	return false
}
