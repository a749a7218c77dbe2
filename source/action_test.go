package source

import (
	"strings"
	"testing"
)

func TestToolCall(t *testing.T) {
	tests := []struct {
		name, args, want string
	}{
		// Keys sorted, spaces gone, 1.0 and 1e0 written as 1 (RFC 8785).
		{"bash", `{ "timeout": 1.0, "command": "ls -l" }`, `bash {"command":"ls -l","timeout":1}`},
		{"bash", `{"command":"ls -l","timeout":1e0}`, `bash {"command":"ls -l","timeout":1}`},
		// Nested objects sorted too; a string's escapes written one way.
		{"edit", `{"b":{"y":1,"x":[2,1]},"a":"\u0041"}`, `edit {"a":"A","b":{"x":[2,1],"y":1}}`},
		{" think ", "", "think"},
		{"noop", "null", "noop"},
		// Not JSON: kept as written, trimmed.
		{"run", "  ls -l \n", "run ls -l"},
	}
	for _, tc := range tests {
		if got := ToolCall(tc.name, []byte(tc.args)); got != tc.want {
			t.Errorf("ToolCall(%q, %q) = %q, want %q", tc.name, tc.args, got, tc.want)
		}
	}
	long := `{"text":"` + strings.Repeat("x", 2*MaxText) + `"}`
	if got := ToolCall("write", []byte(long)); len(got) > MaxText || got != Text(`write `+long) {
		t.Errorf("a long call is kept as Text keeps it, got %d bytes", len(got))
	}
}
