package pi

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/sessctl/sessctl/internal/blob"
)

// TestScanBlobRefsAcrossChunks finds every exact reference wherever the
// reads cut the input, and no inexact one.
func TestScanBlobRefsAcrossChunks(t *testing.T) {
	h1 := strings.Repeat("a", 64)
	h2 := strings.Repeat("0123456789abcdef", 4)
	var b strings.Builder
	b.WriteString(`{"x":"blob:sha256:` + h1 + `"}` + "\n")
	b.WriteString(strings.Repeat("z", 70000)) // past the first chunk
	b.WriteString(`blob:sha256:` + h2 + "\n")
	b.WriteString(`blob:sha256:` + strings.ToUpper(h1) + "\n") // not exact: upper case
	b.WriteString(`blob:sha256:` + h1[:63] + "\n")             // not exact: short
	data := b.String()
	for _, r := range []io.Reader{strings.NewReader(data), iotest.OneByteReader(strings.NewReader(data)), iotest.HalfReader(strings.NewReader(data))} {
		var got []string
		if err := scanBlobRefs(r, func(h blob.Hash) { got = append(got, h.String()) }); err != nil {
			t.Fatal(err)
		}
		if strings.Join(got, ",") != h1+","+h2 {
			t.Errorf("got %v", got)
		}
	}
	// a reference cut at every position of a 65536-byte chunk boundary
	for cut := 1; cut < len(blob.RefPrefix)+64; cut++ {
		pad := bytes.Repeat([]byte{'z'}, 1<<16-cut)
		in := append(pad, []byte("blob:sha256:"+h2)...)
		n := 0
		if err := scanBlobRefs(bytes.NewReader(in), func(blob.Hash) { n++ }); err != nil {
			t.Fatal(err)
		}
		if n != 1 {
			t.Fatalf("cut %d: %d refs", cut, n)
		}
	}
}
