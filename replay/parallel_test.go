package replay

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"unsafe"
)

// sameRead checks that reading data in regions of region bytes, jobs at a
// time, gives exactly the Log that Read gives.
func sameRead(t *testing.T, name string, data []byte, opt Options, region int64, jobs int) {
	t.Helper()
	want := Read(bytes.NewReader(data), "test.jsonl", opt)
	got := readRegions(bytes.NewReader(data), int64(len(data)), "test.jsonl", opt, region, jobs)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s, regions of %d bytes, %d jobs: differs from Read\n%s", name, region, jobs, firstDifference(got, want))
	}
}

// firstDifference says where two Logs differ, briefly.
func firstDifference(got, want *Log) string {
	gl, wl := *got, *want
	gl.Episodes, wl.Episodes = nil, nil
	g, w := fmt.Sprintf("%d episodes %+v", len(got.Episodes), gl), fmt.Sprintf("%d episodes %+v", len(want.Episodes), wl)
	if g == w && len(got.Episodes) == len(want.Episodes) {
		for i := range got.Episodes {
			if !reflect.DeepEqual(got.Episodes[i], want.Episodes[i]) {
				g, w = fmt.Sprintf("episode %d: %+v", i, *got.Episodes[i]), fmt.Sprintf("episode %d: %+v", i, *want.Episodes[i])
				break
			}
		}
	}
	i := 0
	for i < len(g) && i < len(w) && g[i] == w[i] {
		i++
	}
	from := max(0, i-200)
	return fmt.Sprintf("got  …%s…\nwant …%s…", g[from:min(len(g), i+200)], w[from:min(len(w), i+200)])
}

// TestRegionsEqualRead reads every bundled log, and logs made to hit every
// kind of line at a region's edge, in regions, and compares with Read.
func TestRegionsEqualRead(t *testing.T) {
	files, _ := filepath.Glob("../testdata/episodes/*/episode_log.jsonl")
	fixtures, _ := filepath.Glob("../cmd/lbanalyze/testdata/logs/*.jsonl")
	if len(files) < 75 {
		t.Fatalf("found %d bundled logs", len(files))
	}
	for i, path := range append(files, fixtures...) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		// Every file in regions of a few sizes; a few also in tiny ones,
		// where nearly every line begins a region.
		for _, region := range []int64{4096, 65536, 1 << 20} {
			sameRead(t, path, data, Options{}, region, 2)
		}
		if i%10 == 0 {
			sameRead(t, path, data, Options{}, 97, 3)
		}
	}
	// All of them in one file: regions of many batches, and many episodes.
	var all []byte
	for _, path := range files {
		data, _ := os.ReadFile(path)
		if len(data) > 0 && data[len(data)-1] == '\n' {
			all = append(all, data...)
		}
	}
	for _, region := range []int64{256 << 10, 3 << 20} {
		sameRead(t, "the bundled logs in one file", all, Options{}, region, 2)
	}
	for name, data := range edgeLogs(t) {
		for _, region := range []int64{1, 2, 3, 50, 300, 4096, 300 << 10} {
			if int64(len(data))/region > 5000 {
				continue // too many regions to be quick
			}
			for _, jobs := range []int{1, 2, 4} {
				sameRead(t, name, data, Options{}, region, jobs)
				sameRead(t, name+" (MaxLine 200)", data, Options{MaxLine: 200}, region, jobs)
			}
		}
	}
}

// edgeLogs are logs with what a region's edge may fall on.
func edgeLogs(t *testing.T) map[string][]byte {
	small := write(t, plan{N: 30, Changes: map[int]int{3: 5, 20: 10}, Objectives: map[int][]string{4: {"x"}}, Exceptions: []int{6}, LoopBreak: &v2}.Episode())
	two := write(t, plan{N: 12, LoopBreak: &v2}.Episode(), plan{N: 9, Changes: map[int]int{2: 1}}.Episode())
	lines := bytes.SplitAfter(small, []byte("\n"))
	reasoning := func(size int) []byte {
		return []byte(`{"timestamp": "2025-11-04T09:35:25", "level": "INFO", "event_type": "final_action_selection", "reasoning": "` + strings.Repeat("x", size) + `"}` + "\n")
	}
	join := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	giant := func(turn int) []byte {
		return []byte(fmt.Sprintf(`{"timestamp": "2025-11-04T09:35:25", "event_type": "turn_completed", "turn": %d, "score": 1, "action": "%s"}`+"\n", 90+turn, strings.Repeat("g", 1200<<10)))
	}
	mid := len(lines) / 2
	head, tail := join(lines[:mid]...), join(lines[mid:]...)
	bom := []byte("\xef\xbb\xbf")
	return map[string][]byte{
		"small":                  small,
		"two episodes":           two,
		"byte order mark":        join(bom, small),
		"mark inside":            join(head, bom, tail),
		"blank lines and CRLF":   bytes.ReplaceAll(join(head, []byte("\n\n  \n"), tail), []byte("\n"), []byte("\r\n")),
		"unterminated":           small[:len(small)-1],
		"cut mid-line":           small[:len(small)-40],
		"broken runs into one":   join(head, []byte(`{"timestamp": "2025-11-04T09:35:25", "lev`), tail),
		"invalid lines":          join(head, []byte("not json\n{\"a\": [1,}\n"), tail),
		"long lines":             join(head, reasoning(300<<10), reasoning(10), reasoning(1<<20+5), tail),
		"long line that matters": join(head, []byte(`{"timestamp": "2025-11-04T09:35:25", "event_type": "turn_completed", "turn": 99, "score": 1, "action": "`+strings.Repeat("y", 400<<10)+`"}`+"\n"), tail),
		// Lines that matter past the giant buffer's threshold (1 MiB), in
		// regions read at once: the one giant buffer must not be kept by a
		// region that waits.
		"giant lines that matter": join(head, giant(1), giant(2), giant(3), tail),
		"not a log":               []byte("a\nb\n{\"x\": 1}\n[1]\nc\nd\n" + string(small)),
		"not a log, late":         join([]byte("a\n\n\nb\n"), reasoning(300<<10), []byte("c\nd\ne\n"), small),
		"utf-16":                  []byte("\xff\xfea\x00b\x00\n\x00" + string(small)),
		"garbage":                 join(head, bytes.Repeat([]byte("\x01"), 1<<20)),
		"garbage, then a log":     join([]byte("\x01\x02\n"), small),
	}
}

// failingAt is data that cannot be read from byte at on.
type failingAt struct {
	data []byte
	at   int64
}

var errBoom = errors.New("boom")

func (f failingAt) ReadAt(p []byte, off int64) (int, error) {
	if off >= f.at {
		return 0, errBoom
	}
	n := copy(p, f.data[off:min(f.at, int64(len(f.data)))])
	if off+int64(len(p)) > f.at {
		return n, errBoom
	}
	return n, nil
}

// TestRegionsReadError: a read error ends the file where Read ends it, with
// the file's line numbers in the problem.
func TestRegionsReadError(t *testing.T) {
	data := write(t, plan{N: 60, Changes: map[int]int{3: 5}, LoopBreak: &v2}.Episode())
	for _, at := range []int64{1, 500, int64(len(data) / 2), int64(len(data) - 3)} {
		f := failingAt{data, at}
		want := Read(io.NewSectionReader(f, 0, int64(len(data))), "test.jsonl", Options{})
		if !strings.Contains(fmt.Sprint(want.Problems), "read error: after line") {
			t.Fatalf("at %d: Read gives problems %v, want the read error", at, want.Problems)
		}
		for _, region := range []int64{64, 1000} {
			got := readRegions(f, int64(len(data)), "test.jsonl", Options{}, region, 2)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("at %d, regions of %d: %v / %v, want %v / %v", at, region, got.Problems, got.Lines, want.Problems, want.Lines)
			}
		}
	}
}

// TestDetachCoversEveryField: every value a record holds or points to is
// copied out of the line and the arenas, so that a region's next line cannot
// change it.
func TestDetachCoversEveryField(t *testing.T) {
	line := []byte("0123456789")
	alias := unsafe.String(&line[0], len(line))
	var d decoded
	v := reflect.ValueOf(&d.rec).Elem()
	before := map[string]uintptr{} // where each pointer field points
	for i := range v.NumField() {
		f, name := v.Field(i), v.Type().Field(i).Name
		switch {
		case f.Kind() == reflect.String:
			f.SetString(alias)
		case name == "Extras": // folded in before (flatten)
		case f.Kind() == reflect.Pointer:
			p := reflect.New(f.Type().Elem())
			p.Elem().Set(sample(p.Elem().Type(), i, alias))
			f.Set(p)
			before[name] = p.Pointer()
		default:
			t.Fatalf("record field %s of kind %s: detach does not know it", name, f.Kind())
		}
	}
	if len(before) < 30 {
		t.Fatalf("found %d pointer fields in record", len(before))
	}
	var vals detached
	d.detach(&vals)
	copy(line, "xxxxxxxxxx")
	for i := range v.NumField() {
		f, name := v.Field(i), v.Type().Field(i).Name
		if name == "Extras" {
			continue
		}
		if f.Kind() == reflect.Pointer {
			if f.Pointer() == before[name] {
				t.Errorf("%s still points where it did: not detached", name)
				continue
			}
			f = f.Elem()
		}
		if want := sample(f.Type(), i, "0123456789"); !reflect.DeepEqual(f.Interface(), want.Interface()) {
			t.Errorf("%s is %v after detach and a change of the line, want %v", name, f, want)
		}
	}
}

// sample is a value of type ty for field i, its strings s.
func sample(ty reflect.Type, i int, s string) reflect.Value {
	v := reflect.New(ty).Elem()
	switch ty.Kind() {
	case reflect.String:
		v.SetString(s)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64:
		v.SetInt(int64(i + 1))
	case reflect.Float64:
		v.SetFloat(float64(i) + 0.5)
	case reflect.Struct: // responseText
		v.Set(reflect.ValueOf(responseText{hash: uint64(i + 1), died: true}))
	}
	return v
}

// TestReadFileLarge: ReadFile reads a large file in regions, with the result
// Read gives (the bundled logs one after another, 17 MB).
func TestReadFileLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 17 MB file")
	}
	if runtime.GOMAXPROCS(0) < 2 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	}
	files, _ := filepath.Glob("../testdata/episodes/2025-*/episode_log.jsonl")
	var all []byte
	for len(all) < parallelFrom {
		for _, p := range files {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if len(b) > 0 && b[len(b)-1] == '\n' {
				all = append(all, b...)
			}
		}
	}
	path := filepath.Join(t.TempDir(), "episode_log.jsonl")
	if err := os.WriteFile(path, all, 0o644); err != nil {
		t.Fatal(err)
	}
	if readLarge(path, Options{}) == nil {
		t.Fatal("a 17 MB plain file is not read in regions")
	}
	got, err := ReadFile(path, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := Read(bytes.NewReader(all), path, Options{})
	if len(want.Episodes) < 70 || !reflect.DeepEqual(got, want) {
		t.Fatalf("%d episodes; differs from Read: %s", len(want.Episodes), firstDifference(got, want))
	}
}

// TestShortLines: regions are for logs of short lines; a log of LLM text is
// read by one core.
func TestShortLines(t *testing.T) {
	lines := func(size, count int) []byte {
		return bytes.Repeat([]byte(strings.Repeat("x", size-1)+"\n"), count)
	}
	for _, c := range []struct {
		name string
		data []byte
		want bool
	}{
		{"turn lines of 260 bytes", lines(260, 10000), true},
		{"lines of 2 KiB", lines(2048, 200), true},
		{"lines of 2 KiB and a byte", lines(2049, 200), false},
		{"reasoning lines of 25 KB", lines(25000, 100), false},
		{"a short file of short lines", lines(100, 100), false},
	} {
		if got := shortLines(c.data[:min(len(c.data), headSize)]); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
