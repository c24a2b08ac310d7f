package jsonl

import "testing"

// stringStarts returns, for each line, the offsets of its strings' opening
// quotes (keys and values), found by walking the line with the escape
// rule of refString.
func stringStarts(lines [][]byte) [][]int {
	out := make([][]int, len(lines))
	for n, l := range lines {
		for i := 0; i < len(l); i++ {
			if l[i] != '"' {
				continue
			}
			out[n] = append(out[n], i)
			for i++; i < len(l) && l[i] != '"'; i++ {
				if l[i] == '\\' {
					i++
				}
			}
		}
	}
	return out
}

// BenchmarkStringScans runs each string scan alone over every string of
// the input (SESSCTL_BENCH_FILE as BenchmarkScanFile, else the in-memory pi
// corpus of BenchmarkExtract), in one binary:
//
//	SESSCTL_BENCH_FILE=/tmp/sessctl-bench-data/pi-1GB.jsonl go test -run='^$' \
//	  -bench=StringScans -benchtime=3x -count=3 -cpu=1 ./internal/jsonl
//
// swar: scanStringSWAR; avx2: scanStringLong, the assembly scan alone
// (lines of 64 bytes or more; SWAR below); dispatch: scanString (the inline first word, then
// one of the two), as the Scanner uses it.
func BenchmarkStringScans(b *testing.B) {
	_, lines := loadBenchFileOpt()
	if lines == nil {
		lines = getCorpus("pi").lines
	}
	starts := stringStarts(lines)
	n := 0
	for _, l := range lines {
		n += len(l) + 1
	}
	scans := []struct {
		name string
		fn   func([]byte, int) (int, bool, bool)
	}{
		{"swar", scanStringSWAR},
		{"avx2", scanStringLong},
		{"dispatch", scanString},
	}
	for _, s := range scans {
		if s.name == "avx2" && !hasAVX2 {
			continue
		}
		b.Run(s.name, func(b *testing.B) {
			b.SetBytes(int64(n))
			cpu0, runs := processCPU(), 0
			for b.Loop() {
				for k, l := range lines {
					for _, i := range starts[k] {
						if _, _, ok := s.fn(l, i); ok {
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
