package jsonl

import (
	"bytes"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"
)

// TestGiantLineBudget: readers with giant lines at once share the one giant
// buffer in turn — each line read whole and intact, none waiting for ever —
// and a reader closed while it holds the buffer gives it back.
func TestGiantLineBudget(t *testing.T) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		var wg sync.WaitGroup
		for i := range 4 {
			wg.Go(func() {
				huge := `{"event_type": "turn_completed", "x": "` + strings.Repeat(string(rune('a'+i)), 6<<20) + `"}`
				rd := NewReader(strings.NewReader(huge+"\n"+huge+"\n{}\n"), LineOptions{})
				defer rd.Close()
				for n := 1; n <= 3; n++ {
					line, num, err := rd.Next()
					if err != nil || num != n || (n < 3 && string(line) != huge) {
						t.Errorf("reader %d line %d: %d bytes, numbered %d, %v", i, n, len(line), num, err)
					}
				}
			})
		}
		wg.Wait()
		rd := NewReader(strings.NewReader(`{"x": "`+strings.Repeat("z", 6<<20)+"\n"), LineOptions{})
		rd.Next()
		rd.Close() // holding the giant buffer
		rd = NewReader(strings.NewReader(`{"x": "`+strings.Repeat("z", 6<<20)+"\"}\n"), LineOptions{})
		if _, _, err := rd.Next(); err != nil {
			t.Error(err)
		}
		rd.Close()
	}()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("readers wait for ever for the giant buffer")
	}
}

// TestZstdWindowBudget: the window a zstd frame declares is read from its
// header, and what a stream takes of the process's budget is given back at
// Close (else the third stream would wait for ever).
func TestZstdWindowBudget(t *testing.T) {
	for _, tc := range []struct {
		head []byte
		want int64
	}{
		{[]byte{0x28, 0xb5, 0x2f, 0xfd, 0x00, 11 << 3}, 2 << 20},       // window descriptor: 2 MiB
		{[]byte{0x28, 0xb5, 0x2f, 0xfd, 0x00, 12<<3 | 4}, 6 << 20},     // 4 MiB + 4/8
		{[]byte{0x28, 0xb5, 0x2f, 0xfd, 0x00, 18 << 3}, MaxZstdWindow}, // 256 MiB: the cap (refused later)
		{[]byte{0x28, 0xb5, 0x2f, 0xfd, 0x20, 200}, 1 << 10},           // single segment, 200 bytes: 1 KiB at least
		{[]byte{0x28, 0xb5, 0x2f, 0xfd, 0x60, 0x00, 0x10}, 4096 + 256}, // single segment, 2-byte size
		{[]byte{0x28, 0xb5, 0x2f, 0xfd, 0xa0, 0, 0, 0x10, 0}, 1 << 20}, // single segment, 4-byte size
		{[]byte{0x28, 0xb5, 0x2f, 0xfd}, MaxZstdWindow},                // cut short
		{[]byte{0x28, 0xb5, 0x2f, 0xfd, 0xe0, 1, 2, 3}, MaxZstdWindow}, // 8-byte size cut short
		{[]byte{0x28, 0xb5, 0x2f, 0xfd, 0x23, 1, 2, 3, 4, 9}, 1 << 10}, // dictionary id, then the size
	} {
		if got := zstdWindow(tc.head); got != tc.want {
			t.Errorf("zstdWindow(% x) = %d, want %d", tc.head, got, tc.want)
		}
	}
	var buf bytes.Buffer
	zw, _ := zstd.NewWriter(&buf, zstd.WithWindowSize(MaxZstdWindow))
	zw.Write([]byte("{}\n"))
	zw.Close()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 5 {
			rc, err := decompress(io.NopCloser(bytes.NewReader(buf.Bytes())), Limits{})
			if err != nil {
				t.Error(err)
				return
			}
			io.ReadAll(rc)
			rc.Close()
		}
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("a zstd stream waits for ever for the window budget")
	}
}
