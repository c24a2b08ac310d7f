package claude

import (
	"os"
	"testing"
)

// BenchmarkOpen indexes $CLAUDE_BENCH_FILE (e.g. a file written by
// go run ./bench/claudegen -size 1GB -out /tmp/claude-1GB.jsonl).
func BenchmarkOpen(b *testing.B) {
	p := os.Getenv("CLAUDE_BENCH_FILE")
	if p == "" {
		b.Skip("CLAUDE_BENCH_FILE not set")
	}
	st, err := os.Stat(p)
	if err != nil {
		b.Skip(err)
	}
	b.SetBytes(st.Size())
	for i := 0; i < b.N; i++ {
		f, err := Open(p)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := f.Leaf(LeafLastPrompt); err != nil {
			b.Fatal(err)
		}
		f.Close()
	}
}
