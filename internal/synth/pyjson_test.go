package synth

import (
	"math"
	"testing"
	"time"
)

// The expected texts were printed by Python 3.11's json.dumps and
// datetime.isoformat, the writers of ZorkGPT's logs.
func TestAppendPyMatchesPython(t *testing.T) {
	for _, c := range []struct {
		v    any
		want string
	}{
		{0.9, "0.9"}, {1.0, "1.0"}, {0.85, "0.85"}, {1e-05, "1e-05"}, {0.0001, "0.0001"},
		{1234567.0, "1234567.0"}, {1e16, "1e+16"}, {1.2345678901234568e+17, "1.2345678901234568e+17"},
		{math.Copysign(0, -1), "-0.0"}, {0.0, "0.0"}, {math.NaN(), "NaN"}, {math.Inf(1), "Infinity"},
		{math.Inf(-1), "-Infinity"}, {123.456, "123.456"}, {5e-324, "5e-324"}, {1e22, "1e+22"},
		{0.30000000000000004, "0.30000000000000004"},
		{Obj{{"a", "caf\u00e9 \u2192 \U0001F6A8 \"q\" \\ \n\t\r\b\f\x01\x7f"}, {"b", []any{1, "x"}}, {"c", nil}, {"d", true}},
			`{"a": "caf\u00e9 \u2192 \ud83d\udea8 \"q\" \\ \n\t\r\b\f\u0001\u007f", "b": [1, "x"], "c": null, "d": true}`},
	} {
		if got := string(appendPy(nil, c.v)); got != c.want {
			t.Errorf("%#v: got %s, want %s", c.v, got, c.want)
		}
	}
	for _, c := range []struct {
		t    time.Time
		want string
	}{
		{time.Date(2025, 11, 4, 9, 35, 24, 0, time.Local), "2025-11-04T09:35:24"},
		{time.Date(2025, 11, 4, 9, 35, 24, 5000, time.Local), "2025-11-04T09:35:24.000005"},
	} {
		if got := pyTimestamp(c.t); got != c.want {
			t.Errorf("isoformat: got %s, want %s", got, c.want)
		}
	}
}
