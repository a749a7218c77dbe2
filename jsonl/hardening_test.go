package jsonl

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
)

// A UTF-8 byte order mark (Notepad writes one) does not cost the first line.
func TestBOMStripped(t *testing.T) {
	got, nums, _, err := readAll(t, strings.NewReader("\ufeff{\"a\": 1}\n{}\n"))
	if err != nil || len(got) != 2 || got[0] != `{"a": 1}` || nums[0] != 1 {
		t.Fatalf("got %q %v, %v", got, nums, err)
	}
	// Only at the start of the stream.
	got, _, _, _ = readAll(t, strings.NewReader("{}\n\ufeff{}\n"))
	if got[1] != "\ufeff{}" {
		t.Errorf("second line %q", got[1])
	}
}

// repeat is a stream of n bytes: head, then fill, then tail.
type repeat struct {
	head, tail []byte
	fill       byte
	n, off     int64
}

func (r *repeat) Read(p []byte) (int, error) {
	if r.off >= r.n {
		return 0, io.EOF
	}
	k := 0
	for k < len(p) && r.off < r.n {
		switch {
		case r.off < int64(len(r.head)):
			p[k] = r.head[r.off]
		case r.off >= r.n-int64(len(r.tail)):
			p[k] = r.tail[r.off-(r.n-int64(len(r.tail)))]
		default:
			p[k] = r.fill
		}
		k++
		r.off++
	}
	return k, nil
}

func allocated(f func()) uint64 {
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// A long line whose beginning says it does not matter is passed over without
// being held, however long; the lines around it keep their numbers.
func TestLongIrrelevantLineNotHeld(t *testing.T) {
	head := `{"timestamp": "2025-11-04T09:35:24", "message": "a \"quoted\" {not a brace}", "event_type": "final_action_selection", "agent_reasoning": "`
	in := io.MultiReader(strings.NewReader("{}\n"), &repeat{head: []byte(head), tail: []byte("\"}\n"), fill: 'x', n: 300 << 20},
		strings.NewReader(`{"event_type": "turn_completed"}`+"\n"))
	var asked []string
	var lines []string
	var nums []int
	used := allocated(func() {
		rd := NewReader(in, LineOptions{Skip: func(head []byte) bool {
			asked = append(asked, fmt.Sprintf("%d bytes from %.12s", len(head), head))
			return bytes.Contains(head, []byte(`"final_action_selection"`))
		}})
		defer rd.Close()
		for {
			line, n, err := rd.Next()
			if err != nil {
				break
			}
			lines = append(lines, string(line))
			nums = append(nums, n)
		}
	})
	if len(lines) != 2 || nums[1] != 3 || strings.Join(asked, ",") != `262144 bytes from {"timestamp"` {
		t.Errorf("lines %q numbered %v, asked about %q", lines, nums, asked)
	}
	if used > 8<<20 {
		t.Errorf("%s allocated to pass over a 300 MiB line", Size(int64(used)))
	}
}

// A long line that matters is read whole up to MaxLine; a longer one is
// passed over with an error naming its line, and reading goes on.
func TestLongRelevantLineCapped(t *testing.T) {
	long := `{"event_type": "turn_completed", "action": "` + strings.Repeat("y", 1<<20) + `"}`
	longer := `{"event_type": "turn_completed", "action": "` + strings.Repeat("z", 3<<20) + `"}`
	in := long + "\n" + longer + "\n{}\n"
	rd := NewReader(strings.NewReader(in), LineOptions{MaxLine: 2 << 20, Skip: func([]byte) bool { return false }})
	defer rd.Close()
	line, n, err := rd.Next()
	if err != nil || string(line) != long || n != 1 {
		t.Fatalf("line 1: %d bytes, %v", len(line), err)
	}
	_, n, err = rd.Next()
	if !errors.Is(err, ErrLineTooLong) || n != 2 || !strings.Contains(err.Error(), "line 2: line too long: longer than 2 MiB") {
		t.Fatalf("line 2: %v (%d)", err, n)
	}
	line, n, err = rd.Next()
	if err != nil || string(line) != "{}" || n != 3 {
		t.Fatalf("line 3: %q %d %v", line, n, err)
	}
}

// A long line that is not JSON (binary data, /dev/zero) yields its first
// bufSize bytes; past MaxLine without a newline the stream is given up, so
// that an endless one ends.
func TestLongBinaryLineCut(t *testing.T) {
	rd := NewReader(&repeat{fill: 0, n: 1 << 40}, LineOptions{MaxLine: 4 << 20})
	defer rd.Close()
	line, n, err := rd.Next()
	if err != nil || n != 1 || len(line) != bufSize {
		t.Fatalf("got %d bytes, line %d, %v", len(line), n, err)
	}
	if _, _, err = rd.Next(); err == nil || !strings.Contains(err.Error(), "not JSON") {
		t.Fatalf("then %v", err)
	}
	rd = NewReader(strings.NewReader(strings.Repeat("\x00", 1<<20)+"\n{}\n"), LineOptions{})
	defer rd.Close()
	line, _, _ = rd.Next()
	next, n, err := rd.Next()
	if len(line) != bufSize || string(next) != "{}" || n != 2 || err != nil {
		t.Errorf("after a cut line: %q (%d) %v", next, n, err)
	}
}

// A zstd stream asking for a window beyond MaxZstdWindow is refused in words.
func TestZstdWindowCapped(t *testing.T) {
	// A frame header declaring a 256 MiB window (as zstd --long=28 writes),
	// then one raw block of 3 bytes.
	frame := []byte{0x28, 0xb5, 0x2f, 0xfd, 0x00, 18 << 3, 0x19, 0x00, 0x00, '{', '}', '\n'}
	rc, err := decompress(io.NopCloser(bytes.NewReader(frame)), Limits{})
	if err == nil {
		_, err = io.ReadAll(rc)
		rc.Close()
	}
	if err == nil || !strings.Contains(err.Error(), "window larger than 8 MiB") {
		t.Errorf("got %v", err)
	}
}

// A decompression bomb stops instead of running for ever: one of many
// lines past the floor (here 64 MiB, for the test's sake), one of a single
// line past the longest line a stream may give, whatever the floor.
func TestDecompressionBombStopped(t *testing.T) {
	for _, c := range []struct {
		name string
		fill byte
		lim  Limits
		want string
		most int64
	}{
		{"lines past the floor", '\n', Limits{Floor: 64 << 20}, "more than 200 bytes decompressed per compressed byte past 64 MiB", 2 * 64 << 20},
		{"one line", 0, Limits{MaxLineOut: 16 << 20}, "a line of more than 16 MiB decompressed", 2 * 16 << 20},
	} {
		var gz bytes.Buffer
		gw, _ := gzip.NewWriterLevel(&gz, gzip.BestSpeed)
		io.Copy(gw, &repeat{fill: c.fill, n: 256 << 20})
		gw.Close()
		rc, err := decompress(io.NopCloser(&gz), c.lim)
		if err != nil {
			t.Fatal(err)
		}
		n, err := io.Copy(io.Discard, rc)
		rc.Close()
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "a decompression bomb? stopped") || n > c.most {
			t.Errorf("%s: read %s, %v", c.name, Size(n), err)
		}
	}
	// A realistic stream (ratio ~20) is read whole.
	var ok bytes.Buffer
	gw := gzip.NewWriter(&ok)
	for i := range 200_000 {
		gw.Write([]byte(`{"timestamp": "2025-11-04T09:35:24", "level": "INFO", "event_type": "turn_completed", "turn": ` + strings.Repeat("1", i%7+1) + "}\n"))
	}
	gw.Close()
	rc, _ := decompress(io.NopCloser(&ok), Limits{Floor: 1 << 20})
	if _, err := io.Copy(io.Discard, rc); err != nil {
		t.Errorf("realistic stream: %v", err)
	}
}
