package search

import (
	"bytes"
	"math/rand"
	"strings"
	"testing"
)

func naivePair(b []byte, c0, c1 byte) int {
	for i := 0; i+1 < len(b); i++ {
		if b[i] == c0 && b[i+1] == c1 {
			return i
		}
	}
	return -1
}

// TestIndexPair compares the word-at-a-time scan with a byte loop on random
// texts over a small alphabet (so pairs, near misses and bytes 0x00, 0x80
// and 0xff that trouble such tricks are common), at every length and
// alignment around the 32-byte steps.
func TestIndexPair(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	alpha := []byte{'\\', 'u', 'v', 0, 0x80, 0xff, 0x5b, 0x5d, 't', '\\' ^ 1}
	for n := 0; n < 5000; n++ {
		b := make([]byte, rng.Intn(140))
		for i := range b {
			b[i] = alpha[rng.Intn(len(alpha))]
			if rng.Intn(3) > 0 {
				b[i] = 'x'
			}
		}
		for _, p := range [][2]byte{{'\\', 'u'}, {'\\', '/'}, {0, 0x80}, {0xff, 0xff}, {'u', '\\'}} {
			for off := 0; off < len(b) && off < 9; off++ {
				want := naivePair(b[off:], p[0], p[1])
				if got := indexPair(b[off:], p[0], p[1]); got != want {
					t.Fatalf("indexPair(%q, %q%q) = %d, want %d", b[off:], p[0], p[1], got, want)
				}
				// The portable version too (on amd64 it only does tails).
				if got := indexPairOrSWAR(b[off:], p[0], 0, p[1], 0); got != want {
					t.Fatalf("indexPairOrSWAR(%q, %q%q) = %d, want %d", b[off:], p[0], p[1], got, want)
				}
			}
		}
	}
	long := bytes.Repeat([]byte(`ab\n\"cd`), 1000)
	if i := indexPair(long, '\\', 'u'); i != -1 {
		t.Fatalf("found \\u at %d in a text without it", i)
	}
	long = append(long, `\u004b`...)
	if i := indexPair(long, '\\', 'u'); i != len(long)-6 {
		t.Fatalf("\\u at %d, want %d", i, len(long)-6)
	}
}

// TestIndexPairOrFoldsASCIICase: with caseBit, a letter pair matches either
// case of each letter and nothing else (not bytes that differ by 0x20
// outside letters, such as '@' and '`' or 0xC4 and 0xE4).
func TestIndexPairOrFoldsASCIICase(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	alpha := []byte("kKuU@`[{\xc4\xe4 \\x")
	naive := func(b []byte, c0, c1 byte) int {
		for i := 0; i+1 < len(b); i++ {
			if lower(b[i]) == c0 && lower(b[i+1]) == c1 {
				return i
			}
		}
		return -1
	}
	for n := 0; n < 5000; n++ {
		b := make([]byte, rng.Intn(200))
		for i := range b {
			b[i] = alpha[rng.Intn(len(alpha))]
		}
		for _, p := range [][2]byte{{'k', 'u'}, {'@', 'k'}, {'[', 'u'}, {0xe4, 'k'}} {
			want := naive(b, p[0], p[1])
			if got := indexPairOr(b, p[0], caseBit(p[0]), p[1], caseBit(p[1])); got != want {
				t.Fatalf("indexPairOr(%q, %q) = %d, want %d", b, p, got, want)
			}
			if got := indexPairOrSWAR(b, p[0], caseBit(p[0]), p[1], caseBit(p[1])); got != want {
				t.Fatalf("indexPairOrSWAR(%q, %q) = %d, want %d", b, p, got, want)
			}
		}
	}
}

// TestNextFindsTheFirstOccurrence: next (rare byte, switching to the pair
// scan when that byte is common, or the folded pair) finds exactly the
// first occurrence of the run, on texts made of the run's own letters so
// that the rare byte is everywhere.
func TestNextFindsTheFirstOccurrence(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for _, lit := range []string{"bench session 3000432", "kubernetes", "ab", "abcabd"} {
		for _, fold := range []bool{false, true} {
			p := newPrefilter(lit, fold, false)
			alpha := []byte(lit + strings.ToUpper(lit) + "xyz")
			for n := 0; n < 300; n++ {
				b := make([]byte, rng.Intn(3000))
				for i := range b {
					b[i] = alpha[rng.Intn(len(alpha))]
				}
				if rng.Intn(2) == 0 && len(b) > len(lit) {
					at := rng.Intn(len(b) - len(lit))
					copy(b[at:], lit)
				}
				want := bytes.Index(b, []byte(lit))
				if fold {
					want = bytes.Index(bytes.ToLower(b), []byte(strings.ToLower(lit)))
				}
				for _, from := range []int{0, 1, 7} {
					w := want
					if w >= 0 && w < from {
						w = -1
						if fold {
							if i := bytes.Index(bytes.ToLower(b[from:]), []byte(strings.ToLower(lit))); i >= 0 {
								w = from + i
							}
						} else if i := bytes.Index(b[from:], []byte(lit)); i >= 0 {
							w = from + i
						}
					}
					if from > len(b) {
						continue
					}
					if got := p.next(b, from); got != w {
						t.Fatalf("%q fold=%v from %d: next = %d, want %d in %q", lit, fold, from, got, w, b)
					}
				}
			}
		}
	}
}
