package policy

import (
	"iter"
	"strconv"
	"strings"
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
// whole number, a decimal or a name, none of which needs escaping.
func (w Written) MarshalJSON() ([]byte, error) {
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
			b = strconv.AppendQuote(b, v)
		}
	}
	return append(b, '}'), nil
}

// String is the settings as a CSV cell: key=value joined by colons, so
// that the policy's name, a colon and the cell is its --policy
// ("patience:max_turns_stuck=40:…", Parse); "" for none.
func (w Written) String() string {
	var parts []string
	for s := range w.all() {
		parts = append(parts, s.Key+"="+s.Format(w.p.Get(s)))
	}
	return strings.Join(parts, ":")
}
