// Package filekind names the kind of a file that is not a regular one, for
// messages that refuse to read it.
package filekind

import "io/fs"

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
