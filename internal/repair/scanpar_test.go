package repair

import (
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// scanned runs the planner's scan over path (pi or Claude Code hooks).
func scanned(t *testing.T, path string, claude bool) *planner {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	p := &planner{path: path, res: &Result{}}
	if claude {
		p.fieldsFn, p.gluedRE, p.shapeFn = claudeFields, claudeGlued, isClaudeEntry
	}
	if err := p.scan(fh); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return p
}

// TestScanParallelSameAsSerial: the parallel scan (jsonl.ReadParallel,
// lines parsed on the workers) gives the same lines, rejects and fixes as
// the line-by-line scan, with pi's and Claude Code's hooks, on every .jsonl
// of testdata (and the shared corpus when present), with chunks of 64
// bytes (most lines longer than a chunk: read back), 300 bytes and the
// default, and 1 to 3 workers.
func TestScanParallelSameAsSerial(t *testing.T) {
	var files []string
	roots := []string{"../../testdata"}
	if _, err := os.Stat("../../../shared/corpus"); err == nil {
		roots = append(roots, "../../../shared/corpus")
	}
	for _, root := range roots {
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") {
				files = append(files, p)
			}
			return nil
		})
	}
	if len(files) < 100 {
		t.Fatalf("only %d files", len(files))
	}
	defer func(p int) { serialScan, scanChunkSize = false, 0; runtime.GOMAXPROCS(p) }(runtime.GOMAXPROCS(0))
	n := 0
	for _, path := range files {
		for _, claude := range []bool{false, true} {
			serialScan = true
			want := scanned(t, path, claude)
			serialScan = false
			for k, chunk := range []int{0, 64, 300} {
				runtime.GOMAXPROCS(1 + k%3)
				scanChunkSize = chunk
				got := scanned(t, path, claude)
				if !reflect.DeepEqual(want.lines, got.lines) || !reflect.DeepEqual(want.rejects, got.rejects) ||
					!reflect.DeepEqual(want.res.Fixes, got.res.Fixes) || want.res.Rejected != got.res.Rejected {
					t.Fatalf("%s (claude %v, chunk %d): serial and parallel scans differ:\nlines %d vs %d, rejects %d vs %d, fixes %+v vs %+v",
						path, claude, chunk, len(want.lines), len(got.lines), len(want.rejects), len(got.rejects), want.res.Fixes, got.res.Fixes)
				}
				n++
			}
		}
	}
	t.Logf("%d files, %d comparisons", len(files), n)
}
