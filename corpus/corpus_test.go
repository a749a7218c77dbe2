package corpus

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// a tiny replayable log: two turns of one episode.
func log(id string) string {
	return `{"timestamp": "2025-11-12T10:00:00", "level": "INFO", "event_type": "episode_initialized", "episode_id": "` + id + `", "max_turns": 500}
{"timestamp": "2025-11-12T10:00:01", "level": "INFO", "event_type": "turn_completed", "episode_id": "` + id + `", "turn": 1, "score": 0}
{"timestamp": "2025-11-12T10:00:02", "level": "INFO", "event_type": "turn_completed", "episode_id": "` + id + `", "turn": 2, "score": 5}
`
}

func write(t *testing.T, path, data string) {
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
	files, _ := Files([]string{"-", "-"})
	if len(files) != 1 {
		t.Fatalf("files %v, want one -", files)
	}
	c.ReadFiles(files, Options{Jobs: 4, Stdin: strings.NewReader(log("2025-11-12T10:00:00"))})
	if len(c.Episodes) != 1 || c.Episodes[0].N() != 2 {
		t.Fatalf("%d episodes, want 1 of 2 turns; messages %v", len(c.Episodes), c.Messages)
	}
	files, _ = Discover([]string{"-", "-"})
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

func TestDuplicateEpisodeIDWarned(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a", "episode_log.jsonl"), log("2025-11-12T10:00:00"))
	write(t, filepath.Join(dir, "a", "backup.jsonl"), log("2025-11-12T10:00:00"))
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

func TestDirectoryGivenAsFile(t *testing.T) {
	dir := t.TempDir()
	files, c := Files([]string{dir})
	if len(files) != 0 || len(c.Messages) != 1 || !strings.Contains(c.Messages[0], "lbanalyze batch "+dir) ||
		!strings.Contains(c.Messages[0], filepath.Join(dir, "episode_log.jsonl")) {
		t.Errorf("files %v, messages %q", files, c.Messages)
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
