package fsx

import (
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// A file open for reading with OpenRead can be replaced by Replace (as
// safewrite does while its caller still reads the old file); the open
// handle keeps reading the old content. Where Windows cannot give POSIX
// rename semantics the replace must fail and change nothing.
func TestReplaceWhileOpen(t *testing.T) {
	dir := t.TempDir()
	target, tmp := filepath.Join(dir, "s.jsonl"), filepath.Join(dir, ".s.jsonl.tmp")
	write(t, target, "old")
	write(t, tmp, "new")
	f, err := OpenRead(target)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := Replace(tmp, target); err != nil {
		if runtime.GOOS == "windows" {
			if got := content(t, target); got != "old" {
				t.Fatalf("a failed replace changed the target: %q", got)
			}
			t.Skipf("no POSIX rename semantics here (older Windows, FAT, Wine): the replace failed closed: %v", err)
		}
		t.Fatal(err)
	}
	if got := content(t, target); got != "new" {
		t.Errorf("target holds %q after Replace", got)
	}
	old, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	if string(old) != "old" {
		t.Errorf("the open handle reads %q, want the old content", old)
	}
	if _, err := os.Lstat(tmp); !os.IsNotExist(err) {
		t.Errorf("temp name still there: %v", err)
	}
}
