package formats

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzSniff: any content is either refused as no session or named by one
// format, never a panic; a pi-family header line first makes it pi.
func FuzzSniff(f *testing.F) {
	f.Add([]byte(lines(piHeader, piEntry)))
	f.Add([]byte(lines(claudeRec, piEntry)))
	f.Add([]byte(lines(acEntry, "{", `{"type":"user","id":"x","timestamp":"1"}`)))
	f.Add([]byte("\xef\xbb\xbf" + lines(piHeader)))
	f.Add([]byte{0, 0, 0, '\n', '{', '}'})
	r := New(nil)
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, content []byte) {
		p := filepath.Join(dir, "s.jsonl")
		if err := os.WriteFile(p, content, 0o600); err != nil {
			t.Fatal(err)
		}
		if ref, err := r.SniffFile(p); err == nil {
			switch ref.Format {
			case "pi", "claude", "agentcore":
			default:
				t.Fatalf("sniffed as %q", ref.Format)
			}
		}
		if err := os.WriteFile(p, append([]byte(piHeader+"\n"), content...), 0o600); err != nil {
			t.Fatal(err)
		}
		ref, err := r.SniffFile(p)
		if err != nil || ref.Format != "pi" {
			t.Fatalf("a file starting with a pi header: %q, %v", ref.Format, err)
		}
	})
}
