package tree

import (
	"fmt"
	"testing"
)

// benchIDs returns n pi-like ids (8 hex digits, unique, in no hash order).
func benchIDs(n int) []string {
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("%08x", uint32(i)*2654435761)
	}
	return ids
}

// BenchmarkAdd indexes a chain of n entries with 8-character ids, the
// table sized up front (hint) or grown from empty (grow), and finishes.
func BenchmarkAdd(b *testing.B) {
	const n = 1 << 20
	ids := benchIDs(n)
	for _, c := range []struct {
		name string
		hint int
	}{{"hint", n}, {"grow", 0}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				x := New(LastWins, c.hint)
				for i, id := range ids {
					p := ""
					if i > 0 {
						p = ids[i-1]
					}
					x.Add(Node{ID: id, Parent: p, Line: int32(i + 1)})
				}
				x.Finish()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/entry")
		})
	}
}
