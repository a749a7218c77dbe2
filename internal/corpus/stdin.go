package corpus

import (
	"os"
	"path/filepath"
	"strconv"

	"github.com/lbanalyze/lbanalyze/jsonl"
)

// isStdin says whether path names standard input: "-", one of the names the
// system gives it (/dev/stdin, /dev/fd/0, /proc/self/fd/0), a symbolic link
// to one of them, or, where the system tells, the very pipe or socket that is
// standard input. Each is read as "-", once: two readers of one pipe would
// split its lines between them.
func isStdin(path string) bool {
	if path == jsonl.StdinName {
		return true
	}
	for range maxLinks {
		if clean := filepath.Clean(path); stdinNames[clean] || clean == procStdin {
			return true
		}
		target, err := os.Readlink(path)
		if err != nil {
			break
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(path), target)
		}
		path = target
	}
	return isStdinFile(path)
}

// maxLinks bounds the symbolic links followed to a name of standard input.
const maxLinks = 8

var (
	stdinNames = map[string]bool{"/dev/stdin": true, "/dev/fd/0": true, "/proc/self/fd/0": true, "/proc/thread-self/fd/0": true}
	procStdin  = "/proc/" + strconv.Itoa(os.Getpid()) + "/fd/0"
)
