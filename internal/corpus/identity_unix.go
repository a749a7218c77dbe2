//go:build unix

package corpus

import (
	"io/fs"
	"os"
	"sync"
	"syscall"
)

// fileID is a file's identity: two paths to it (a link) give the same.
type fileID struct{ dev, ino uint64 }

func identity(path string, info os.FileInfo) any {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return fileID{uint64(st.Dev), uint64(st.Ino)}
	}
	return absolute(path)
}

// isStdinFile says whether path is the pipe or socket this process reads as
// standard input (through another name for it: /proc/PID/fd/0 of this
// process, a link to it). A regular file or a terminal given both ways is
// left alone: each name opens it anew.
func isStdinFile(path string) bool {
	info, err := os.Stat(path)
	if err != nil || info.Mode()&(fs.ModeNamedPipe|fs.ModeSocket) == 0 {
		return false
	}
	in, ok := stdinID()
	return ok && identity(path, info) == in
}

// stdinID is the identity of what standard input is, if the system tells.
var stdinID = sync.OnceValues(func() (any, bool) {
	info, err := os.Stdin.Stat()
	if err != nil {
		return nil, false
	}
	return identity("", info), true
})
