package discover

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
)

// TestScanBigFilesOneAtATime: with most files over bigFileBytes, a scan
// with several workers (big files one at a time, set aside when another
// is being read) lists the same sessions as one worker, reports progress
// for every file once.
func TestScanBigFilesOneAtATime(t *testing.T) {
	home := t.TempDir()
	root := filepath.Join(home, ".pi", "agent", "sessions", "--p--")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	for n := 0; n < 40; n++ {
		var b strings.Builder
		fmt.Fprintf(&b, `{"type":"session","version":3,"id":"s%d","timestamp":"2026-03-01T00:00:00.000Z","cwd":"/p"}`+"\n", n)
		parent := "null"
		for k := 0; k < n%7*3; k++ {
			fmt.Fprintf(&b, `{"type":"message","id":"m%d","parentId":%s,"timestamp":"2026-03-01T00:00:%02d.000Z","message":{"role":"user","content":"hi %d","timestamp":%d}}`+"\n", k, parent, k, k, 1772323200000+k)
			parent = fmt.Sprintf(`"m%d"`, k)
		}
		if err := os.WriteFile(filepath.Join(root, fmt.Sprintf("2026-03-01T00-00-00-000Z_s%d.jsonl", n)), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	defer func(v int64) { bigFileBytes = v }(bigFileBytes)
	bigFileBytes = 400 // about two thirds of the files

	scan := func(workers int) (*Result, int64) {
		var calls atomic.Int64
		res := Scan(Options{Env: envOf(map[string]string{"HOME": home}), Agents: []string{"pi"}, Workers: workers,
			Progress: func(int, int) { calls.Add(1) }})
		return res, calls.Load()
	}
	one, n1 := scan(1)
	if len(one.Sessions) != 40 || n1 != 40 {
		t.Fatalf("one worker: %d sessions, %d progress calls", len(one.Sessions), n1)
	}
	for _, w := range []int{2, 3, 8} {
		many, n := scan(w)
		if n != 40 {
			t.Errorf("%d workers: %d progress calls", w, n)
		}
		if !reflect.DeepEqual(one.Sessions, many.Sessions) {
			t.Errorf("%d workers: sessions differ from one worker's", w)
		}
	}
}
