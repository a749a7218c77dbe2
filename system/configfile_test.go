package system

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A pyproject.toml of 128 KiB is read; one byte more is refused.
func TestConfigSizeCap(t *testing.T) {
	dir := t.TempDir()
	line := "# " + strings.Repeat("x", 61) + "\n" // 64 bytes
	at := strings.Repeat(line, 128<<10/len(line))
	for _, c := range []struct {
		data string
		err  string
	}{
		{at, ""},
		{at + "\n", "larger than 128 KiB"},
	} {
		path := filepath.Join(dir, "pyproject.toml")
		os.WriteFile(path, []byte(c.data), 0o644)
		_, err := LoadConfig(path)
		if c.err == "" && err != nil || c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
			t.Errorf("%d bytes: %v, want %q", len(c.data), err, c.err)
		}
	}
}
