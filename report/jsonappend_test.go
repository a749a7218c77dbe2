package report

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/lbanalyze/lbanalyze/policy"
)

// encoded is v as encoding/json's Encoder writes it with SetIndent(prefix,
// "  ") and no HTML escaping, without the final newline.
func encoded(t testing.TB, v any, prefix string) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent(prefix, "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// trickyStrings need every escape encoding/json makes, and some it does not.
var trickyStrings = []string{
	"", "score", "West of House", "Room <1> & \"2\"", `back\slash`, "tab\there", "new\nline\r\n",
	"\b\f\x00\x01\x1f\x7f", "é → ✓ 😀", "\u2028\u2029", "a\u2028b\u2029c", "\xff", "a\xc0\x80b", "\xed\xa0\x80",
	"\xe2\x80", "\xf0\x9f\x98", "\u0085\u00a0", "\ufffd", "</script>", "'single'", strings.Repeat("long ", 50),
}

// fill sets v, and every field, element and pointee under it, to values
// drawn from rng: nil, empty and set pointers and slices, edge integers,
// finite floats across their range, strings from trickyStrings or random
// bytes. A kind it does not know fails the test: a new kind of field in
// ResultJSON needs a new case here.
func fill(t *testing.T, v reflect.Value, rng *rand.Rand) {
	switch v.Kind() {
	case reflect.Int:
		ints := []int64{0, 1, -1, 7, 40, 220, 1 << 40, math.MinInt64, math.MaxInt64, rng.Int64N(2000) - 1000}
		v.SetInt(ints[rng.IntN(len(ints))])
	case reflect.Bool:
		v.SetBool(rng.IntN(2) == 1)
	case reflect.String:
		if rng.IntN(4) == 0 {
			b := make([]byte, rng.IntN(12))
			for i := range b {
				b[i] = byte(rng.IntN(256))
			}
			v.SetString(string(b))
		} else {
			v.SetString(trickyStrings[rng.IntN(len(trickyStrings))])
		}
	case reflect.Float64:
		v.SetFloat(randomFloat(rng))
	case reflect.Pointer:
		if rng.IntN(3) == 0 {
			v.SetZero()
			return
		}
		p := reflect.New(v.Type().Elem())
		fill(t, p.Elem(), rng)
		v.Set(p)
	case reflect.Slice:
		switch n := rng.IntN(5); n {
		case 0:
			v.SetZero()
		default:
			s := reflect.MakeSlice(v.Type(), n-1, n-1)
			for i := range n - 1 {
				fill(t, s.Index(i), rng)
			}
			v.Set(s)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			fill(t, v.Field(i), rng)
		}
	default:
		t.Fatalf("fill: %s (%s) is not handled: extend fill and appendResult", v.Type(), v.Kind())
	}
}

// randomFloat is a finite float64: an edge of encoding/json's format (0, -0,
// 1e-6, 1e21 and their neighbours), a price as Round6 gives it, or any bits.
func randomFloat(rng *rand.Rand) float64 {
	edges := []float64{0, math.Copysign(0, -1), 1e-6, math.Nextafter(1e-6, 0), 1e21, math.Nextafter(1e21, 0),
		1e-7, 1.5e-9, -2.5e-10, 1e-300, math.SmallestNonzeroFloat64, math.MaxFloat64, -math.MaxFloat64, 0.1, 123456.789012, 1e20, 3e100}
	switch rng.IntN(3) {
	case 0:
		return edges[rng.IntN(len(edges))]
	case 1:
		return *Round6(rng.Float64() * math.Pow(10, float64(rng.IntN(12)-4)))
	}
	for {
		if f := math.Float64frombits(rng.Uint64()); !math.IsNaN(f) && !math.IsInf(f, 0) {
			return f
		}
	}
}

// appendResult gives encoding/json's bytes for results with every field set
// at random (each pointer nil or not, each slice nil, empty or not), at
// several prefixes.
func TestAppendResultEqualsEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 6000))
	n := 20000
	if testing.Short() {
		n = 2000
	}
	nulls, sets := map[string]int{}, map[string]int{}
	for i := range n {
		var r ResultJSON
		fill(t, reflect.ValueOf(&r).Elem(), rng)
		for k := range reflect.TypeFor[ResultJSON]().NumField() {
			f := reflect.ValueOf(r).Field(k)
			name := reflect.TypeFor[ResultJSON]().Field(k).Name
			if (f.Kind() == reflect.Pointer || f.Kind() == reflect.Slice) && f.IsNil() {
				nulls[name]++
			} else {
				sets[name]++
			}
		}
		prefix := []string{"", "      ", "\t", "  "}[i%4]
		got := appendResult([]byte("x"), &r, resultLines(prefix))
		want := append([]byte("x"), encoded(t, &r, prefix)...)
		if !bytes.Equal(got, want) {
			t.Fatalf("result %+v, prefix %q:\ngot  %s\nwant %s", r, prefix, got, want)
		}
	}
	for k := range reflect.TypeFor[ResultJSON]().NumField() {
		f := reflect.TypeFor[ResultJSON]().Field(k)
		if sets[f.Name] == 0 || (f.Type.Kind() == reflect.Pointer || f.Type.Kind() == reflect.Slice) && nulls[f.Name] == 0 {
			t.Errorf("%s: set %d times, nil %d times", f.Name, sets[f.Name], nulls[f.Name])
		}
	}
}

// appendJSONString quotes as encoding/json does every string of one and two
// bytes, runes around the escapes, and random strings.
func TestAppendJSONStringEqualsEncodingJSON(t *testing.T) {
	check := func(s string) {
		t.Helper()
		if got, want := appendJSONString(nil, s), encoded(t, s, ""); !bytes.Equal(got, want) {
			t.Fatalf("%q: got %s, want %s", s, got, want)
		}
	}
	for _, s := range trickyStrings {
		check(s)
	}
	for a := range 256 {
		check(string([]byte{byte(a)}))
		for b := range 256 {
			check(string([]byte{byte(a), byte(b)}))
		}
	}
	for r := rune(0); r <= utf8.MaxRune; r += 1 + r/64 { // dense where the escapes are
		check(string(r))
		check("a" + string(r) + "\"")
	}
	rng := rand.New(rand.NewPCG(2028, 2029))
	for range 20000 {
		b := make([]byte, rng.IntN(24))
		for i := range b {
			switch rng.IntN(4) {
			case 0:
				b[i] = byte(rng.IntN(0x20))
			case 1:
				b[i] = 0x80 + byte(rng.IntN(0x80))
			default:
				b[i] = byte(rng.IntN(0x80))
			}
		}
		check(string(b))
	}
}

// appendJSONFloat writes finite floats as encoding/json does.
func TestAppendJSONFloatEqualsEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 21))
	for range 50000 {
		f := randomFloat(rng)
		if got, want := appendJSONFloat(nil, f), encoded(t, f, ""); !bytes.Equal(got, want) {
			t.Fatalf("%v: got %s, want %s", f, got, want)
		}
	}
}

// A cost that is not a number fails WriteJSON as it fails encoding/json.
func TestWriteJSONNotANumber(t *testing.T) {
	ep := bundledEpisodes(t)[0]
	e := AnalyseWith(ep, []policy.Policy{score, sor}, policy.DefaultParams(), Options{CallsPerTurn: 4, CostPerCall: math.Inf(1)})
	err := WriteJSON(io.Discard, []Episode{e})
	_, want := json.Marshal(e.JSON())
	if err == nil || want == nil || err.Error() != want.Error() {
		t.Errorf("WriteJSON with an infinite cost: %v, want %v", err, want)
	}
}

func FuzzAppendJSONString(f *testing.F) {
	for _, s := range trickyStrings {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := appendJSONString(nil, s), encoded(t, s, ""); !bytes.Equal(got, want) {
			t.Fatalf("%q: got %s, want %s", s, got, want)
		}
	})
}
