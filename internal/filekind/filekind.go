// Package filekind names the kind of a file that is not a regular one, for
// messages that refuse to read it, and reads the small files the tool opens
// beside its inputs only when they are regular and small.
package filekind

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// Of is the kind of a file of mode m: "a directory", "a FIFO", "a device",
// "a socket", else its mode.
func Of(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "mode " + m.String()
}

// NotRegular is the error of ReadSmall for a path that is not a regular
// file: reading a FIFO would wait for a writer, a device never end.
type NotRegular struct {
	Path string
	Mode fs.FileMode
}

func (e *NotRegular) Error() string {
	return fmt.Sprintf("%s: not a regular file (%s)", e.Path, Of(e.Mode))
}

// TooLarge is the error of ReadSmall for a file larger than its limit.
type TooLarge struct {
	Path  string
	Limit int64
}

func (e *TooLarge) Error() string { return fmt.Sprintf("%s: larger than %s", e.Path, size(e.Limit)) }

// ReadSmall reads a file the tool opens beside its inputs (a configuration,
// a field map, Burr's metadata.json): a regular file of at most limit bytes,
// else NotRegular or TooLarge; a file that changes kind between the look and
// the open is judged again once open. An error from the system names the
// path once.
func ReadSmall(path string, limit int64) ([]byte, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, once(path, err)
	}
	if !info.Mode().IsRegular() {
		return nil, &NotRegular{Path: path, Mode: info.Mode()}
	}
	if info.Size() > limit {
		return nil, &TooLarge{Path: path, Limit: limit}
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, once(path, err)
	}
	defer f.Close()
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		if err != nil {
			return nil, once(path, err)
		}
		return nil, &NotRegular{Path: path, Mode: info.Mode()}
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, once(path, err)
	}
	if int64(len(data)) > limit {
		return nil, &TooLarge{Path: path, Limit: limit}
	}
	return data, nil
}

// once is err naming path once: "PATH: no such file or directory", not
// "PATH: stat PATH: …".
func once(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("%s: %w", path, err)
}

// size writes a byte count: 128 KiB, 1 MiB.
func size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
