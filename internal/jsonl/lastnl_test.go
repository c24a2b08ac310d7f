package jsonl

import (
	"bytes"
	"math/rand"
	"testing"
)

// TestLastNewline: lastNewline equals bytes.LastIndexByte(b, '\n') for a
// '\n' (and bytes that differ from it by one bit, 0x8a among them) at
// every place of inputs of every length up to 40.
func TestLastNewline(t *testing.T) {
	for n := 0; n <= 40; n++ {
		for at := -1; at < n; at++ {
			for _, other := range []byte{'a', 0x8a, 0x0b, 0x0e, 0x00, 0xff, 0x2a} {
				b := bytes.Repeat([]byte{other}, n)
				if at >= 0 {
					b[at] = '\n'
				}
				if got, want := lastNewline(b), bytes.LastIndexByte(b, '\n'); got != want {
					t.Fatalf("%q: %d, want %d", b, got, want)
				}
				for k := 0; k < at; k++ { // an earlier '\n' too
					c := bytes.Clone(b)
					c[k] = '\n'
					if got, want := lastNewline(c), bytes.LastIndexByte(c, '\n'); got != want {
						t.Fatalf("%q: %d, want %d", c, got, want)
					}
				}
			}
		}
	}
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 10000; i++ {
		b := make([]byte, r.Intn(100))
		for k := range b {
			b[k] = byte(r.Intn(256))
			if r.Intn(8) == 0 {
				b[k] = '\n'
			}
		}
		if got, want := lastNewline(b), bytes.LastIndexByte(b, '\n'); got != want {
			t.Fatalf("%q: %d, want %d", b, got, want)
		}
	}
}

// FuzzLastNewline: lastNewline equals bytes.LastIndexByte(b, '\n').
func FuzzLastNewline(f *testing.F) {
	f.Add([]byte("a\nbcdefghijklmnop"))
	f.Add([]byte("\n\x8a\x0b\x00\xff\n01234567"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := lastNewline(b), bytes.LastIndexByte(b, '\n'); got != want {
			t.Fatalf("%q: %d, want %d", b, got, want)
		}
	})
}

func BenchmarkLastNewline(b *testing.B) {
	buf := bytes.Repeat([]byte("x"), 64<<10)
	buf[100] = '\n'
	b.SetBytes(int64(len(buf) - 100))
	b.Run("lastNewline", func(b *testing.B) {
		for b.Loop() {
			lastNewline(buf)
		}
	})
	b.Run("LastIndexByte", func(b *testing.B) {
		for b.Loop() {
			bytes.LastIndexByte(buf, '\n')
		}
	})
}
