package jsonl

// Per-core throughput of the validating scan on a real file (docs/benchmarks.md
// section 1, "Per-core throughput on the 1 GiB pi session"). The input is
// named by SESSCTL_BENCH_FILE (skipped when unset); at most
// SESSCTL_BENCH_BYTES bytes of it (default 256 MiB, cut at a line boundary)
// are loaded into memory once, so that no benchmark reads the disk:
//
//	go test -c -o /tmp/jsonl.test ./internal/jsonl
//	SESSCTL_BENCH_FILE=/tmp/sessctl-bench-data/pi-1GB.jsonl /tmp/jsonl.test \
//	  -test.run='^$' -test.bench=ScanFile -test.benchtime=3x -test.count=3 -test.cpu=1
//
// Every sub-benchmark makes one pass over every line and reports MB/cpu-s
// (bytes per second of process CPU time, user + system, GC included).

import (
	"bytes"
	"encoding/json"
	"os"
	"strconv"
	"sync"
	"testing"

	"github.com/valyala/fastjson"
)

var (
	benchFileOnce  sync.Once
	benchFileData  []byte
	benchFileLines [][]byte
	benchFileErr   error
)

func loadBenchFile(b *testing.B) ([]byte, [][]byte) {
	if os.Getenv("SESSCTL_BENCH_FILE") == "" {
		b.Skip("SESSCTL_BENCH_FILE not set")
	}
	all, lines := loadBenchFileOpt()
	if benchFileErr != nil {
		b.Fatal(benchFileErr)
	}
	return all, lines
}

// loadBenchFileOpt loads SESSCTL_BENCH_FILE once (nil when unset).
func loadBenchFileOpt() ([]byte, [][]byte) {
	path := os.Getenv("SESSCTL_BENCH_FILE")
	if path == "" {
		return nil, nil
	}
	benchFileOnce.Do(func() {
		limit := 256 << 20
		if s := os.Getenv("SESSCTL_BENCH_BYTES"); s != "" {
			if n, err := strconv.Atoi(s); err == nil && n > 0 {
				limit = n
			}
		}
		f, err := os.Open(path)
		if err != nil {
			benchFileErr = err
			return
		}
		defer f.Close()
		buf := make([]byte, limit)
		n, _ := f.ReadAt(buf, 0)
		buf = buf[:n]
		if i := bytes.LastIndexByte(buf, '\n'); i >= 0 {
			buf = buf[:i+1]
		}
		benchFileData = buf
		for len(buf) > 0 {
			i := bytes.IndexByte(buf, '\n')
			benchFileLines = append(benchFileLines, buf[:i])
			buf = buf[i+1:]
		}
	})
	return benchFileData, benchFileLines
}

// piCapture is the pi index's capture (format/pi's captured).
var piCapture = &Capture{Top: []string{"type", "id", "parentId", "message"}, Sub: "message", SubKeys: []string{"role"}}

func BenchmarkScanFile(b *testing.B) {
	all, lines := loadBenchFile(b)
	run := func(name string, fn func()) {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(all)))
			cpu0, n := processCPU(), 0
			for b.Loop() {
				fn()
				n++
			}
			if cpu := processCPU() - cpu0; cpu > 0 {
				b.ReportMetric(float64(len(all))*float64(n)/cpu/1e6, "MB/cpu-s")
			}
		})
	}
	run("wc-l", func() { sinkInt += bytes.Count(all, []byte{'\n'}) })
	s := NewScanner(piCapture)
	run("jsonl-scanner", func() {
		for _, l := range lines {
			if s.Scan(l) {
				sinkInt++
			}
		}
	})
	run("jsonl-parallel-1worker", func() {
		_ = ReadParallel(bytes.NewReader(all), ParallelOptions{Capture: piCapture, Workers: 1}, func(bt *Batch) error {
			sinkInt += len(bt.Records)
			return nil
		})
	})
	run("fastjson-validate", func() {
		for _, l := range lines {
			if fastjson.ValidateBytes(l) == nil {
				sinkInt++
			}
		}
	})
	var p fastjson.Parser
	run("fastjson-parse", func() {
		for _, l := range lines {
			if _, err := p.ParseBytes(l); err == nil {
				sinkInt++
			}
		}
	})
	run("std-valid", func() {
		for _, l := range lines {
			if json.Valid(l) {
				sinkInt++
			}
		}
	})
	run("std-unmarshal-3fields", func() {
		for _, l := range lines {
			var f fields3
			if json.Unmarshal(l, &f) == nil {
				sinkInt += len(f.ID)
			}
		}
	})
}

// BenchmarkScanFileStr is the validating scanner alone on the same input, for
// iterating on the string scan.
func BenchmarkScanFileStr(b *testing.B) {
	all, lines := loadBenchFile(b)
	s := NewScanner(piCapture)
	b.SetBytes(int64(len(all)))
	cpu0, n := processCPU(), 0
	for b.Loop() {
		for _, l := range lines {
			if s.Scan(l) {
				sinkInt++
			}
		}
		n++
	}
	if cpu := processCPU() - cpu0; cpu > 0 {
		b.ReportMetric(float64(len(all))*float64(n)/cpu/1e6, "MB/cpu-s")
	}
}
