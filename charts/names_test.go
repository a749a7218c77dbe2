package charts

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
)

// TestFileNamesHostile: whatever the id, the name stays in the directory it
// is joined to, is a valid portable name, and no two episodes share one.
func TestFileNamesHostile(t *testing.T) {
	long := strings.Repeat("x", 300)
	tests := []struct {
		id   string
		want string // "" when only the properties are checked
	}{
		{"2025-11-04T09:35:24", "timeline-2025-11-04T09-35-24.png"},
		{"../../x", "timeline-_._.._x.png"},
		{"/etc/passwd", "timeline-_etc_passwd.png"},
		{`C:\Windows\system32`, "timeline-C-_Windows_system32.png"},
		{"a:b", "timeline-a-b.png"},
		{"a-b", "timeline-a-b-2.png"}, // "a:b" took a-b: distinct ids, distinct files
		{"..", "timeline-_..png"},
		{".", "timeline-_.png"},
		{".hidden", "timeline-_hidden.png"},
		{"", "timeline-episode.png"},
		{"épisode ünïcode 日本", "timeline-_pisode__n_code___.png"},
		{"nul\x00byte\nnewline", "timeline-nul_byte_newline.png"},
		{"CON", "timeline-CON.png"},
		{"con", "timeline-con-2.png"}, // the same file where case is ignored
		{long, ""},
		{long + "y", ""}, // cut to the same 100 bytes: the hash keeps them apart
		{"<script>alert(1)</script>", "timeline-_script_alert_1___script_.png"},
	}
	eps := make([]*episode.Episode, len(tests))
	for i, tc := range tests {
		eps[i] = &episode.Episode{ID: tc.id, Source: strconv.Itoa(i) + ".jsonl", Segment: 1}
	}
	names := FileNames(eps, "timeline-", ".png")
	dir := filepath.Join("out", "plots")
	seen := map[string]string{}
	for i, tc := range tests {
		name := names[i]
		if tc.want != "" && name != tc.want {
			t.Errorf("id %q: got %q, want %q", tc.id, name, tc.want)
		}
		if got := filepath.Dir(filepath.Join(dir, name)); got != dir {
			t.Errorf("id %q: %q lands in %q, not %q", tc.id, name, got, dir)
		}
		if len(name) > 200 || strings.HasPrefix(name, ".") || strings.ContainsAny(name, "/\\:\x00") || !strings.HasSuffix(name, ".png") {
			t.Errorf("id %q: %q is not a safe file name", tc.id, name)
		}
		for _, r := range name {
			if r > 0x7e || r < 0x20 {
				t.Errorf("id %q: %q holds %q", tc.id, name, r)
			}
		}
		key := strings.ToLower(name)
		if other, dup := seen[key]; dup {
			t.Errorf("ids %q and %q share %q", other, tc.id, name)
		}
		seen[key] = tc.id
	}
}

// TestFileNamesRepeats: an id that repeats across sources, and the segments
// of one file, get distinct names in the order given.
func TestFileNamesRepeats(t *testing.T) {
	eps := []*episode.Episode{
		{ID: "2025-11-12T10:00:00", Source: "a.jsonl", Segment: 1},
		{ID: "2025-11-12T10:00:00", Source: "b.jsonl", Segment: 1},
		{ID: "2025-11-12T10:00:00", Source: "two.jsonl", Segment: 1},
		{ID: "2025-11-12T11:00:00", Source: "two.jsonl", Segment: 2},
		{ID: "2025-11-12T10:00:00", Source: "c.jsonl", Segment: 1},
	}
	want := []string{
		"out-2025-11-12T10-00-00.svg",
		"out-2025-11-12T10-00-00-2.svg",
		"out-2025-11-12T10-00-00-s1.svg",
		"out-2025-11-12T11-00-00-s2.svg",
		"out-2025-11-12T10-00-00-3.svg",
	}
	got := FileNames(eps, "out-", ".svg")
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("episode %d: got %q, want %q", i, got[i], want[i])
		}
	}
}
