package export

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/sessctl/sessctl/internal/cmdutil/cmdtest"
)

// TestTrimWriter: what trimWriter passes on is bytes.TrimSpace of what it
// is given (for texts whose ends are ASCII white space), in any chunking.
func TestTrimWriter(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	parts := []string{" ", "\n", "\t", "\r", "\v", "\f", "  \n", "{", "}", `"a b"`, "x", "é"}
	for k := 0; k < 2000; k++ {
		var b strings.Builder
		for n := r.IntN(30); n > 0; n-- {
			b.WriteString(parts[r.IntN(len(parts))])
		}
		s := b.String()
		var out bytes.Buffer
		tw := &trimWriter{w: &out}
		for rest := s; len(rest) > 0; {
			c := 1 + r.IntN(len(rest))
			if n, err := tw.Write([]byte(rest[:c])); n != c || err != nil {
				t.Fatalf("Write: %d, %v", n, err)
			}
			rest = rest[c:]
		}
		if want := bytes.TrimSpace([]byte(s)); !bytes.Equal(out.Bytes(), want) {
			t.Fatalf("%q: %q, want %q", s, out.String(), want)
		}
	}
	// a long run of white space inside is held as a count
	var out bytes.Buffer
	tw := &trimWriter{w: &out}
	tw.Write([]byte("{" + strings.Repeat(" ", 100000)))
	if len(tw.pending) != 1 || out.Len() != 1 {
		t.Fatalf("pending %v, written %d", tw.pending, out.Len())
	}
	tw.Write([]byte("}\n"))
	if out.Len() != 100002 {
		t.Fatalf("written %d", out.Len())
	}
}

// longPi writes a pi session whose first message is one line of size bytes.
func longPi(t *testing.T, size int) string {
	p := filepath.Join(t.TempDir(), "2026-01-01T00-00-00-000Z_s1.jsonl")
	fh, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(fh, 1<<20)
	w.WriteString(`{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00Z","cwd":"/x"}` + "\n")
	w.WriteString(`{"type":"message","id":"a1","parentId":null,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"user","content":"`)
	chunk := strings.Repeat("abcdefghij", 400) + `\n\t\"é\u00e9\ud83d\ude00 <x>`
	for k := 0; k < size; k += len(chunk) {
		w.WriteString(chunk)
	}
	w.WriteString(`","timestamp":1}}` + "\n")
	w.WriteString(`{"type":"message","id":"a2","parentId":"a1","timestamp":"2026-01-01T00:00:02Z","message":{"role":"assistant","content":[{"type":"text","text":"ok"}],"provider":"p","model":"m","timestamp":2}}` + "\n")
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	fh.Close()
	return p
}

// TestLongLineExportFileNotHeld: export -o FILE of a session whose first
// message is one 64 MiB line, in markdown, html and json, writes the file
// as the export is made: the command allocates far less than the line
// (before: the whole export was held in a buffer and written at the end,
// and json held show's object twice), and the file is what stdout gets.
func TestLongLineExportFileNotHeld(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 64 MiB file")
	}
	const size = 64 << 20
	p := longPi(t, size)
	dir := t.TempDir()
	for _, format := range []string{"markdown", "html", "json"} {
		out := filepath.Join(dir, "out."+format)
		f, st := cmdtest.Factory(t, nil)
		var a0, a1 runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&a0)
		if _, _, err := cmdtest.Exec(NewCmd(f, nil), st, "--format", format, "-o", out, p); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&a1)
		a := a1.TotalAlloc - a0.TotalAlloc
		fi, err := os.Stat(out)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: allocated %.1f MiB, wrote %.1f MiB", format, float64(a)/(1<<20), float64(fi.Size())/(1<<20))
		if fi.Size() < size/2 {
			t.Fatalf("%s: %d bytes written", format, fi.Size())
		}
		// The session's title (list's scanner, format/pi) allocates
		// about 38 MiB of its own here; the export adds a few MiB.
		if a > 56<<20 {
			t.Errorf("%s: export -o allocated %.1f MiB: it holds the line", format, float64(a)/(1<<20))
		}
		f, st = cmdtest.Factory(t, nil)
		stdout, _, err := cmdtest.Exec(NewCmd(f, nil), st, "--format", format, p)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(out)
		if sha256.Sum256(b) != sha256.Sum256([]byte(stdout)) {
			t.Fatalf("%s: the file differs from stdout", format)
		}
		if format == "json" && (bytes.HasPrefix(b, []byte(" ")) || !bytes.HasSuffix(b, []byte("}\n"))) {
			t.Fatalf("json: %.40q … %q", b, b[len(b)-10:])
		}
	}
}

// TestFailedExportCreatesNothing: an export that fails leaves no file and
// no temp file behind.
func TestFailedExportCreatesNothing(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.md")
	f, st := cmdtest.Factory(t, nil)
	if _, _, err := cmdtest.Exec(NewCmd(f, nil), st, "-o", out, filepath.Join(dir, "missing.jsonl")); err == nil {
		t.Fatal("no error for a missing session")
	}
	// a Claude Code session cannot be written as pi lines
	p := cmdtest.Testdata(t, "claude", "shapes", "bom.jsonl")
	f, st = cmdtest.Factory(t, nil)
	if _, _, err := cmdtest.Exec(NewCmd(f, nil), st, "--format", "pi", "-o", out, p); err == nil {
		t.Fatal("no error for --format pi of a Claude Code session")
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 0 {
		t.Fatalf("left behind: %v", ents)
	}
}
