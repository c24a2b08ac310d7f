package pi

import (
	"bytes"
	"testing"
)

// TestNoBackslash holds the word-at-a-time noBackslash to bytes.IndexByte
// for every length up to 40 with a backslash at every place (or none),
// among bytes that are near it in value (a borrow must not mark them).
func TestNoBackslash(t *testing.T) {
	fill := []byte{'a', '[', ']', 0x5b, 0x5d, 0xdc, 0x00, 0xff, 0x80}
	for n := 0; n <= 40; n++ {
		for _, f := range fill {
			for at := -1; at < n; at++ {
				b := bytes.Repeat([]byte{f}, n)
				if at >= 0 {
					b[at] = '\\'
				}
				if got, want := noBackslash(b), bytes.IndexByte(b, '\\') < 0; got != want {
					t.Fatalf("noBackslash(%q) = %v, want %v", b, got, want)
				}
			}
		}
	}
}
