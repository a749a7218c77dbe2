package source

import (
	"reflect"
	"strings"

	"github.com/lbanalyze/lbanalyze/jsonl"
)

// A line that matters is decoded whole (jsonl.Decode), and the decoder
// copies it first; a long one is first slimmed to the members its source
// reads, so that a line or document of megabytes (a Burr state of thousands
// of turns, a snapshot, a runaway action) costs the decoder a few KB.

// SlimFrom is the length from which a line is slimmed before it is decoded:
// below it, the decoder's copy costs less than the read buffer, and the
// decoder passes over what it does not read faster than the scanner.
const SlimFrom = 1 << 20

// Keep says what to keep of a member, given its key (unescaped) and raw
// value: the value, something in its place (a nested object, itself
// slimmed), or nothing.
type Keep func(key string, value []byte) ([]byte, bool)

// Slim is the JSON object obj with only the members keep keeps, in order, so
// that the last of a repeated key still wins when it is decoded, as in
// Python. The error is the scanner's, for obj that is not one JSON object.
func Slim(obj []byte, keep Keep) ([]byte, error) {
	out := []byte{'{'}
	err := jsonl.ScanObject(obj, func(k, v []byte) bool {
		if v, ok := keep(string(jsonl.Unescape(k)), v); ok {
			if len(out) > 1 {
				out = append(out, ',')
			}
			out = append(append(append(append(out, '"'), k...), '"', ':'), v...)
		}
		return true
	})
	return append(out, '}'), err
}

// Only keeps the members keys names, as they are.
func Only(keys map[string]bool) Keep {
	return func(key string, v []byte) ([]byte, bool) { return v, keys[key] }
}

// Nested keeps the member key, an object slimmed by keep (as it is when it
// is not an object), and what others keeps.
func Nested(key string, keep, others Keep) Keep {
	return func(k string, v []byte) ([]byte, bool) {
		if k != key {
			return others(k, v)
		}
		if len(v) > 0 && v[0] == '{' {
			s, err := Slim(v, keep)
			return s, err == nil
		}
		return v, true
	}
}

// Keys are the keys of the fields of the struct v is or points to, by their
// json tags.
func Keys(v any) map[string]bool {
	keys := map[string]bool{}
	t := reflect.TypeOf(v)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	for i := range t.NumField() {
		if k, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ","); k != "" && k != "-" {
			keys[k] = true
		}
	}
	return keys
}
