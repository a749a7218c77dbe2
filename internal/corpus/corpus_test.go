package corpus

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"
	"github.com/lbanalyze/lbanalyze/episode"
)

// a tiny replayable log: two turns of one episode.
func log(id string) string {
	return `{"timestamp": "2025-11-12T10:00:00", "level": "INFO", "event_type": "episode_initialized", "episode_id": "` + id + `", "max_turns": 500}
{"timestamp": "2025-11-12T10:00:01", "level": "INFO", "event_type": "turn_completed", "episode_id": "` + id + `", "turn": 1, "score": 0}
{"timestamp": "2025-11-12T10:00:02", "level": "INFO", "event_type": "turn_completed", "episode_id": "` + id + `", "turn": 2, "score": 5}
`
}

func write(t testing.TB, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestStdinReadOnce(t *testing.T) {
	c := &Corpus{}
	files, _ := Files([]string{"-", "-"}, Registry())
	if len(files) != 1 {
		t.Fatalf("files %v, want one -", files)
	}
	c.ReadFiles(files, Options{Jobs: 4, Stdin: strings.NewReader(log("2025-11-12T10:00:00"))})
	if len(c.Episodes) != 1 || c.Episodes[0].N() != 2 {
		t.Fatalf("%d episodes, want 1 of 2 turns; messages %v", len(c.Episodes), c.Messages)
	}
	files, _ = Discover([]string{"-", "-"}, Registry())
	if len(files) != 1 {
		t.Errorf("Discover: files %v, want one -", files)
	}
}

func TestSameFileThroughLinksReadOnce(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "ep", "episode_log.jsonl")
	write(t, a, log("2025-11-12T10:00:00"))
	if err := os.Symlink(a, filepath.Join(dir, "sym.jsonl")); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(a, filepath.Join(dir, "hard.jsonl")); err != nil {
		t.Fatal(err)
	}
	c := Read([]string{dir, a}, Options{Jobs: 2})
	if len(c.Episodes) != 1 {
		t.Errorf("%d episodes from one file reached by three paths, want 1", len(c.Episodes))
	}
	for _, m := range c.Messages {
		if strings.Contains(m, "files") {
			t.Errorf("a file read once is no duplicate: %q", m)
		}
	}
}

// Two files that record the same id, with different contents (a backup
// taken before the run ended), are warned of by their id.
func TestDuplicateEpisodeIDWarned(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a", "episode_log.jsonl"), log("2025-11-12T10:00:00"))
	write(t, filepath.Join(dir, "a", "backup.jsonl"), strings.Join(strings.SplitAfter(log("2025-11-12T10:00:00"), "\n")[:2], ""))
	c := Read([]string{dir}, Options{Jobs: 1})
	if len(c.Episodes) != 2 {
		t.Fatalf("%d episodes, want both copies", len(c.Episodes))
	}
	if got := strings.Join(c.Messages, "\n"); !strings.Contains(got, "episode 2025-11-12T10:00:00 is in 2 files") {
		t.Errorf("no duplicate warning in %q", got)
	}
}

func TestFIFOInDirectoryPassedOver(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a", "episode_log.jsonl"), log("2025-11-12T10:00:00"))
	fifo := filepath.Join(dir, "b", "episode_log.jsonl")
	os.MkdirAll(filepath.Dir(fifo), 0o755)
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero.jsonl")); err != nil {
		t.Fatal(err)
	}
	c := Read([]string{dir}, Options{Jobs: 2}) // would hang on the FIFO, or grow on /dev/zero
	if len(c.Episodes) != 1 || len(c.Skipped) != 2 {
		t.Fatalf("%d episodes, skipped %v; want 1 and the FIFO and device", len(c.Episodes), c.Skipped)
	}
	for _, s := range c.Skipped {
		if !strings.Contains(s.Reason, "not a regular file") {
			t.Errorf("%s: %s", s.Source, s.Reason)
		}
	}
}

// A directory where a log was wanted says what to give instead: ZorkGPT's
// log in it, when it holds one, and batch either way.
func TestDirectoryGivenAsFile(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "episode_log.jsonl")
	for _, holds := range []bool{false, true} {
		if holds {
			write(t, log, "x\n")
		}
		files, c := Files([]string{dir}, Registry())
		if len(files) != 0 || len(c.Messages) != 1 || !strings.Contains(c.Messages[0], "lbanalyze batch "+dir) ||
			strings.Contains(c.Messages[0], log) != holds {
			t.Errorf("holding a log %v: files %v, messages %q", holds, files, c.Messages)
		}
	}
}

func TestOrderIndependentOfJobs(t *testing.T) {
	dir := t.TempDir()
	for _, id := range []string{"2025-11-12T10:00:03", "2025-11-12T10:00:01", "2025-11-12T10:00:02"} {
		write(t, filepath.Join(dir, strings.ReplaceAll(id, ":", "-"), "episode_log.jsonl"), log(id))
	}
	var want bytes.Buffer
	for _, jobs := range []int{1, 3, 8} {
		var got bytes.Buffer
		for _, ep := range Read([]string{dir}, Options{Jobs: jobs}).Episodes {
			got.WriteString(ep.ID + " " + ep.Source + "\n")
		}
		if jobs == 1 {
			want = got
		} else if got.String() != want.String() {
			t.Errorf("jobs %d: %s, want %s", jobs, got.String(), want.String())
		}
	}
}

// gatedReader gives data up to gate, then waits for open before the rest:
// a file still being written, or a slow disk.
type gatedReader struct {
	data []byte
	gate int
	open <-chan struct{}
	off  int
	t    *testing.T
}

func (r *gatedReader) Read(p []byte) (int, error) {
	if r.off == r.gate {
		select {
		case <-r.open:
		case <-time.After(10 * time.Second):
			r.t.Error("the first episode was not handed over before the rest of its file was read")
		}
	}
	if r.off == len(r.data) {
		return 0, io.EOF
	}
	end := len(r.data)
	if r.off < r.gate {
		end = r.gate
	}
	n := copy(p, r.data[r.off:end])
	r.off += n
	return n, nil
}

// Stream hands an episode over as soon as its segment ends, while the rest
// of its file is still to be read.
func TestStreamHandsOverWhileReading(t *testing.T) {
	data := log("2025-11-12T10:00:00") + log("2025-11-12T11:00:00") + log("2025-11-12T12:00:00")
	open := make(chan struct{})
	stdin := &gatedReader{data: []byte(data), gate: 2 * len(log("2025-11-12T10:00:00")), open: open, t: t}
	var got []string
	c := &Corpus{}
	c.Stream([]string{"-"}, Options{Jobs: 2, Stdin: stdin}, Sink{
		Episode: func(ep *episode.Episode) {
			if len(got) == 0 {
				close(open)
			}
			got = append(got, ep.ID)
		},
	})
	if want := "2025-11-12T10:00:00 2025-11-12T11:00:00 2025-11-12T12:00:00"; strings.Join(got, " ") != want {
		t.Errorf("sink got %q, want %q", got, want)
	}
}

// Stream hands over the same things in the same order whatever the number
// of jobs: ReadFiles's episodes, one file after the other, the messages as
// c.Messages has them.
func TestStreamOrderIndependentOfJobs(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a", "episode_log.jsonl"), log("2025-11-12T10:00:00")+log("2025-11-12T10:30:00"))
	write(t, filepath.Join(dir, "b", "episode_log.jsonl"), "not a log\n")
	write(t, filepath.Join(dir, "c", "episode_log.jsonl"), log("2025-11-12T11:00:00")+"{broken\n"+log("2025-11-12T11:30:00")+log("2025-11-12T12:00:00"))
	write(t, filepath.Join(dir, "d", "backup.jsonl"), log("2025-11-12T10:00:00"))
	for i := range 6 {
		write(t, filepath.Join(dir, "e", fmt.Sprintf("%d.jsonl", i)), log(fmt.Sprintf("2025-11-13T10:00:0%d", i)))
	}
	files, _ := Discover([]string{dir}, Registry())
	var want string
	for _, jobs := range []int{1, 2, 5} {
		var got strings.Builder
		c := &Corpus{}
		c.Stream(files, Options{Jobs: jobs}, Sink{
			Episode: func(ep *episode.Episode) { fmt.Fprintf(&got, "%s %s %d\n", ep.Name(), ep.Source, ep.N()) },
			Message: func(m string) { fmt.Fprintf(&got, "message %s\n", m) },
		})
		var msgs strings.Builder
		for _, m := range c.Messages {
			fmt.Fprintf(&msgs, "message %s\n", m)
		}
		if !strings.Contains(got.String(), "message warning: episode 2025-11-12T10:00:00 is in 2 files") ||
			!strings.Contains(got.String(), "(segment 3)") || !strings.Contains(got.String(), "does not look like") {
			t.Fatalf("jobs %d: the test misses a case:\n%s", jobs, got.String())
		}
		var told strings.Builder
		for _, line := range strings.SplitAfter(got.String(), "\n") {
			if strings.HasPrefix(line, "message ") {
				told.WriteString(line)
			}
		}
		if told.String() != msgs.String() {
			t.Errorf("jobs %d: messages given %q, c.Messages %q", jobs, told.String(), msgs.String())
		}
		if jobs == 1 {
			want = got.String()
			r := Read([]string{dir}, Options{Jobs: 3})
			var names strings.Builder
			for _, ep := range r.Episodes {
				fmt.Fprintf(&names, "%s %s %d\n", ep.Name(), ep.Source, ep.N())
			}
			var streamed strings.Builder
			for _, line := range strings.SplitAfter(want, "\n") {
				if !strings.HasPrefix(line, "message ") {
					streamed.WriteString(line)
				}
			}
			if streamed.String() != names.String() {
				t.Errorf("Stream gave\n%s\nReadFiles\n%s", streamed.String(), names.String())
			}
		} else if got.String() != want {
			t.Errorf("jobs %d:\n%s\nwant (jobs 1)\n%s", jobs, got.String(), want)
		}
	}
}

// A file's messages come as they always have: what of it was left out, then
// the problems of its episodes, named once the file is read to its end.
func TestMessagesOfAFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "order.jsonl")
	lines := strings.SplitAfter(log("A"), "\n")
	write(t, path, lines[0]+lines[1]+"{broken\n"+lines[2]+strings.SplitAfter(log("B"), "\n")[0])
	c := Read([]string{path}, Options{Jobs: 1})
	want := []string{
		path + " (segment 2, B): no turns: the log ends with the start of an episode (line 5) and nothing after it",
		path + ":3: invalid JSON: column 2: expected a key in quotes, found 'b'",
		path + ": 1 line skipped in A; the rest was analysed",
	}
	if strings.Join(c.Messages, "\n") != strings.Join(want, "\n") {
		t.Errorf("messages\n%s\nwant\n%s", strings.Join(c.Messages, "\n"), strings.Join(want, "\n"))
	}
}

// A walk that finds no log says what names it reads, and names the files of
// other names it passed over, which a command line would read.
func TestNoLogsFound(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"a.log", "b.log", "notes.txt", "run.xml", "sub/z.log"} {
		write(t, filepath.Join(dir, "logs", name), "x\n")
	}
	os.MkdirAll(filepath.Join(dir, "empty"), 0o755)
	_, c := Discover([]string{filepath.Join(dir, "logs"), filepath.Join(dir, "empty")}, Registry())
	reads := "no episode logs found: a walk reads files named *.jsonl, *.jsonl.gz, *.jsonl.zst, run_log_*.txt, *_t<N>_<action>.json, " +
		"*.csv, *.tsv, *.csv.gz, *.tsv.gz, *.csv.zst, *.tsv.zst, *.json, trajectory.json, *.trajectory.json, *.atif.json or *.traj.json, " +
		"and Burr application directories, Terminal-Bench run directories (results.json, *_results.json)"
	want := []string{
		filepath.Join(dir, "logs") + ": " + reads + ", and passed over 5 files of other names (a.log, b.log, notes.txt and 2 more): name one on the command line to have it read whatever its name",
		filepath.Join(dir, "empty") + ": " + reads + "; it holds no other file",
	}
	if strings.Join(c.Messages, "\n") != strings.Join(want, "\n") {
		t.Errorf("messages\n%s\nwant\n%s", strings.Join(c.Messages, "\n"), strings.Join(want, "\n"))
	}
}

// A log whose one problem is its cut last line (a killed run) is said once,
// with every other such log, in one note naming file and line; a log with
// other problems keeps its messages. Every source that reads JSON Lines
// words the cut as cutLastLine.
func TestCutLastLineWording(t *testing.T) {
	dir := t.TempDir()
	whole := log("2025-11-12T10:00:00")
	write(t, filepath.Join(dir, "a", "episode_log.jsonl"), whole+`{"timestamp": "2025-11-12T10:00:03", "event_type": "turn_comp`)
	write(t, filepath.Join(dir, "b", "episode_log.jsonl"), strings.ReplaceAll(whole, "10:00:00", "11:00:00")+`{"timestamp": "2025`)
	write(t, filepath.Join(dir, "c", "episode_log.jsonl"), strings.ReplaceAll(whole, "10:00:00", "12:00:00")+"{not json\n"+`{"timestamp": "2025`)
	tales := `{"Step": 1, "Score": 0, "Max Score": 350, "Moves": 1, "Observation": "o", "Action": "a", "Feedback": "f", "Token Usage": 9}` + "\n" + `{"Step": 2, "Sco`
	write(t, filepath.Join(dir, "d", "run.jsonl"), tales)
	c := Read([]string{dir}, Options{Jobs: 2})
	got := strings.Join(c.Messages, "\n")
	name := func(sub string, line int) string { return fmt.Sprintf("%s:%d", filepath.Join(dir, sub), line) }
	want := "note: 3 logs end in a truncated last line, skipped (a run killed while it wrote; the rest analysed): " +
		name("a/episode_log.jsonl", 4) + ", " + name("b/episode_log.jsonl", 4) + ", " + name("d/run.jsonl", 2)
	if !strings.Contains(got, want) || strings.Count(got, cutLastLine) != 1 || !strings.Contains(got, "c/episode_log.jsonl:4: invalid JSON") ||
		!strings.Contains(got, "c/episode_log.jsonl: 2 lines skipped") || strings.Count(got, "\n") != 3 {
		t.Errorf("messages\n%s\nwant the three cut logs in one note,\n%s\nand c's messages as they are", got, want)
	}
}

// Logs whose zstd windows take the whole decoding budget (8 MiB each) are
// read one at a time, in order, however many are read at once: a later
// file that held the budget while it waited for its turn to hand over its
// episodes would keep the file whose turn it is from ever opening.
func TestZstdBudgetNeverHeldOutOfTurn(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for f := range 6 {
		var data bytes.Buffer
		zw, err := zstd.NewWriter(&data, zstd.WithSingleSegment(false))
		if err != nil {
			t.Fatal(err)
		}
		for e := range 5 { // more than a file's queue holds
			io.WriteString(zw, log(fmt.Sprintf("2025-11-12T1%d:%02d:00", f, e)))
		}
		zw.Close()
		frame := data.Bytes()
		if frame[4]&0x20 != 0 {
			t.Fatal("a single-segment frame: no window to declare")
		}
		frame[5] = 13 << 3 // a window of 1 << (10+13) bytes: 8 MiB, as zstd --long=23 declares
		path := filepath.Join(dir, fmt.Sprintf("%d.jsonl.zst", f))
		write(t, path, string(frame))
		files = append(files, path)
	}
	for range 10 {
		done := make(chan int)
		go func() {
			c := &Corpus{}
			n := 0
			c.Stream(files, Options{Jobs: 6}, Sink{Episode: func(*episode.Episode) { n++ }})
			done <- n
		}()
		select {
		case n := <-done:
			if n != 30 {
				t.Fatalf("%d episodes, want 30", n)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("reading six zstd logs with 8 MiB windows, six at a time, never ends")
		}
	}
}
