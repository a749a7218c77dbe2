package jsonl

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"unicode/utf8"

	gojson "github.com/goccy/go-json"
	"github.com/goccy/go-json/jsontext"
	jsonv2 "github.com/goccy/go-json/v2"
)

// Repair lists what Decode had to mend in a line before decoding it.
type Repair uint8

const (
	// RepairedUTF8 means invalid UTF-8 bytes were replaced with U+FFFD.
	RepairedUTF8 Repair = 1 << iota
	// RepairedNaN means bare NaN or ±Infinity tokens were read as null.
	RepairedNaN
)

// Exact are goccy/go-json's v2 semantics as Python's json.loads reads an
// object: keys match a struct's fields exactly, case and all, once their
// escapes are undone (its v1, like encoding/json, folds case and reads
// "SCORE" as score); the last of a repeated key wins; an escaped lone
// surrogate reads as U+FFFD.
var Exact = jsonv2.JoinOptions(jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))

// explained adds goccy/go-json's v1 errors, which name a member of the wrong
// type by its path.
var explained = jsonv2.JoinOptions(Exact, gojson.ReportErrorsWithLegacySemantics(true))

// Decode decodes data, one JSON value, into v as Python's json.loads reads it
// (Exact): bare NaN, Infinity and -Infinity outside strings read as null (a
// missing value), and invalid UTF-8 is replaced with U+FFFD, as Repair says.
// Data that is not one JSON object gives ScanObject's SyntaxError (its column
// and why), or goccy's error as a SyntaxError where only goccy finds one (a
// control character in a string); a member of the wrong type is named by its
// key and what it should be. A panic inside the decoder becomes an error.
func Decode(data []byte, v any) (rep Repair, err error) {
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
	if err = jsonv2.Unmarshal(data, v, Exact); err == nil {
		return rep, nil
	}
	return rep, explain(data, v)
}

// explain says why data does not decode into v.
func explain(data []byte, v any) error {
	if err := ScanObject(data, nil); err != nil {
		return err
	}
	err := jsonv2.Unmarshal(data, v, explained)
	var se *gojson.SyntaxError
	if errors.As(err, &se) {
		return &SyntaxError{Column: int(se.Offset), Msg: se.Error()}
	}
	return typeError(err)
}

// Unescape is a JSON string's content (between its quotes) with its escapes
// undone; s itself when it has none, nil when it is not a valid string.
func Unescape(s []byte) []byte {
	if bytes.IndexByte(s, '\\') < 0 {
		return s
	}
	var v string
	if jsonv2.Unmarshal(append(append([]byte{'"'}, s...), '"'), &v, Exact) != nil {
		return nil
	}
	return []byte(v)
}

// typeError names a member of the wrong type by its key and what it should
// be, in a log's words rather than the Go struct's: "score: number 5.5, not a
// whole number".
func typeError(err error) error {
	var te *gojson.UnmarshalTypeError
	if !errors.As(err, &te) || te.Type == nil {
		return err
	}
	want, ok := kinds[te.Type.Kind()]
	if !ok {
		want = te.Type.String()
	}
	return fmt.Errorf("%s: %s, not %s", te.Field, te.Value, want)
}

// kinds say what a Go kind is in a log's words.
var kinds = map[reflect.Kind]string{reflect.Int: "a whole number", reflect.Int32: "a whole number", reflect.Int64: "a whole number",
	reflect.Float32: "a number", reflect.Float64: "a number", reflect.String: "a string", reflect.Bool: "true or false",
	reflect.Slice: "a list", reflect.Array: "a list", reflect.Struct: "an object", reflect.Map: "an object"}

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

func delimiter(c byte) bool { return strings.IndexByte(",:[]{} \t\n\r", c) >= 0 }
