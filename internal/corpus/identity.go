package corpus

import "path/filepath"

// absolute is the identity of a file where the system gives none better.
func absolute(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return filepath.Clean(path)
}
