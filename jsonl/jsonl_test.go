package jsonl

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

func readAll(t *testing.T, r io.Reader) (lines []string, nums []int, unterminated bool, err error) {
	t.Helper()
	rd := NewReader(r, LineOptions{})
	for {
		line, n, e := rd.Next()
		if e != nil {
			if !errors.Is(e, io.EOF) {
				err = e
			}
			return
		}
		lines = append(lines, string(line))
		nums = append(nums, n)
		unterminated = rd.Unterminated
	}
}

func TestReaderLines(t *testing.T) {
	for _, c := range []struct {
		name, in     string
		want         []string
		unterminated bool
	}{
		{"empty", "", nil, false},
		{"one", "{}\n", []string{"{}"}, false},
		{"no final newline", "{}\n{\"a\": 1", []string{"{}", `{"a": 1`}, true},
		{"crlf", "{}\r\n{}\r\n", []string{"{}", "{}"}, false},
		{"blank lines kept and counted", "{}\n\n{}\n", []string{"{}", "", "{}"}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, nums, unterminated, err := readAll(t, strings.NewReader(c.in))
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(got, "|") != strings.Join(c.want, "|") || unterminated != c.unterminated {
				t.Errorf("got %q (unterminated %v), want %q (%v)", got, unterminated, c.want, c.unterminated)
			}
			for i, n := range nums {
				if n != i+1 {
					t.Errorf("line %d numbered %d", i+1, n)
				}
			}
		})
	}
}

// A 12 MiB line (within DefaultMaxLine) is read whole (bufio.Scanner's 64 KiB
// default would stop), and the lines around it keep their numbers.
func TestReaderHugeLine(t *testing.T) {
	huge := `{"event_type": "final_action_selection", "agent_reasoning": "` + strings.Repeat("x", 12<<20) + `"}`
	in := "{}\n" + huge + "\n" + `{"event_type": "turn_completed"}` + "\n"
	got, nums, _, err := readAll(t, strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[1] != huge || nums[2] != 3 {
		t.Fatalf("got %d lines, second of %d bytes, last numbered %d", len(got), len(got[1]), nums[len(nums)-1])
	}
	if err := ScanObject([]byte(got[1]), nil); err != nil {
		t.Errorf("huge line: %v", err)
	}
}

func TestOpenDetectsCompressionByMagic(t *testing.T) {
	content := "{\"a\": 1}\n{\"b\": 2}\n"
	var gz, zs bytes.Buffer
	gw := gzip.NewWriter(&gz)
	gw.Write([]byte(content))
	gw.Close()
	zw, _ := zstd.NewWriter(&zs)
	zw.Write([]byte(content))
	zw.Close()
	dir := t.TempDir()
	// Names that lie about the content: detection goes by magic bytes.
	files := map[string][]byte{"plain.jsonl.gz": []byte(content), "g.jsonl": gz.Bytes(), "z.log": zs.Bytes()}
	for name, data := range files {
		path := filepath.Join(dir, name)
		os.WriteFile(path, data, 0o644)
		rc, err := Open(path, nil, Limits{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got, _ := io.ReadAll(rc)
		rc.Close()
		if string(got) != content {
			t.Errorf("%s: got %q", name, got)
		}
	}
	rc, err := Open("-", bytes.NewReader(gz.Bytes()), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := io.ReadAll(rc); string(got) != content {
		t.Errorf("stdin: got %q", got)
	}
	if _, err := Open(filepath.Join(dir, "missing"), nil, Limits{}); err == nil {
		t.Error("a missing file opened")
	}
}

// A plain stream's first read gives the bytes looked at for its magic with
// those after them, and a read error after them comes next.
func TestPlainFirstRead(t *testing.T) {
	content := `{"event_type": "turn_completed"}` + "\n"
	for _, tc := range []struct {
		name string
		r    io.Reader
		want []string // what each read gives, then the error
		err  error
	}{
		{"whole", strings.NewReader(content), []string{content}, io.EOF},
		{"short", strings.NewReader("{}\n"), []string{"{}\n"}, io.EOF},
		{"data with its end", iotest.DataErrReader(strings.NewReader(content)), []string{content}, io.EOF},
		{"failing", io.MultiReader(strings.NewReader(content[:10]), iotest.ErrReader(errBroken)), []string{content[:10]}, errBroken},
	} {
		rc, err := decompress(io.NopCloser(tc.r), Limits{})
		if err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 1024)
		var got []string
		for {
			n, err := rc.Read(buf)
			if n > 0 {
				got = append(got, string(buf[:n]))
			}
			if err != nil {
				if !errors.Is(err, tc.err) || !slices.Equal(got, tc.want) {
					t.Errorf("%s: reads %q then %v, want %q then %v", tc.name, got, err, tc.want, tc.err)
				}
				break
			}
		}
	}
}

var errBroken = errors.New("broken")

// A gzip stream cut short yields the lines before the cut and then an error.
func TestReaderCorruptGzip(t *testing.T) {
	var gz bytes.Buffer
	gw := gzip.NewWriter(&gz)
	gw.Write([]byte(strings.Repeat("{\"event_type\": \"turn_completed\"}\n", 5000)))
	gw.Close()
	cut := gz.Bytes()[:gz.Len()/2]
	rc, err := decompress(io.NopCloser(bytes.NewReader(cut)), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	lines, _, _, err := readAll(t, rc)
	if err == nil || len(lines) == 0 {
		t.Errorf("got %d lines and error %v, want some lines and an error", len(lines), err)
	}
}

func TestScanObject(t *testing.T) {
	for _, c := range []struct {
		line string
		err  string // substring of the error; "" for none
		keys string
	}{
		{`{"timestamp": "2025-11-04T09:35:24", "level": "INFO", "message": "Turn 1 completed", "event_type": "turn_completed"}`, "", "timestamp level message event_type"},
		{`{"a": NaN, "b": Infinity, "c": -Infinity, "d": [NaN], "e": {"f": -0.5e-3}}`, "", "a b c d e"},
		{`{"message": "she said \"hi\" \\", "x": "\\\\"}`, "", "message x"},
		{`{"a": "tail backslash \\"}`, "", "a"},
		{` {"a": 1} `, "", "a"},
		{`{}`, "", ""},
		{`{"a": 1`, "truncated", ""},
		{`{"a": "unterminated`, "truncated", ""},
		{`{"a": tru`, "truncated", ""},
		{`{"a": 1}{"b": 2}`, "data after the end", ""},
		{`{"a": 1} x`, "data after the end", ""},
		{`[1, 2]`, "does not start with '{'", ""},
		{``, "empty line", ""},
		{`{"a" 1}`, "expected ':'", ""},
		{`{"a": nan}`, "invalid value", ""},
		{`{"a": 01}`, "invalid value", ""},
		{`{"a": 1,}`, "expected a key", ""},
		{`{a: 1}`, "expected a key", ""},
		{`{"a": [1 2]}`, "expected ',' or ']'", ""},
		{`{"a": ` + strings.Repeat("[", 2000) + strings.Repeat("]", 2000) + `}`, "nested too deeply", ""},
	} {
		var keys []string
		err := ScanObject([]byte(c.line), func(k, v []byte) bool {
			keys = append(keys, string(k))
			return true
		})
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%.60s: unexpected error %v", c.line, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%.60s: error %v, want one about %q", c.line, err, c.err)
		case c.err == "" && strings.Join(keys, " ") != c.keys:
			t.Errorf("%.60s: keys %q, want %q", c.line, keys, c.keys)
		}
	}
}

// ScanObject stops where its visitor says, the rest unchecked; ScanHead also
// shows the member a head cuts.
func TestScanStops(t *testing.T) {
	line := []byte(`{"a": 1, "event_type": "x", "b": [1 2 3], "c"`)
	var seen []string
	err := ScanObject(line, func(k, v []byte) bool {
		seen = append(seen, string(k)+"="+string(v))
		return string(k) != "event_type"
	})
	if err != nil || strings.Join(seen, " ") != `a=1 event_type="x"` {
		t.Errorf("stopped: %q, %v", seen, err)
	}
	head := []byte(`{"meta": {"turn": 3}, "state": {"action_history": [{"turn": 1, "act`)
	seen = nil
	err = ScanHead(head, func(k, v []byte) bool {
		seen = append(seen, string(k)+"="+string(v[:min(len(v), 20)]))
		return true
	})
	if err == nil || !strings.Contains(err.Error(), "truncated") || strings.Join(seen, " ") != `meta={"turn": 3} state={"action_history": [` {
		t.Errorf("head: %q, %v", seen, err)
	}
	seen = nil
	if ScanObject(head, func(k, v []byte) bool { seen = append(seen, string(k)); return true }) == nil || strings.Join(seen, " ") != "meta" {
		t.Errorf("ScanObject visited a cut member: %q", seen)
	}
	seen = nil
	err = ScanHead([]byte(`{"a": 1, "state": {"x": 1,, "y": 2}, "b": 2}`), func(k, v []byte) bool {
		seen = append(seen, string(k)+"="+string(v[:min(len(v), 6)]))
		return true
	})
	if err == nil || !strings.Contains(err.Error(), "expected a key") || strings.Join(seen, " ") != `a=1 state={"x": ` {
		t.Errorf("a broken member: %q, %v", seen, err)
	}
}

func TestDecodeLeniency(t *testing.T) {
	type rec struct {
		Turn       *int     `json:"turn"`
		Confidence *float64 `json:"confidence"`
		Action     string   `json:"action"`
	}
	var r rec
	rep, err := Decode([]byte(`{"action": "say \"NaN\" Infinity", "turn": 3, "confidence": NaN}`), &r)
	if err != nil || r.Turn == nil || *r.Turn != 3 || r.Confidence != nil || r.Action != `say "NaN" Infinity` || rep != RepairedNaN {
		t.Errorf("NaN: err %v, %+v, repair %v", err, r, rep)
	}
	r = rec{}
	rep, err = Decode([]byte("{\"action\": \"take \xff lamp\", \"turn\": 4, \"confidence\": -Infinity}"), &r)
	if err != nil || *r.Turn != 4 || r.Action != "take \uFFFD lamp" || rep != RepairedUTF8|RepairedNaN {
		t.Errorf("UTF-8: err %v, %+v, repair %v", err, r, rep)
	}
	if _, err := Decode([]byte(`{"turn": "five"}`), &r); err == nil {
		t.Error("a string turn decoded into an int")
	}
}

// Keys match as Python's json.loads matches them (worked out with Python
// 3.12: json.loads(line).get("score")): exactly, case and all, once their
// escapes are undone; the last of a repeated key wins.
func TestDecodeKeysExact(t *testing.T) {
	type rec struct {
		Score  *int64 `json:"score"`
		Extras *struct {
			Score *int64 `json:"score"`
		} `json:"extras"`
	}
	for _, c := range []struct {
		line        string
		score, nest int64 // -1: absent
	}{
		{`{"score": 5, "SCORE": 7, "Score": 8, "\u017fcore": 9}`, 5, -1},
		{`{"SCORE": 7, "score": 5, "Score": 8}`, 5, -1},
		{`{"SCORE": 7}`, -1, -1},
		{`{"sco\u0072e": 6}`, 6, -1},
		{`{"score": 1, "score": 2}`, 2, -1},
		{`{"extras": {"score": 3, "SCORE": 4}}`, -1, 3},
	} {
		var r rec
		if _, err := Decode([]byte(c.line), &r); err != nil {
			t.Fatalf("%s: %v", c.line, err)
		}
		score, nest := int64(-1), int64(-1)
		if r.Score != nil {
			score = *r.Score
		}
		if r.Extras != nil && r.Extras.Score != nil {
			nest = *r.Extras.Score
		}
		if score != c.score || nest != c.nest {
			t.Errorf("%s: score %d, extras.score %d; want %d, %d", c.line, score, nest, c.score, c.nest)
		}
	}
}

// A line that is not one JSON object is named by the scanner, with its
// column; a string with a control character (which the scanner passes over)
// by the decoder.
func TestDecodeSyntax(t *testing.T) {
	var v struct {
		A string `json:"a"`
	}
	for line, want := range map[string]string{
		`{"a": "x",, "b": 1}`: "column 11: expected a key in quotes, found ','",
		`{"a": "x"`:           "column 10: line ends inside a value (truncated?)",
		"{\"a\": \"x\x01\"}":  "invalid character",
	} {
		_, err := Decode([]byte(line), &v)
		var se *SyntaxError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want a SyntaxError with %q", line, err, want)
		}
	}
}

func TestNullNonFinite(t *testing.T) {
	for in, want := range map[string]string{
		`{"a": NaN}`:                          `{"a": null}`,
		`[NaN,Infinity,-Infinity]`:            `[null,null,null]`,
		`{"NaN": "Infinity", "b": -Infinity}`: `{"NaN": "Infinity", "b": null}`,
		`{"a": "x\"NaN"}`:                     `{"a": "x\"NaN"}`,
		`{"a": NaNa}`:                         `{"a": NaNa}`,
	} {
		if got, _ := nullNonFinite([]byte(in)); string(got) != want {
			t.Errorf("%s: got %s, want %s", in, got, want)
		}
	}
}

// FuzzScanObject checks ScanObject against encoding/json: every line that
// encoding/json accepts as one object is accepted, and nothing panics.
func FuzzScanObject(f *testing.F) {
	for _, s := range []string{
		`{"timestamp": "2025-11-04T09:35:24.123456", "level": "INFO", "message": "Turn 1 completed", "event_type": "turn_completed", "episode_id": "2025-11-04T09:35:24", "turn": 1, "action": "open mailbox", "score": 0, "location": "West of House", "confidence": 0.9}`,
		`{"a": NaN, "extras": {"event_type": "objective_completed", "turn": 3}}`,
		`{"a": "\\\"", "b": [1, {"c": null}], "d": -1.5e+10}`,
		`{"a": 1`, `{"a": 1}{"b"`, `{`, `}`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		var keys, head []string
		err := ScanObject(line, func(k, v []byte) bool { keys = append(keys, string(k)); return true })
		trimmed := bytes.TrimSpace(line)
		if json.Valid(line) && len(trimmed) > 0 && trimmed[0] == '{' && err != nil {
			t.Errorf("encoding/json accepts %q but ScanObject says %v", line, err)
		}
		if json.Valid(line) && len(trimmed) > 0 && trimmed[0] == '[' && ScanArray(line, func([]byte) {}) != nil {
			t.Errorf("encoding/json accepts %q but ScanArray refuses it", line)
		}
		// The head of a line shows the keys of the line, as far as it goes.
		ScanHead(line[:len(line)/2], func(k, v []byte) bool { head = append(head, string(k)); return true })
		if err == nil && (len(head) > len(keys) || strings.Join(head, "\x00") != strings.Join(keys[:len(head)], "\x00")) {
			t.Errorf("%q: ScanHead of its first half sees %q, the keys are %q", line, head, keys)
		}
	})
}

// TestWrongTypeNamed: a member of the wrong type is named by its key and by
// what it should be.
func TestWrongTypeNamed(t *testing.T) {
	type rec struct {
		Turn   int64   `json:"turn"`
		Score  *int64  `json:"score"`
		Room   string  `json:"location"`
		Critic float64 `json:"critic"`
		Extras struct {
			Score int64 `json:"score"`
		} `json:"extras"`
	}
	for _, c := range []struct{ line, want string }{
		{`{"score": 5.5}`, "score: number 5.5, not a whole number"},
		{`{"turn": "7"}`, "turn: string, not a whole number"},
		{`{"location": 4}`, "location: number, not a string"},
		{`{"critic": "high"}`, "critic: string, not a number"},
		{`{"extras": {"score": 1e400}}`, "extras.score: number 1e400, not a whole number"},
	} {
		var r rec
		_, err := Decode([]byte(c.line), &r)
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: %v, want %q", c.line, err, c.want)
		}
	}
}

// FuzzDecode checks Decode against encoding/json's reading of the same line
// into a map, whose keys are kept exactly and whose last repeated key wins,
// as in Python's json.loads: a struct field holds the member its key names,
// whatever members beside it differ only by case or are written with
// escapes. Nothing panics.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{"score": 5, "SCORE": 7, "Score": 8}`,
		`{"sco\u0072e": 6, "turn": 1, "turn": 2}`,
		`{"score": NaN, "extras": {"score": 3, "sCore": 4}}`,
		`{"turn": "x"}`, `{"score": 1.5}`, "{\"action\": \"a\xffb\"}",
	} {
		f.Add([]byte(s))
	}
	type rec struct {
		Score  *int64  `json:"score"`
		Turn   *int64  `json:"turn"`
		Action *string `json:"action"`
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		var r rec
		rep, err := Decode(line, &r)
		var m map[string]json.RawMessage
		fixed := bytes.ToValidUTF8(line, []byte("\uFFFD"))
		if rep&RepairedNaN != 0 {
			fixed, _ = nullNonFinite(fixed)
		}
		if json.Unmarshal(fixed, &m) != nil || err != nil {
			return
		}
		for key, got := range map[string]any{"score": r.Score, "turn": r.Turn, "action": r.Action} {
			raw, ok := m[key]
			want := reflect.New(reflect.TypeOf(got).Elem())
			if ok && json.Unmarshal(raw, want.Interface()) != nil {
				continue // decoded where encoding/json refuses: a number goccy reads otherwise
			}
			switch v := reflect.ValueOf(got); {
			case !ok || string(raw) == "null":
				if !v.IsNil() {
					t.Errorf("%q: %s decoded though the line has none", line, key)
				}
			case v.IsNil():
				t.Errorf("%q: no %s, want %s", line, key, raw)
			case !reflect.DeepEqual(v.Elem().Interface(), want.Elem().Interface()):
				t.Errorf("%q: %s is %v, want %s", line, key, v.Elem(), raw)
			}
		}
	})
}
