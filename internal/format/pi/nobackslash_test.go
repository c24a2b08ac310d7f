package pi

import (
	"bytes"
	"math/rand/v2"
	"slices"
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

// TestWordIs holds wordIs to string(word(raw)) == w (w not empty) for spelled, escaped,
// shorter, longer and non-string values.
func TestWordIs(t *testing.T) {
	raws := []string{`"toolCall"`, `"tool\u0043all"`, `"toolCal"`, `"toolCalls"`, `"\u0074oolCall"`, `"toolCall\""`,
		`"user"`, `"us\u0065r"`, `"\"user"`, `"usex"`, `""`, `null`, `12`, `"assistant"`, `"message"`, `"m\u0065ssage"`,
		`"compaction"`, `"error"`, `"err\u006fr"`, `"aborted"`, `"toolResult"`, `"toolR\u0065sult"`, `"\\"`, ``}
	words := []string{"toolCall", "user", "assistant", "message", "compaction", "error", "aborted", "toolResult", `\`, `"`}
	for _, r := range raws {
		for _, w := range words {
			raw := []byte(r)
			if got, want := wordIs(raw, w), string(word(raw)) == w; got != want {
				t.Errorf("wordIs(%s, %q) = %v, want %v", r, w, got, want)
			}
		}
	}
}

// TestHashSet holds hashSet.has to slices.Contains over sets with the hash
// 0, repeated hashes and hashes that collide in the table's low bits.
func TestHashSet(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for round := 0; round < 200; round++ {
		n := r.IntN(300)
		ids := make([]uint64, n)
		for k := range ids {
			switch r.IntN(4) {
			case 0:
				ids[k] = uint64(r.IntN(8)) << 40 // same low bits
			case 1:
				ids[k] = uint64(r.IntN(3)) // 0 and neighbours
			default:
				ids[k] = r.Uint64()
			}
		}
		s := newHashSet(ids)
		for k := 0; k < 500; k++ {
			var h uint64
			if n > 0 && k%2 == 0 {
				h = ids[r.IntN(n)]
			} else if k%3 == 0 {
				h = uint64(r.IntN(8)) << 40
			} else {
				h = uint64(r.IntN(4))
			}
			if got, want := s.has(h), slices.Contains(ids, h); got != want {
				t.Fatalf("round %d: has(%#x) = %v, want %v", round, h, got, want)
			}
		}
		s.release()
	}
}
