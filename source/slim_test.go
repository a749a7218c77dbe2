package source

import (
	"strings"
	"testing"
)

// Slim keeps the members named, in order, repeated ones too (the last wins
// when decoded), nested objects slimmed in turn; keys are matched once their
// escapes are undone, exactly.
func TestSlim(t *testing.T) {
	line := `{"a": 1, "b": {"x": 1, "y": [2]}, "A": 3, "a": 4, "c\u0061": "5", "d": [{"x": 1, "z": 2}, 3], "e": {"x": 9}}`
	inner := Only(map[string]bool{"x": true})
	keep := Nested("b", inner, func(k string, v []byte) ([]byte, bool) { return v, k == "a" || k == "ca" || k == "d" })
	got, err := Slim([]byte(line), keep)
	if want := `{"a":1,"b":{"x":1},"a":4,"c\u0061":"5","d":[{"x": 1, "z": 2}, 3]}`; err != nil || string(got) != want {
		t.Errorf("got %s, %v\nwant %s", got, err, want)
	}
	if _, err := Slim([]byte(`{"a": 1,, "b": 2}`), keep); err == nil || !strings.Contains(err.Error(), "column 9") {
		t.Errorf("a broken object: %v", err)
	}
}

func TestKeys(t *testing.T) {
	type s struct {
		A int  `json:"a"`
		B *int `json:"b,omitempty"`
		C int  `json:"-"`
		D int
	}
	if k := Keys(&s{}); len(k) != 2 || !k["a"] || !k["b"] {
		t.Errorf("keys %v", k)
	}
}
