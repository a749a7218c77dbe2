package jsonl

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

func readAll(t *testing.T, r io.Reader) (lines []string, nums []int, unterminated bool, err error) {
	t.Helper()
	rd := NewReader(r)
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
		rc, err := Open(path, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got, _ := io.ReadAll(rc)
		rc.Close()
		if string(got) != content {
			t.Errorf("%s: got %q", name, got)
		}
	}
	rc, err := Open("-", bytes.NewReader(gz.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := io.ReadAll(rc); string(got) != content {
		t.Errorf("stdin: got %q", got)
	}
	if _, err := Open(filepath.Join(dir, "missing"), nil); err == nil {
		t.Error("a missing file opened")
	}
}

// A gzip stream cut short yields the lines before the cut and then an error.
func TestReaderCorruptGzip(t *testing.T) {
	var gz bytes.Buffer
	gw := gzip.NewWriter(&gz)
	gw.Write([]byte(strings.Repeat("{\"event_type\": \"turn_completed\"}\n", 5000)))
	gw.Close()
	cut := gz.Bytes()[:gz.Len()/2]
	rc, err := Decompress(io.NopCloser(bytes.NewReader(cut)))
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
		err := ScanObject([]byte(c.line), func(k, v []byte) { keys = append(keys, string(k)) })
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

func TestDecodeLeniency(t *testing.T) {
	type rec struct {
		Turn       *int     `json:"turn"`
		Confidence *float64 `json:"confidence"`
		Action     string   `json:"action"`
	}
	for _, codec := range []struct {
		name string
		c    Codec
	}{{"encoding/json", StdCodec}, {"goccy", GoccyCodec}, {"default", DefaultCodec}} {
		t.Run(codec.name, func(t *testing.T) {
			var r rec
			rep, err := codec.c.Decode([]byte(`{"action": "say \"NaN\" Infinity", "turn": 3, "confidence": NaN}`), &r)
			if err != nil || r.Turn == nil || *r.Turn != 3 || r.Confidence != nil || r.Action != `say "NaN" Infinity` || rep != RepairedNaN {
				t.Errorf("NaN: err %v, %+v, repair %v", err, r, rep)
			}
			r = rec{}
			rep, err = codec.c.Decode([]byte("{\"action\": \"take \xff lamp\", \"turn\": 4, \"confidence\": -Infinity}"), &r)
			if err != nil || *r.Turn != 4 || r.Action != "take \uFFFD lamp" || rep != RepairedUTF8|RepairedNaN {
				t.Errorf("UTF-8: err %v, %+v, repair %v", err, r, rep)
			}
			if _, err := codec.c.Decode([]byte(`{"turn": "five"}`), &r); err == nil {
				t.Error("a string turn decoded into an int")
			}
		})
	}
	panicky := Codec(func([]byte, any) error { panic("boom") })
	if _, err := panicky.Decode([]byte(`{}`), new(rec)); err == nil || !strings.Contains(err.Error(), "boom") {
		t.Errorf("a decoder panic gave %v", err)
	}
	// Behind a fallback, the sure codec decodes what the fast one panicked on
	// or rejected, and its error stands when both fail.
	var r rec
	if _, err := Fallback(panicky, StdCodec).Decode([]byte(`{"turn": 7}`), &r); err != nil || *r.Turn != 7 {
		t.Errorf("fallback after a panic: %v, %+v", err, r)
	}
	failing := Codec(func([]byte, any) error { return errors.New("fast says no") })
	if _, err := Fallback(failing, StdCodec).Decode([]byte(`{"turn": 8}`), &r); err != nil || *r.Turn != 8 {
		t.Errorf("fallback after an error: %v", err)
	}
	if _, err := Fallback(failing, StdCodec).Decode([]byte(`{"turn": x}`), &r); err == nil || strings.Contains(err.Error(), "fast says no") {
		t.Errorf("both failing: %v, want encoding/json's error", err)
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
		err := ScanObject(line, func(k, v []byte) {})
		trimmed := bytes.TrimSpace(line)
		if json.Valid(line) && len(trimmed) > 0 && trimmed[0] == '{' && err != nil {
			t.Errorf("encoding/json accepts %q but ScanObject says %v", line, err)
		}
	})
}

// TestWrongTypeNamed: a member of the wrong type is named by its key and by
// what it should be, whichever codec decoded it.
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
		_, err := DefaultCodec.Decode([]byte(c.line), &r)
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: %v, want %q", c.line, err, c.want)
		}
	}
}
