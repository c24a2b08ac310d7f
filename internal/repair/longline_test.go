package repair

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/sessctl/sessctl/internal/format/pi"
	"github.com/sessctl/sessctl/internal/memtest"
)

// TestScanElidedSameAsSerial: reading the lines longer than a chunk
// through the Elider (elidedFields) gives the same lines, rejects and
// fixes as the line-by-line scan that holds every line, when every string
// over 8 bytes is left out (ids and types too: those lines are read whole,
// as before), on every .jsonl of testdata and the shared corpus, with pi's
// and Claude Code's hooks.
func TestScanElidedSameAsSerial(t *testing.T) {
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
	defer func() { serialScan, scanChunkSize, elideMin = false, 0, defaultElideMin }()
	for _, path := range files {
		for _, claude := range []bool{false, true} {
			serialScan = true
			want := scanned(t, path, claude)
			serialScan = false
			for _, min := range []int{8, 40} {
				scanChunkSize, elideMin = 64, min
				got := scanned(t, path, claude)
				if !reflect.DeepEqual(want.lines, got.lines) || !reflect.DeepEqual(want.rejects, got.rejects) ||
					!reflect.DeepEqual(want.res.Fixes, got.res.Fixes) || want.res.Rejected != got.res.Rejected {
					t.Fatalf("%s (claude %v, elided over %d bytes): the scans differ:\nlines %d vs %d, rejects %d vs %d, fixes %+v vs %+v",
						path, claude, min, len(want.lines), len(got.lines), len(want.rejects), len(got.rejects), want.res.Fixes, got.res.Fixes)
				}
			}
		}
	}
}

var defaultElideMin = elideMin

// writeLongRepairSession writes a pi session with a 64 MiB user message
// line (CRLF-ended when crlf), a reply and a long last line without a
// newline; when damaged, the reply's parent is missing (an orphan repair
// relinks) and a malformed line follows it (rejected).
func writeLongRepairSession(t *testing.T, dir string, crlf, damaged bool) string {
	p := filepath.Join(dir, "2026-01-01T00-00-00-000Z_s1.jsonl")
	fh, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(fh, 1<<20)
	nl := "\n"
	if crlf {
		nl = "\r\n"
	}
	chunk := strings.Repeat("abcdefghij", 400) + `\n\t\"é\u00e9 `
	long := func(n int) {
		w.WriteString(`"`)
		for k := 0; k < n; k += len(chunk) {
			w.WriteString(chunk)
		}
		w.WriteString(`"`)
	}
	w.WriteString(`{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00Z","cwd":"/x"}` + nl)
	w.WriteString(`{"type":"message","id":"a1","parentId":null,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"user","content":`)
	long(64 << 20)
	w.WriteString(`,"timestamp":1}}` + nl)
	parent := "a1"
	if damaged {
		parent = "gone"
	}
	w.WriteString(`{"type":"message","id":"a2","parentId":"` + parent + `","timestamp":"2026-01-01T00:00:02Z","message":{"role":"assistant","content":[{"type":"text","text":"ok"}],"provider":"p","model":"m","timestamp":2}}` + nl)
	if damaged {
		w.WriteString(`{"type":"message","id":"a3",` + nl)
	}
	w.WriteString(`{"type":"message","id":"a4","parentId":"a2","timestamp":"2026-01-01T00:00:03Z","message":{"role":"user","content":`)
	long(2 << 20)
	w.WriteString(`,"timestamp":3}}`)
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	fh.Close()
	return p
}

// TestLongLineRepairNotHeld: repair --dry-run and repair of a session
// with a 64 MiB line allocate a few MiB (before: the line twice in the
// scan, read back and parsed, and once more in the verifier's re-reading
// of the repaired content), sound or damaged, LF and CRLF; the plan is the
// one the held reading makes, and the repair writes the same bytes as the
// held reading.
func TestLongLineRepairNotHeld(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 66 MiB files")
	}
	for _, crlf := range []bool{false, true} {
		for _, damaged := range []bool{false, true} {
			inRoundDir(t, func(dir string) { longRepairRound(t, dir, crlf, damaged) })
		}
	}
}

// longRepairRound is one round of TestLongLineRepairNotHeld, in dir.
func longRepairRound(t *testing.T, dir string, crlf, damaged bool) {
	now := func() time.Time { return time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC) }
	measure := memtest.Allocated
	p := writeLongRepairSession(t, dir, crlf, damaged)
	var res *Result
	var err error
	alloc := measure(func() { res, err = Pi(p, Options{DryRun: true, Now: now}) })
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("crlf %v damaged %v: dry run allocated %.1f MiB, %d fixes", crlf, damaged, float64(alloc)/(1<<20), len(res.Fixes))
	// Holding the 64 MiB line costs at least twice that (read
	// back, then parsed); the reading machinery's own buffers
	// (jsonl.ReadParallel's chunks) are about 20 MiB of what is left.
	if alloc > 48<<20 {
		t.Errorf("repair --dry-run allocated %.1f MiB: it holds the long line", float64(alloc)/(1<<20))
	}
	if damaged != res.Changed || damaged && len(res.Fixes) < 2 {
		t.Fatalf("fixes %+v", res.Fixes)
	}
	// the held reading: the serial scan reads every line whole
	serialScan = true
	held, err := Pi(p, Options{DryRun: true, Now: now})
	serialScan = false
	if err != nil {
		t.Fatal(err)
	}
	res.Backup, held.Backup = "", "" // named by the clock
	if !reflect.DeepEqual(res, held) {
		t.Fatalf("dry run differs from the held reading:\n%+v\n%+v", res, held)
	}
	if !damaged {
		return
	}
	// the repair, then the held emission of the plan of a copy
	orig, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	p2 := filepath.Join(dir, "copy", filepath.Base(p))
	if err := os.Mkdir(filepath.Dir(p2), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p2, orig, 0o600); err != nil {
		t.Fatal(err)
	}
	orig = nil
	alloc = measure(func() { res, err = Pi(p, Options{NoBackup: true, Now: now}) })
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("crlf %v: repair allocated %.1f MiB", crlf, float64(alloc)/(1<<20))
	if alloc > 48<<20 {
		t.Errorf("repair allocated %.1f MiB: it holds the long line", float64(alloc)/(1<<20))
	}
	got, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	want := heldEmit(t, p2)
	if !bytes.Equal(got, want) {
		t.Fatalf("crlf %v: the repaired file differs from the held emission (%d and %d bytes)", crlf, len(got), len(want))
	}
	if len(got) < 64<<20 || !bytes.HasSuffix(got, []byte("}\n")) {
		t.Fatalf("crlf %v: %d bytes, ends %q", crlf, len(got), got[len(got)-8:])
	}
}

// plan plans the repair of path as Pi does, with the held reading.
func plan(t *testing.T, path string) (*planner, *os.File) {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fh.Close() })
	serialScan = true
	defer func() { serialScan = false }()
	res := &Result{Fixes: []Fix{}}
	src, err := pi.Read(fh, path, pi.Options{Check: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fh.Seek(0, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	before := src.Check(pi.CheckOptions{})
	p := &planner{opts: Options{RebuildHeader: true}, path: path, res: res, src: src, flagged: flaggedLines(before)}
	if err := p.scan(fh); err != nil {
		t.Fatal(err)
	}
	p.ownView = len(res.Fixes) > 0
	if err := p.header(); err != nil {
		t.Skipf("%s: %v", path, err)
	}
	p.duplicates()
	p.relink()
	return p, fh
}

// heldEmit plans the repair of path with the held reading and emits it
// as lineBytes gives each line (the way emit wrote every line before).
func heldEmit(t *testing.T, path string) []byte {
	t.Helper()
	p, fh := plan(t, path)
	var out bytes.Buffer
	for _, v := range p.lines {
		b, err := p.lineBytes(fh, v)
		if err != nil {
			t.Fatal(err)
		}
		if len(v.edits) > 0 {
			if b, err = v.render(b); err != nil {
				t.Fatal(err)
			}
		}
		out.Write(b)
		if v.crlf {
			out.WriteByte('\r')
		}
		out.WriteByte('\n')
	}
	return out.Bytes()
}

// TestPlannedAtEqualsEmit: the repaired content read at any offset
// (plannedAt, the verifier's read-backs) is what emit writes, for the
// planned repair of every pi .jsonl of testdata (lines renamed, relinked,
// salvaged, split, rejected, CRLF, without a last newline), read whole and
// in random pieces.
func TestPlannedAtEqualsEmit(t *testing.T) {
	var files []string
	filepath.WalkDir("../../testdata", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") && !strings.Contains(p, "claude") {
			files = append(files, p)
		}
		return nil
	})
	extra := t.TempDir()
	for k, c := range []string{"{\"type\":\"session\",\"version\":3,\"id\":\"s\",\"timestamp\":\"2026-01-01T00:00:00Z\",\"cwd\":\"/x\"}\r\n{\"type\":\"message\",\"id\":\"a\",\"parentId\":\"zz\",\"timestamp\":\"2026-01-01T00:00:00Z\",\"message\":{\"role\":\"user\",\"content\":\"x\"}}\r",
		"{\"type\":\"session\",\"version\":3,\"id\":\"s\",\"timestamp\":\"2026-01-01T00:00:00Z\",\"cwd\":\"/x\"}\n\n{\"bad\n{\"type\":\"message\",\"id\":\"a\",\"parentId\":\"s\",\"timestamp\":\"2026-01-01T00:00:00Z\",\"message\":{\"role\":\"user\",\"content\":\"x\"}}"} {
		p := filepath.Join(extra, fmt.Sprintf("2026-01-01T00-00-00-000Z_%d.jsonl", k))
		os.WriteFile(p, []byte(c), 0o600)
		files = append(files, p)
	}
	r := rand.New(rand.NewPCG(9, 10))
	checked := 0
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			p, fh := plan(t, path)
			var want bytes.Buffer
			if err := p.emit(&want, fh); err != nil {
				t.Fatal(err)
			}
			fi, _ := fh.Stat()
			at, err := p.plannedContent(fh, fi.Size())
			if err != nil {
				t.Fatal(err)
			}
			got := make([]byte, want.Len()+5)
			n, err := at.ReadAt(got, 0)
			if n != want.Len() || err != io.EOF || !bytes.Equal(got[:n], want.Bytes()) {
				t.Fatalf("read whole: %d bytes (%v), want %d: %q vs %q", n, err, want.Len(), clipb(got[:n]), clipb(want.Bytes()))
			}
			for k := 0; k < 50 && want.Len() > 0; k++ {
				off := r.IntN(want.Len())
				b := make([]byte, 1+r.IntN(want.Len()-off))
				if n, err := at.ReadAt(b, int64(off)); n != len(b) || err != nil || !bytes.Equal(b, want.Bytes()[off:off+len(b)]) {
					t.Fatalf("at %d, %d bytes: %d (%v)", off, len(b), n, err)
				}
			}
			checked++
		})
	}
	if checked < 100 {
		t.Fatalf("only %d files checked", checked)
	}
}

func clipb(b []byte) []byte {
	if len(b) > 200 {
		return b[:200]
	}
	return b
}
