package source

import "strings"

// logExtensions are the extensions a log's name may end in, the compression
// last: Stem takes them off.
var (
	compressions  = []string{".gz", ".zst"}
	logExtensions = []string{".jsonl", ".ndjson", ".json", ".csv", ".tsv", ".txt", ".log"}
)

// Stem is a log's name, or "/"-separated path, without the extensions of a
// log at its end: its compression (.gz, .zst), then its kind (.jsonl, .csv
// …): "runs/run_00.jsonl.gz" is "runs/run_00". A name of no such extension,
// or of nothing else, is kept whole.
func Stem(path string) string {
	i := strings.LastIndexByte(path, '/') + 1
	dir, name := path[:i], path[i:]
	for _, ext := range compressions {
		if s, ok := strings.CutSuffix(name, ext); ok && s != "" {
			name = s
			break
		}
	}
	for _, ext := range logExtensions {
		if s, ok := strings.CutSuffix(name, ext); ok && s != "" {
			return dir + s
		}
	}
	return dir + name
}
