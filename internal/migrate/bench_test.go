package migrate

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

func BenchmarkLinesV1(b *testing.B) {
	var buf bytes.Buffer
	buf.WriteString(`{"type":"session","id":"big","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/x"}` + "\n")
	for i := range 10000 {
		fmt.Fprintf(&buf, `{"type":"message","timestamp":"2025-01-01T00:00:01.000Z","message":{"role":"user","content":"msg %d %s"}}`+"\n", i, strings.Repeat("p", 300))
	}
	lines := splitLines(buf.Bytes())
	b.SetBytes(int64(buf.Len()))
	b.ResetTimer()
	for range b.N {
		if _, _, err := Lines(lines, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
