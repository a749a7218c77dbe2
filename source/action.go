package source

import (
	"bytes"
	"strings"

	"github.com/goccy/go-json/jsontext"
)

// ToolCall is a tool call as an Episode keeps it for its action
// (docs/sources.md, "What a step did"): the tool's name, a space and its
// arguments as CanonicalJSON, so that the same call written with its keys
// in another order or other spacing is the same action. None (empty or
// null) leave the name alone.
func ToolCall(name string, args []byte) string {
	args = bytes.TrimSpace(args)
	if len(args) == 0 || string(args) == "null" {
		return Text(strings.TrimSpace(name))
	}
	return Text(strings.TrimSpace(name) + " " + CanonicalJSON(args))
}

// CanonicalJSON is a JSON value written one way (RFC 8785: keys sorted, no
// spaces, numbers and strings written one way); a text that is not JSON,
// as written, trimmed.
func CanonicalJSON(raw []byte) string {
	v := jsontext.Value(bytes.Clone(bytes.TrimSpace(raw)))
	if err := v.Canonicalize(); err != nil {
		return string(bytes.TrimSpace(raw))
	}
	return string(v)
}
