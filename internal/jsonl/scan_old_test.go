package jsonl

import (
	"bytes"
	"testing"
)

// BenchmarkScannerOldNew runs the Scanner of 31833fa (head: the portable
// string scan, kept in scan_head_test.go) and the current one over the
// same input in one binary (the figures of the older 798701b Scanner in
// docs/benchmarks.md were measured with this benchmark at 8cf26e8, which
// still kept that copy) (SESSCTL_BENCH_FILE, as
// BenchmarkScanFile, and the in-memory pi corpus of BenchmarkExtract):
//
//	SESSCTL_BENCH_FILE=/tmp/sessctl-bench-data/pi-1GB.jsonl go test -run='^$' \
//	  -bench=ScannerOldNew -benchtime=5x -count=5 -cpu=1 ./internal/jsonl
func BenchmarkScannerOldNew(b *testing.B) {
	inputs := map[string][][]byte{"corpus-pi": getCorpus("pi").lines}
	if _, lines := loadBenchFileOpt(); lines != nil {
		inputs["file"] = lines
	}
	for _, name := range []string{"file", "corpus-pi"} {
		lines, ok := inputs[name]
		if !ok {
			continue
		}
		n := 0
		for _, l := range lines {
			n += len(l) + 1
		}
		head, cur := newHeadScanner(piCapture), NewScanner(piCapture)
		for _, impl := range []string{"head", "new"} {
			b.Run(name+"/"+impl, func(b *testing.B) {
				b.SetBytes(int64(n))
				cpu0, runs := processCPU(), 0
				for b.Loop() {
					switch impl {
					case "head":
						for _, l := range lines {
							if head.Scan(l) {
								sinkInt++
							}
						}
					default:
						for _, l := range lines {
							if cur.Scan(l) {
								sinkInt++
							}
						}
					}
					runs++
				}
				if cpu := processCPU() - cpu0; cpu > 0 {
					b.ReportMetric(float64(n)*float64(runs)/cpu/1e6, "MB/cpu-s")
				}
			})
		}
	}
}

// TestOldScannerAgrees checks that the kept head Scanner and the new one
// give the same verdicts and captures on the pi corpus, so that the
// benchmark compares like with like.
func TestOldScannerAgrees(t *testing.T) {
	head, cur := newHeadScanner(piCapture), NewScanner(piCapture)
	for i, l := range getCorpusN("pi", 4<<20).lines {
		h, c := head.Scan(l), cur.Scan(l)
		if h != c {
			t.Fatalf("line %d: head %v, new %v", i, h, c)
		}
		for k := range head.Top {
			if !bytes.Equal(head.Top[k], cur.Top[k]) {
				t.Fatalf("line %d: Top[%d] differs", i, k)
			}
		}
		for k := range head.Sub {
			if !bytes.Equal(head.Sub[k], cur.Sub[k]) {
				t.Fatalf("line %d: Sub[%d] differs", i, k)
			}
		}
	}
}
