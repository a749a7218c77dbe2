//go:build !unix

package corpus

import "os"

func identity(path string, _ os.FileInfo) any { return absolute(path) }

// isStdinFile: where files have no identity, standard input is known by its
// names only.
func isStdinFile(string) bool { return false }
