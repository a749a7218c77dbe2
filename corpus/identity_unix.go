//go:build unix

package corpus

import (
	"os"
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
