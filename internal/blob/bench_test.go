package blob

import (
	"bytes"
	"context"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessctl/sessctl/internal/blob/blobbench"
)

// BenchmarkMark times the whole mark phase (walk, open, scan, merge) with one
// and two workers over ~256 MiB of session files with many refs. For the 5 GB
// comparison with grep, run bench/blob-mark.sh. The files are generated in
// b.TempDir (under the system temp dir, normally /tmp) and removed
// afterwards.
func BenchmarkMark(b *testing.B) {
	dir := b.TempDir()
	benchStats, err := blobbench.Generate(dir, 256<<20, 7)
	if err != nil {
		b.Fatal(err)
	}
	for _, w := range []int{1, 2} {
		b.Run(map[int]string{1: "workers=1", 2: "workers=2"}[w], func(b *testing.B) {
			b.SetBytes(benchStats.Bytes)
			for i := 0; i < b.N; i++ {
				m, err := Mark(context.Background(), Source{Roots: []string{dir}}, w)
				if err != nil || len(m.Errors()) > 0 || m.NumFiles() != benchStats.Files {
					b.Fatalf("mark: %v %v files %d/%d", err, m.Errors(), m.NumFiles(), benchStats.Files)
				}
			}
		})
	}
}

// BenchmarkScan times the in-memory scanner alone.
func BenchmarkScan(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	var pool []Hash
	for i := 0; i < 1000; i++ {
		var h Hash
		for j := range h {
			h[j] = byte(r.Uint32())
		}
		pool = append(pool, h)
	}
	in := randomSession(r, 64<<20, pool)
	b.SetBytes(int64(len(in)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		n := 0
		if err := Scan(bytes.NewReader(in), func(Hash) { n++ }); err != nil || n == 0 {
			b.Fatal(err, n)
		}
	}
}

// BenchmarkScanCorpus times the scanner on real public session text (the
// shared corpus next to the repository, repeated to 64 MiB in memory). It
// is skipped when the corpus is absent.
func BenchmarkScanCorpus(b *testing.B) {
	root := filepath.Join("..", "..", "..", "shared", "corpus")
	var text []byte
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && strings.Contains(d.Name(), ".jsonl") {
			if data, err := os.ReadFile(p); err == nil {
				text = append(text, data...)
			}
		}
		return nil
	})
	if len(text) == 0 {
		b.Skip("shared corpus not present at " + root)
	}
	in := bytes.Repeat(text, 64<<20/len(text)+1)
	b.SetBytes(int64(len(in)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := Scan(bytes.NewReader(in), func(Hash) {}); err != nil {
			b.Fatal(err)
		}
	}
}
