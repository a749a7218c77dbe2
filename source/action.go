package source

import (
	"bytes"
	"strings"

	"github.com/goccy/go-json/jsontext"
)

// ToolCall is a tool call as an Episode keeps it for its action
// (docs/sources.md, "What a step did"): the tool's name, a space and its
// arguments as canonical JSON (RFC 8785: keys sorted, no spaces, numbers
// written one way), so that the same call written with its keys in another
// order or other spacing is the same action. Arguments that are not JSON
// are kept as written, trimmed; none (empty or null) leave the name alone.
func ToolCall(name string, args []byte) string {
	args = bytes.TrimSpace(args)
	if len(args) == 0 || string(args) == "null" {
		return Text(strings.TrimSpace(name))
	}
	v := jsontext.Value(bytes.Clone(args))
	if err := v.Canonicalize(); err == nil {
		args = v
	}
	return Text(strings.TrimSpace(name) + " " + string(args))
}
