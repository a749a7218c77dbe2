package tomlfile

import (
	"os"
	"testing"
)

// The depth of each case is worked out by hand: a table header's parts, the
// arrays and inline tables open, the dots of a key (or number) since the last
// '=', ',', bracket or brace, plus one.
func TestTooDeep(t *testing.T) {
	for _, c := range []struct {
		name  string
		data  string
		limit int
		want  int // the line, 0 for none
	}{
		{"a table and a key: 3 + 1", "[tool.zorkgpt.loop_break]\nx = 1\n", 4, 0},
		{"a table and a key, limit 3", "[tool.zorkgpt.loop_break]\nx = 1\n", 3, 2},
		{"a header deeper than the limit", "[a.b.c.d]\n", 3, 1},
		{"an array of tables", "[[a.b]]\nx = 1\n", 2, 2},
		{"a dotted key", "a.b.c.d = 1\n", 3, 1},
		{"a dotted key within", "a.b.c = 1\n", 3, 0},
		{"dots in a quoted key", "\"a.b.c.d\" = 1\n", 2, 0},
		{"a number's dot", "x = [1.5, 2.5, 3.5]\n", 3, 0},
		{"inline tables", "x = {a = {b = {c = 1}}}\n", 3, 1},
		{"brackets in strings", "x = \"[[[[\"\ny = '{{{{'\nz = \"a\\\"[[[[\"\n", 2, 0},
		{"brackets in a comment", "# [[[[[[\nx = 1 # {{{{{\n", 2, 0},
		{"a multi-line string, then an array", "a = \"\"\"\n[[[\n\"\"\"\nb = [[[\n", 3, 4},
		{"a multi-line literal string", "a = '''\n{{{{\n'''\nb = {c = 1}\n", 3, 0},
		{"quotes before the closing three", "a = \"\"\"x\"\"\"\"\"\nb = [[[\n", 3, 2},
		{"an array over lines", "x = [\n[\n[\n1]]]\n", 3, 3},
		{"an unterminated string ends at its line", "a = \"[[[[\nb = [[[\n", 3, 2},
	} {
		if got := tooDeep([]byte(c.data), c.limit); got != c.want {
			t.Errorf("%s: line %d, want %d", c.name, got, c.want)
		}
	}
}

// ZorkGPT's own pyproject.toml is well within the bounds.
func TestRealConfigWithinBounds(t *testing.T) {
	data, err := os.ReadFile("../../testdata/pyproject/pyproject.toml")
	if err != nil {
		t.Fatal(err)
	}
	if line := tooDeep(data, MaxDepth); line != 0 || len(data) > 128<<10/10 {
		t.Errorf("line %d too deep, %d bytes", line, len(data))
	}
}
