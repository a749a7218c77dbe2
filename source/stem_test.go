package source

import "testing"

func TestStem(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"run_00.jsonl.gz", "run_00"},
		{"run_00.csv", "run_00"},
		{"runs/a/run_00.csv.zst", "runs/a/run_00"},
		{"a.jsonl/run", "a.jsonl/run"}, // a directory's extension is not the log's
		{"a/.jsonl", "a/.jsonl"},       // a name of nothing but an extension
		{"a/.gz", "a/.gz"},
		{"a/.jsonl.gz", "a/.jsonl"},
		{"x.tar.gz", "x.tar"},
		{"notes", "notes"},
	} {
		if got := Stem(c.in); got != c.want {
			t.Errorf("Stem(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
