//go:build amd64 && !purego

package jsonl

import (
	"encoding/json"
	"testing"
)

// TestScanWithoutAVX2 runs the scans as on an amd64 processor without AVX2
// (hasAVX2 false: scanStringLong falls back to the portable scan), on the
// random strings of TestScanStringRandom and on whole lines, against
// encoding/json.
func TestScanWithoutAVX2(t *testing.T) {
	if !hasAVX2 {
		t.Skip("this processor has no AVX2: every other test already runs the fallback")
	}
	hasAVX2 = false
	defer func() { hasAVX2 = true }()
	TestScanStringRandom(t)
	s := NewScanner(fuzzCapture)
	for _, l := range getCorpusN("pi", 1<<20).lines {
		if got, want := s.Scan(l), json.Valid(l); got != want {
			t.Fatalf("Scan(%q) = %v, json.Valid = %v", l, got, want)
		}
	}
}
