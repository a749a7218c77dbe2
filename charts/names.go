package charts

import (
	"fmt"
	"hash/fnv"
	"strings"

	"github.com/lbanalyze/lbanalyze/episode"
)

// maxIDBytes bounds the part of a file name taken from an episode id, so
// that prefix, id, suffixes and extension stay well under the 255 bytes file
// systems allow.
const maxIDBytes = 100

// FileNames gives each episode a file name for its plot: prefix, the episode
// id made safe, "-sK" for segment K of a file of several among eps, and ext.
// The names hold only ASCII letters, digits, '-', '_' and '.', never start
// with a dot, and so never name a directory or leave the one they are joined
// to, whatever the id ("../../x", "/etc/passwd", "a:b", "", non-ASCII). Two
// episodes never get the same name, even when their ids are equal (they can
// repeat across sources) or differ only in case (file systems that ignore
// case): a later one gets "-2", "-3" … in the order given.
func FileNames(eps []*episode.Episode, prefix, ext string) []string {
	names := make([]string, len(eps))
	used := map[string]bool{}
	perFile := map[string]int{}
	for _, ep := range eps {
		perFile[ep.Source]++
	}
	for i, ep := range eps {
		base := prefix + safeID(ep.ID)
		if perFile[ep.Source] > 1 {
			base += fmt.Sprintf("-s%d", ep.Segment)
		}
		name := base + ext
		for k := 2; used[strings.ToLower(name)]; k++ {
			name = fmt.Sprintf("%s-%d%s", base, k, ext)
		}
		used[strings.ToLower(name)] = true
		names[i] = name
	}
	return names
}

// safeID is id with every byte a file name could trip on replaced: ':' by
// '-' (ZorkGPT's own directories write 2025-11-04T09-35-24), others by '_',
// a leading dot by '_'. A long id is cut, and a hash of the whole keeps cut
// ids apart.
func safeID(id string) string {
	if id == "" {
		return "episode"
	}
	var b strings.Builder
	for i, r := range id {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		case r == '.' && i > 0:
			b.WriteRune(r)
		case r == ':':
			b.WriteByte('-')
		default:
			b.WriteByte('_')
		}
	}
	s := b.String()
	if len(s) > maxIDBytes {
		h := fnv.New32a()
		h.Write([]byte(id))
		s = fmt.Sprintf("%s-%08x", s[:maxIDBytes], h.Sum32())
	}
	return s
}
