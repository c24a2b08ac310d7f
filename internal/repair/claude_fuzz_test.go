package repair

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzClaudeRepair: any input repairs without error, check then finds no
// error, and a second repair changes nothing.
func FuzzClaudeRepair(f *testing.F) {
	files, _ := filepath.Glob("../../testdata/claude/shapes/*.jsonl")
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil && len(b) < 8<<10 {
			f.Add(b)
		}
	}
	f.Add([]byte("{\"parentUuid\":\"a\",\"type\":\"user\",\"uuid\":\"a\"}\n{\"parentUuid\":null,\"type\":\"progress\",\"uuid\":\"a\"}\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		dir := t.TempDir()
		p := filepath.Join(dir, "s.jsonl")
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := Claude(p, Options{NoBackup: true}); err != nil {
			t.Fatalf("repair failed: %v\n%q", err, b)
		}
		if errs := claudeErrors(t, p); len(errs) > 0 {
			t.Fatalf("errors left: %v", errs)
		}
		again, err := Claude(p, Options{NoBackup: true})
		if err != nil || again.Changed {
			out, _ := os.ReadFile(p)
			t.Fatalf("second repair: err %v, fixes %+v\n%q\n->\n%q", err, again, b, out)
		}
	})
}
