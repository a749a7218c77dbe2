package jsonl

import (
	"testing"
)

// Members keeps the members a struct names, by exact key once escapes are
// undone, nested structs filtered the same way; worked by hand.
func TestMembersExact(t *testing.T) {
	type inner struct {
		Score *int `json:"score"`
	}
	type rec struct {
		Score  *int   `json:"score"`
		Turn   *int   `json:"turn,omitempty"`
		Extras *inner `json:"extras"`
		Skip   int    `json:"-"`
	}
	m := MembersOf(&rec{})
	for _, c := range []struct{ line, want string }{
		{`{"score": 5, "turn": 2}`, `{"score":5,"turn":2}`},
		{`{"SCORE": 5, "Score": 6, "ſcore": 7, "turn": 2}`, `{"turn":2}`},
		{`{"sco\u0072e": 5}`, `{"score":5}`},
		{`{"extras": {"score": 1, "Score": 2, "x": [1]}, "level": "INFO"}`, `{"extras":{"score":1}}`},
		{`{"extras": {"x": 1}}`, `{"extras":{}}`},
		{`{"Skip": 1, "-": 2}`, `{}`},
	} {
		var out []byte
		if err := ScanObject([]byte(c.line), func(k, v []byte) { out, _ = m.Append(out, k, v) }); err != nil {
			t.Fatal(err)
		}
		if got := string(Object(out)); got != c.want {
			t.Errorf("%s: %s, want %s", c.line, got, c.want)
		}
	}
}
