package search

import "testing"

// naivePairOr is the definition indexPairOr implements: the first i with
// b[i]|o0 == c0 and b[i+1]|o1 == c1, or -1.
func naivePairOr(b []byte, c0, o0, c1, o1 byte) int {
	for i := 0; i+1 < len(b); i++ {
		if b[i]|o0 == c0 && b[i+1]|o1 == c1 {
			return i
		}
	}
	return -1
}

// FuzzIndexPairOr holds the dispatching scan (AVX2 assembly on amd64
// processors that have it) and the portable word-at-a-time scan equal to
// the byte loop for any text, pair and fold bits, at every start offset
// within one vector step, so reads near the end of the slice and hits in the
// last window of a step are covered.
func FuzzIndexPairOr(f *testing.F) {
	f.Add([]byte(`0123456789abcdef0123456789abcdef\u`), byte('\\'), byte(0), byte('u'), byte(0))
	f.Add([]byte(`xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxKu`), byte('k'), byte(0x20), byte('u'), byte(0x20))
	f.Add([]byte{0xff, 0xff, 0, 0x80}, byte(0xff), byte(0), byte(0xff), byte(0))
	f.Fuzz(func(t *testing.T, b []byte, c0, o0, c1, o1 byte) {
		for off := 0; off <= len(b) && off < 34; off++ {
			s := b[off:len(b):len(b)]
			want := naivePairOr(s, c0, o0, c1, o1)
			if got := indexPairOr(s, c0, o0, c1, o1); got != want {
				t.Fatalf("indexPairOr(%q, %#x|%#x, %#x|%#x) = %d, want %d", s, c0, o0, c1, o1, got, want)
			}
			if got := indexPairOrSWAR(s, c0, o0, c1, o1); got != want {
				t.Fatalf("indexPairOrSWAR(%q, %#x|%#x, %#x|%#x) = %d, want %d", s, c0, o0, c1, o1, got, want)
			}
		}
	})
}
