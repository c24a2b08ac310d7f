package search

import (
	"io"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// Dirs.OpenStat answers as os.Stat does (the FileInfo's every method), and
// the file it opens, like Dirs.open's, reads the same bytes as os.ReadFile,
// for a regular file, a link to it, a folder, a FIFO (not opened, and not
// waited on for a writer), a missing file and files with set mode bits.
func TestDirsStatIsOSStat(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	reg := filepath.Join(sub, "a.jsonl")
	if err := os.WriteFile(reg, []byte("{\"type\":\"session\"}\nsecond line\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	odd := filepath.Join(sub, "b.jsonl")
	if err := os.WriteFile(odd, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(odd, 0o600|os.ModeSetgid|os.ModeSticky); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.jsonl")
	if err := os.Symlink(reg, link); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(sub, "fifo.jsonl")
	if err := mkfifo(fifo); err != nil {
		t.Logf("no FIFO: %v", err)
		fifo = reg
	}
	d := NewDirs()
	defer d.Close()
	for _, p := range []string{reg, odd, link, sub, fifo, filepath.Join(sub, "missing.jsonl"), filepath.Join(dir, "nodir", "x.jsonl"), "relative-missing.jsonl"} {
		want, werr := os.Stat(p)
		opened, got, gerr := d.OpenStat(p)
		if (werr == nil) != (gerr == nil) {
			t.Fatalf("%s: error %v, os.Stat %v", p, gerr, werr)
		}
		if werr != nil {
			if gerr.Error() != werr.Error() {
				t.Errorf("%s: error %q, os.Stat %q", p, gerr, werr)
			}
			continue
		}
		if got.Name() != want.Name() || got.Size() != want.Size() || got.Mode() != want.Mode() ||
			!got.ModTime().Equal(want.ModTime()) || got.ModTime() != want.ModTime() || got.IsDir() != want.IsDir() ||
			!reflect.DeepEqual(got.Sys(), want.Sys()) {
			t.Errorf("%s: %v %d %v %v %v, os.Stat %v %d %v %v %v", p, got.Name(), got.Size(), got.Mode(), got.ModTime(), got.IsDir(),
				want.Name(), want.Size(), want.Mode(), want.ModTime(), want.IsDir())
		}
		if !want.Mode().IsRegular() {
			if opened != nil {
				opened.Close()
				t.Errorf("%s: opened, not a regular file", p)
			}
			continue
		}
		if opened == nil {
			t.Fatalf("%s: not opened", p)
		}
		wb, _ := os.ReadFile(p)
		for _, open := range []func() (io.ReadCloser, error){
			func() (io.ReadCloser, error) { return opened.take(), nil },
			func() (io.ReadCloser, error) { return d.open(p) },
		} {
			f, err := open()
			if err != nil {
				t.Fatal(err)
			}
			b, err := io.ReadAll(f)
			f.Close()
			if err != nil || string(b) != string(wb) {
				t.Errorf("%s: read %q (%v), os.ReadFile %q", p, b, err, wb)
			}
		}
	}
	if _, err := d.open(filepath.Join(sub, "missing.jsonl")); err == nil || !os.IsNotExist(err) {
		t.Errorf("open of a missing file: %v", err)
	}
}
