package policy

import (
	"cmp"
	"fmt"
	"iter"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Written is a policy's settings as every output writes them beside its
// name (docs/output.md, "Settings"): each setting its policy has, in its
// Kind's order, by its key, in users' units; none for a policy without
// settings. JSON gives them as one object (MarshalJSON), CSV as one cell
// (String).
type Written struct{ p Policy }

// Written is p's settings as output writes them.
func (p Policy) Written() Written { return Written{p} }

// all yields each setting of the policy and its value as JSON and CSV give it
// (Setting.Value).
func (w Written) all() iter.Seq2[*Setting, any] {
	return func(yield func(*Setting, any) bool) {
		if k := w.p.Kind(); k != nil {
			for _, s := range k.Settings {
				if !yield(s, s.Value(w.p.Get(s))) {
					return
				}
			}
		}
	}
}

// MarshalJSON writes the settings as one object, {} for none: a value is a
// whole number, a decimal, a name or a pattern (ignore=REGEX). A combination
// (any) writes its rules instead, each as --policy writes it: {"rules":
// ["score:max_turns_stuck=40:…", "repeat:times=4:…"]}.
func (w Written) MarshalJSON() ([]byte, error) {
	if parts := w.parts(); parts != nil {
		b := []byte(`{"rules":[`)
		for i, q := range parts {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, q.spec())
		}
		return append(b, "]}"...), nil
	}
	b := []byte{'{'}
	for s, v := range w.all() {
		if len(b) > 1 {
			b = append(b, ',')
		}
		b = append(strconv.AppendQuote(b, s.Key), ':')
		switch v := v.(type) {
		case int:
			b = strconv.AppendInt(b, int64(v), 10)
		case float64:
			b = strconv.AppendFloat(b, v, 'f', -1, 64)
		case string:
			b = appendJSONString(b, v)
		}
	}
	return append(b, '}'), nil
}

// String is the settings as a CSV cell: key=value joined by colons, so
// that the policy's name, a colon and the cell is its --policy
// ("patience:max_turns_stuck=40:…", Parse); "" for none.
func (w Written) String() string {
	if rules := w.parts(); rules != nil {
		specs := make([]string, len(rules))
		for i, q := range rules {
			specs[i] = q.spec()
		}
		return strings.Join(specs, "+")
	}
	var parts []string
	for s := range w.all() {
		parts = append(parts, s.Key+"="+s.Format(w.p.Get(s)))
	}
	return strings.Join(parts, ":")
}

// parts are the rules of a combination (any), nil for any other policy.
func (w Written) parts() []Policy {
	if k := w.p.Kind(); k.combines() {
		return k.Parts(w.p)
	}
	return nil
}

// spec is p as --policy writes it, every setting given: its name, a colon and
// its Written cell ("repeat:times=4:then=0:within=0"); a combination's rules
// joined by + ("score:…+repeat:…").
func (p Policy) spec() string {
	cell := p.Written().String()
	if p.Kind().combines() || cell == "" {
		return cmp.Or(cell, string(p.Name))
	}
	return string(p.Name) + ":" + cell
}

// appendJSONString appends s as a JSON string: a pattern may hold a quote, a
// backslash or a control character, which strconv.Quote would write in Go's
// escapes, not all of them JSON's.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b = append(b, '\\', byte(r))
		case r < 0x20 || r == 0x7f || r == 0x2028 || r == 0x2029:
			b = fmt.Appendf(b, "\\u%04x", r)
		default:
			b = utf8.AppendRune(b, r)
		}
	}
	return append(b, '"')
}
