package corpus

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/source"
)

// A file no source reads is said to be what it looks like, once, with no
// message a line; an empty file is "empty file" and nothing else.
func TestReadSaysWhatAFileIs(t *testing.T) {
	turn := `{"timestamp": "2025-11-12T10:00:01", "level": "INFO", "message": "Turn 1 completed", "event_type": "turn_completed", "episode_id": "e", "turn": 1, "action": "look", "score": 0, "location": "West of House"}` + "\n"
	init := `{"timestamp": "2025-11-12T10:00:00", "level": "INFO", "message": "Episode initialized", "event_type": "episode_initialized", "episode_id": "e"}` + "\n"
	utf16le, utf16noBOM, utf32le := []byte{0xff, 0xfe}, []byte{}, []byte{0xff, 0xfe, 0, 0}
	for _, u := range utf16.Encode([]rune(turn)) {
		utf16le = append(utf16le, byte(u), byte(u>>8))
		utf16noBOM = append(utf16noBOM, byte(u), byte(u>>8))
	}
	for _, r := range turn {
		utf32le = append(utf32le, byte(r), 0, 0, 0)
	}
	const readable = "does not look like a log lbanalyze reads (zorkgpt, zorkgpt2-burr, zorkgpt2-runlog, zorkgpt2-snapshot, tales, balrog, tau2, terminal-bench, atif, mini-swe-agent): "
	for _, c := range []struct {
		name, data, reason string
		episodes           int
	}{
		{"empty", "", "empty file", 0},
		{"blank lines", "\n \n", readable + "only blank lines", 0},
		{"ends with a new episode", init + turn + init, "no turns: the log ends with the start of an episode (line 3)", 1},
		{"zstd window", string([]byte{0x28, 0xb5, 0x2f, 0xfd, 0x00, 18 << 3, 0x19, 0x00, 0x00, '{', '}', '\n'}), "zstd", 0},
		{"UTF-16 with a byte order mark", string(utf16le), "looks like UTF-16, not UTF-8", 0},
		{"UTF-16 without one", string(utf16noBOM), "looks like UTF-16, not UTF-8", 0},
		{"UTF-32", string(utf32le), "looks like UTF-32, not UTF-8", 0},
		{"carriage returns alone", strings.ReplaceAll(turn+turn, "\n", "\r"), "its lines end in a carriage return alone", 0},
		{"a JSON document", "{\n  \"score\": 5,\n  \"rooms\": [1, 2]\n}\n", readable + "a JSON document, not JSON Lines", 0},
		{"JSON Lines of other keys", strings.Repeat(`{"Step": 1, "Score": 0, "Action": "look"}`+"\n", 3), readable + `JSON Lines whose first object has the keys "Step", "Score", "Action"`, 0},
		{"text", "[tool.zorkgpt.loop_break]\nmax_turns_stuck = 40\n", readable + `text; its first line: "[tool.zorkgpt.loop_break]"`, 0},
		{"binary", "\x00\x01\x02garbage", readable + "binary data, not text", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			var got []*episode.Episode
			res, err := Registry().read("-", strings.NewReader(c.data), source.Options{}, func() {}, func(ep *episode.Episode) { got = append(got, ep) }, func(uint64) {})
			var said []string
			if err != nil {
				said = append(said, err.Error())
			}
			if res != nil {
				for _, r := range res.Rejected {
					said = append(said, r.Reason)
				}
				for _, p := range res.Problems {
					said = append(said, p.Msg)
				}
			}
			if len(got) != c.episodes || len(said) == 0 || !strings.Contains(said[0], c.reason) {
				t.Errorf("%d episodes; said %q, want %q", len(got), said, c.reason)
			}
		})
	}
}

// A ZorkGPT log is claimed however it begins: a byte order mark, blank
// lines, a few lines that are not records, a first line longer than the head.
func TestZorkGPTClaimedByContent(t *testing.T) {
	turn := `{"timestamp": "2025-11-12T10:00:01", "level": "INFO", "message": "Turn 1 completed", "event_type": "turn_completed", "episode_id": "e", "turn": 1, "action": "look", "score": 0, "location": "West of House"}` + "\n"
	long := `{"timestamp": "2025-11-12T10:00:01", "level": "INFO", "message": "` + strings.Repeat("x", 2*source.HeadSize) + `", "event_type": "final_action_selection"}` + "\n"
	for name, data := range map[string]string{
		"plain":            turn,
		"byte order mark":  "\ufeff" + turn,
		"blank lines":      "\n\n" + turn,
		"garbage first":    "not json\n{\"a\": 1}\n" + turn,
		"a long line head": long + turn,
	} {
		var got []*episode.Episode
		res, err := Registry().read("-", bytes.NewReader([]byte(data)), source.Options{}, func() {}, func(ep *episode.Episode) { got = append(got, ep) }, func(uint64) {})
		if err != nil || len(got) != 1 || got[0].Format != "zorkgpt" || got[0].N() != 1 {
			t.Errorf("%s: %d episodes (err %v, result %+v)", name, len(got), err, res)
		}
	}
}

// A walk finds ZorkGPT2's runs: the applications of a Burr project
// directory (and not their log.jsonl again), a run log, a snapshot; it
// passes over JSON files named otherwise.
func TestZorkGPT2Walk(t *testing.T) {
	dir := t.TempDir()
	turn := func(n int) string {
		return fmt.Sprintf("TURN %d | loc=Kitchen | score=0/350 | critic=0.70 | rejections=0 | action=look\n", n)
	}
	app := func(id, episodeID string) {
		p := filepath.Join(dir, "burr", "default", id)
		write(t, filepath.Join(p, "metadata.json"), `{"type": "application_metadata", "partition_key": null}`)
		write(t, filepath.Join(p, "graph.json"), `{"type": "application"}`)
		write(t, filepath.Join(p, "log.jsonl"), `{"type":"begin_entry","start_time":"t","action":"execute_action","inputs":{},"sequence_id":0}`+"\n"+
			`{"type":"end_entry","end_time":"t","action":"execute_action","result":{},"exception":null,"state":{"episode_id":"`+episodeID+`","turn_count":1,"score":0},"sequence_id":0}`+"\n")
	}
	app("b-app", "ep2")
	app("a-app", "ep1")
	write(t, filepath.Join(dir, "orchestrator", "run_log_ep3.txt"), turn(1)+turn(2))
	write(t, filepath.Join(dir, "fixtures", "ep4_t3_evaluate_action.json"), `{"state": {"action_history": [{"turn": 1, "score_after": 0}, {"turn": 2, "score_after": 5}]}}`)
	write(t, filepath.Join(dir, "config.json"), `{"a": 1}`)
	c := Read([]string{dir}, Options{Jobs: 2})
	var got []string
	for _, ep := range c.Episodes {
		got = append(got, fmt.Sprintf("%s %s %d", ep.ID, ep.Format, ep.N()))
	}
	want := "ep1 zorkgpt2-burr 1|ep2 zorkgpt2-burr 1|ep4 zorkgpt2-snapshot 2|ep3 zorkgpt2-runlog 2"
	if strings.Join(got, "|") != want || len(c.Skipped) != 0 {
		t.Errorf("got %q, skipped %v; want %q", got, c.Skipped, want)
	}
}

// markedDir is a directory source of the directories holding "run.marker",
// that counts the directories it is asked of.
type markedDir struct{ asked *[]string }

func (markedDir) Format() string { return "marked" }

func (m markedDir) ClaimsDir(dir string) bool {
	*m.asked = append(*m.asked, filepath.Base(dir))
	return filepath.Base(dir) == "run"
}

func (markedDir) Marks(name string) bool { return name == "run.marker" }

func (markedDir) ReadDir(string, source.Options, func(*episode.Episode)) *source.Result {
	return &source.Result{}
}

// A walk asks a directory source only of the directories holding an entry
// its Marks takes; the one it claims is found, and not walked into.
func TestDirSourceAskedByMarks(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "run", "run.marker"), "")
	write(t, filepath.Join(dir, "run", "inner", "a.jsonl"), "{}\n")
	write(t, filepath.Join(dir, "other", "run.marker", "b.jsonl"), "{}\n") // a directory so named marks too
	write(t, filepath.Join(dir, "plain", "c.jsonl"), "{}\n")
	var asked []string
	files, _ := Discover([]string{dir}, &Sources{Files: Registry().Files, Dirs: []source.DirSource{markedDir{&asked}}})
	want := []string{filepath.Join(dir, "other", "run.marker", "b.jsonl"), filepath.Join(dir, "plain", "c.jsonl"), filepath.Join(dir, "run")}
	if fmt.Sprint(files) != fmt.Sprint(want) || fmt.Sprint(asked) != "[other run]" {
		t.Errorf("found %q, asked of %q; want %q, asked of [other run]", files, asked, want)
	}
}

// BenchmarkDiscover walks a tree laid out as synth's 1,000 episodes are
// (docs/PERFORMANCE.md, "Many episodes"): a directory a run, each holding
// its episode_log.jsonl.
func BenchmarkDiscover(b *testing.B) {
	dir := b.TempDir()
	for i := range 1000 {
		write(b, filepath.Join(dir, fmt.Sprintf("2025-10-18T%04d", i), "episode_log.jsonl"), "{}\n")
	}
	for b.Loop() {
		if files, _ := Discover([]string{dir}, Registry()); len(files) != 1000 {
			b.Fatalf("%d files", len(files))
		}
	}
}
