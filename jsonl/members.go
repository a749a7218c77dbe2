package jsonl

import (
	"reflect"
	"strings"
)

// Members picks, from the members of a JSON object, those a struct type
// names in its json tags, matched exactly once their escapes are undone, and
// writes them as a compact object for the codec to decode into the struct.
//
// Exactly: Python's json.loads, and the tools that read these logs in Python,
// see "SCORE" or "Score" as keys other than "score", while encoding/json (and
// goccy/go-json for small structs) fold case and Unicode; and "sco\u0072e" is
// "score" to Python but not to a matcher of raw bytes. So the struct's one
// definition of each field (its tag) is also the one rule for its key.
type Members struct {
	fields map[string]field
}

type field struct {
	name   string   // the key, shared: a lookup allocates nothing
	nested *Members // the members of a nested struct, or nil
	elem   *Members // the members of the structs of a slice of them (Picker), or nil
}

// MembersOf lists the keys of the struct type of v (a struct or a pointer to
// one), and of the structs its fields hold, by their json tags.
func MembersOf(v any) *Members {
	t := reflect.TypeOf(v)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return membersOf(t)
}

func membersOf(t reflect.Type) *Members {
	m := &Members{fields: map[string]field{}}
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" {
			continue
		}
		ft := f.Type
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		var nested, elem *Members
		if ft.Kind() == reflect.Struct && ft != t {
			nested = membersOf(ft)
		} else if ft == t {
			nested = m // a struct that holds its own kind (ZorkGPT's extras)
		}
		if et := ft; et.Kind() == reflect.Slice && et.Elem().Kind() == reflect.Struct {
			elem = membersOf(et.Elem())
		}
		m.fields[name] = field{name, nested, elem}
	}
	return m
}

// Append appends to dst the member key: value of an object as ScanObject
// gives them (key raw, between its quotes), if the struct names key, and
// whether it did. A nested struct's object is filtered the same way.
func (m *Members) Append(dst, key, value []byte) ([]byte, bool) {
	f, ok := m.field(key)
	if !ok {
		return dst, false
	}
	if len(dst) == 0 {
		dst = append(dst, '{')
	} else {
		dst = append(dst, ',')
	}
	dst = append(dst, '"')
	dst = append(dst, f.name...)
	dst = append(dst, '"', ':')
	if f.nested != nil && len(value) > 0 && value[0] == '{' {
		return f.nested.appendObject(dst, value), true
	}
	return append(dst, value...), true
}

// appendObject appends the members of the object value that m names, as an
// object.
func (m *Members) appendObject(dst, value []byte) []byte {
	inner := []byte(nil)
	if ScanObject(value, func(k, v []byte) { inner, _ = m.Append(inner, k, v) }) != nil {
		return append(dst, "null"...) // a nested object ScanObject checked as a value but not as a whole: never
	}
	if len(inner) == 0 {
		return append(dst, '{', '}')
	}
	dst = append(dst, inner...)
	return append(dst, '}')
}

// Object ends a compact object Append began: "{}" when no member was named.
func Object(dst []byte) []byte {
	if len(dst) == 0 {
		return append(dst, '{', '}')
	}
	return append(dst, '}')
}

// field is the field a member's key names, its escapes undone.
func (m *Members) field(key []byte) (field, bool) {
	k := Unescape(key)
	if k == nil {
		return field{}, false
	}
	f, ok := m.fields[string(k)] // no allocation for the lookup
	return f, ok
}

// Name is the field a member's key (raw, as ScanObject gives it) names, its
// escapes undone, if the struct names one.
func (m *Members) Name(key []byte) (string, bool) {
	f, ok := m.field(key)
	return f.name, ok
}
