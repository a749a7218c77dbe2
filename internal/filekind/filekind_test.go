package filekind

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ReadSmall reads a regular file up to its limit, and refuses in words what
// is not one (a directory, a device) or is larger, without reading it.
func TestReadSmall(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small")
	os.WriteFile(small, []byte("score = \"s\"\n"), 0o644)
	if data, err := ReadSmall(small, 12); err != nil || string(data) != "score = \"s\"\n" {
		t.Errorf("%q, %v", data, err)
	}
	var nr *NotRegular
	var tl *TooLarge
	if _, err := ReadSmall(small, 11); !errors.As(err, &tl) || err.Error() != small+": larger than 11 bytes" {
		t.Errorf("too large: %v", err)
	}
	if _, err := ReadSmall(dir, 1<<10); !errors.As(err, &nr) || err.Error() != dir+": not a regular file (a directory)" {
		t.Errorf("a directory: %v", err)
	}
	if _, err := ReadSmall(filepath.Join(dir, "missing"), 1); err == nil || !strings.HasSuffix(err.Error(), "missing: no such file or directory") {
		t.Errorf("missing: %v", err)
	}
	if _, err := os.Stat("/dev/zero"); err == nil {
		if _, err := ReadSmall("/dev/zero", 64<<10); !errors.As(err, &nr) || err.Error() != "/dev/zero: not a regular file (a device)" {
			t.Errorf("/dev/zero: %v", err)
		}
	}
}
