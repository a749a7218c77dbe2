package textout

import "github.com/goccy/go-json"

// JSON is the compact JSON of v, strings as they are (no HTML escapes): what
// every JSON output of lbanalyze writes, by goccy/go-json.
func JSON(v any) ([]byte, error) { return json.MarshalWithOption(v, json.DisableHTMLEscape()) }

// IndentedJSON is JSON of v indented as an element whose members are at
// prefix and two spaces: the bytes encoding/json's MarshalIndent writes.
func IndentedJSON(v any, prefix string) ([]byte, error) {
	return json.MarshalIndentWithOption(v, prefix, "  ", json.DisableHTMLEscape())
}
