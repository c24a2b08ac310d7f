package blob

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestScanFileSplitSameAsSerial: a file scanned in ranges reports exactly
// the references (each occurrence once) that the serial scan reports, for
// a reference, a reference followed by a 65th digit, and a truncated one
// starting at every offset around every range boundary and at the end of
// the file, for 2 to 7 ranges.
func TestScanFileSplitSameAsSerial(t *testing.T) {
	defer func(v int64) { splitMinBytes = v }(splitMinBytes)
	splitMinBytes = 1
	dir := t.TempDir()
	hexOf := func(n int) string { return fmt.Sprintf("%064x", n*7919+1) }
	serial := func(p string) []string {
		var out []string
		if _, err := scanFileBuf(p, make([]byte, scanBufSize), func(h Hash) { out = append(out, string(h[:])) }); err != nil {
			t.Fatal(err)
		}
		slices.Sort(out)
		return out
	}
	cases, refs := 0, 0
	rng := rand.New(rand.NewPCG(1, 2))
	const filler = "0123456789abcdef0123456789abcdef0123456789abcdef\"x"
	for _, parts := range []int{2, 3, 4, 7} {
		const step = 600
		size := parts*step + parts - 1 // size/parts == step
		var bounds []int
		for k := 1; k < parts; k++ {
			bounds = append(bounds, k*step)
		}
		bounds = append(bounds, size) // the end of the file
		for _, b := range bounds {
			for d := -RefLen - 3; d <= 3; d++ {
				for variant, tail := range []string{`"`, `a"`, ``} {
					at := b + d
					ref := RefPrefix + hexOf(at) + tail
					if variant == 2 {
						ref = RefPrefix + hexOf(at)[:40] // truncated: never a reference
					}
					if at < 0 || at+len(ref) > size {
						continue
					}
					// filler: digit runs with a few other bytes, so split
					// points move by various distances
					data := make([]byte, size)
					for i := range data {
						data[i] = filler[rng.IntN(len(filler))]
					}
					copy(data[at:], ref)
					// another reference well inside each range
					for k := 0; k < parts; k++ {
						if p := k*step + 200; p+RefLen+1 < at || p > at+len(ref) {
							copy(data[p:], RefPrefix+hexOf(p)+"\n")
						}
					}
					p := filepath.Join(dir, fmt.Sprintf("f-%d-%d-%d-%d.jsonl", parts, b, d+RefLen+3, variant))
					if err := os.WriteFile(p, data, 0o644); err != nil {
						t.Fatal(err)
					}
					want := serial(p)
					var got []string
					_, split, err := scanFileSplit(p, parts, func(h Hash) { got = append(got, string(h[:])) })
					if err != nil || !split {
						t.Fatalf("%s: split %v, %v", p, split, err)
					}
					slices.Sort(got)
					if !slices.Equal(got, want) {
						t.Fatalf("%s (ref at %d, boundary %d, %d ranges): split found %d refs, serial %d", p, at, b, parts, len(got), len(want))
					}
					cases++
					refs += len(want)
					os.Remove(p)
				}
			}
		}
	}
	if cases < 500 || refs < cases {
		t.Fatalf("only %d cases, %d references", cases, refs)
	}
	t.Logf("%d files, %d references found by both", cases, refs)
}

// TestScanFileSplitNotForGzip: gzip files and small files are left to the
// serial scan.
func TestScanFileSplitNotForGzip(t *testing.T) {
	defer func(v int64) { splitMinBytes = v }(splitMinBytes)
	splitMinBytes = 1
	p := filepath.Join(t.TempDir(), "a.jsonl.gz")
	if err := os.WriteFile(p, append([]byte{0x1f, 0x8b}, bytes.Repeat([]byte("x"), 1000)...), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, split, _ := scanFileSplit(p, 4, func(Hash) {}); split {
		t.Fatal("a gzip file was split")
	}
	splitMinBytes = 1 << 20
	if _, split, _ := scanFileSplit(p, 4, func(Hash) {}); split {
		t.Fatal("a small file was split")
	}
}
