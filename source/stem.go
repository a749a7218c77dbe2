package source

import "strings"

// logExtensions are the extensions a log's name may end in, the compression
// last: Stem takes them off.
var (
	compressions  = []string{".gz", ".zst"}
	logExtensions = []string{".jsonl", ".ndjson", ".json", ".csv", ".tsv", ".txt", ".log"}
)

// Stem is a log's name without the extensions of a log: its compression
// (.gz, .zst), then its kind (.jsonl, .csv …): "run_00.jsonl.gz" is
// "run_00". A name of no such extension is kept whole.
func Stem(name string) string {
	for _, ext := range compressions {
		if s, ok := strings.CutSuffix(name, ext); ok && s != "" {
			name = s
			break
		}
	}
	for _, ext := range logExtensions {
		if s, ok := strings.CutSuffix(name, ext); ok && s != "" && !strings.HasSuffix(s, "/") {
			return s
		}
	}
	return name
}
