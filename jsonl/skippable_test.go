package jsonl

import (
	"bytes"
	"encoding/binary"
	"io"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// skippableFrame is a zstd skippable frame of the given magic nibble (0 to
// 15) holding payload, as the zstd format lays it out: the magic 0x184D2A5n
// and the payload's size, little-endian, then the payload.
func skippableFrame(nibble byte, payload []byte) []byte {
	b := binary.LittleEndian.AppendUint32(nil, 0x184D2A50|uint32(nibble))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(payload)))
	return append(b, payload...)
}

func zstdFrame(t *testing.T, content string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw, err := zstd.NewWriter(&b)
	if err != nil {
		t.Fatal(err)
	}
	zw.Write([]byte(content))
	zw.Close()
	return b.Bytes()
}

// A zstd stream that starts with a skippable frame (pzstd writes one, of 4
// bytes, before every frame) is read as zstd, every frame of it.
func TestZstdSkippableFrames(t *testing.T) {
	a, b := "{\"a\": 1}\n", "{\"b\": 2}\n"
	fa, fb := zstdFrame(t, a), zstdFrame(t, b)
	size := func(f []byte) []byte { return binary.LittleEndian.AppendUint32(nil, uint32(len(f))) }
	for _, c := range []struct {
		name   string
		stream []byte
		want   string
	}{
		{"pzstd, one frame", bytes.Join([][]byte{skippableFrame(0, size(fa)), fa}, nil), a},
		{"pzstd, two frames", bytes.Join([][]byte{skippableFrame(0, size(fa)), fa, skippableFrame(0, size(fb)), fb}, nil), a + b},
		{"a large skippable frame, last magic", bytes.Join([][]byte{skippableFrame(15, bytes.Repeat([]byte{'x'}, 100_000)), fa}, nil), a},
		{"two skippable frames", bytes.Join([][]byte{skippableFrame(3, nil), skippableFrame(7, []byte("meta")), fb}, nil), b},
		{"a skippable frame only", skippableFrame(0, size(fa)), ""},
	} {
		if !compressed(c.stream[:4]) {
			t.Errorf("%s: not taken for compressed", c.name)
		}
		rc, err := decompress(io.NopCloser(bytes.NewReader(c.stream)), Limits{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got, err := io.ReadAll(rc)
		rc.Close()
		if err != nil || string(got) != c.want {
			t.Errorf("%s: got %q, %v; want %q", c.name, got, err, c.want)
		}
	}
}

// The window of a stream is read from its first frame with data, past the
// skippable frames: a head cut before it says nothing (the budget then
// counts the largest window).
func TestPastSkippable(t *testing.T) {
	frame := []byte{0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x58}
	for _, c := range []struct {
		name string
		head []byte
		want []byte
	}{
		{"no skippable frame", frame, frame},
		{"one", append(skippableFrame(0, []byte{1, 2, 3, 4}), frame...), frame},
		{"two", append(append(skippableFrame(1, nil), skippableFrame(2, []byte{9})...), frame...), frame},
		{"cut in the payload", skippableFrame(0, make([]byte, 100))[:20], nil},
		{"cut in the header", skippableFrame(0, nil)[:6], nil},
	} {
		if got := pastSkippable(c.head); !bytes.Equal(got, c.want) {
			t.Errorf("%s: got % x, want % x", c.name, got, c.want)
		}
	}
}
