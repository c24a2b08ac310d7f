package fsx

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func write(t *testing.T, p, s string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
}

func content(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// renamers are the implementations a test checks on this OS: the one
// RenameNoReplace uses, and (off Windows) the link+unlink fallback.
func renamers() map[string]func(string, string) error {
	m := map[string]func(string, string) error{"RenameNoReplace": RenameNoReplace}
	addFallback(m)
	return m
}

func TestRenameNoReplaceRefusesExistingFile(t *testing.T) {
	for name, rename := range renamers() {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
			write(t, a, "old")
			write(t, b, "existing")
			err := rename(a, b)
			if !errors.Is(err, fs.ErrExist) {
				t.Fatalf("rename onto an existing file: %v, want an fs.ErrExist error", err)
			}
			if got := content(t, a); got != "old" {
				t.Errorf("source now holds %q", got)
			}
			if got := content(t, b); got != "existing" {
				t.Errorf("destination now holds %q", got)
			}
		})
	}
}

func TestRenameNoReplaceRefusesNonEmptyDir(t *testing.T) {
	for name, rename := range renamers() {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
			for _, d := range []string{a, b} {
				if err := os.Mkdir(d, 0o700); err != nil {
					t.Fatal(err)
				}
				write(t, filepath.Join(d, "f"), filepath.Base(d))
			}
			if err := rename(a, b); !errors.Is(err, fs.ErrExist) {
				t.Fatalf("rename onto a non-empty directory: %v, want an fs.ErrExist error", err)
			}
			if content(t, filepath.Join(a, "f")) != "a" || content(t, filepath.Join(b, "f")) != "b" {
				t.Error("a directory changed")
			}
		})
	}
}

func TestRenameNoReplaceMoves(t *testing.T) {
	for name, rename := range renamers() {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			a, b := filepath.Join(dir, "a"), filepath.Join(dir, "sub", "b")
			write(t, a, "data")
			if err := os.Mkdir(filepath.Dir(b), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := rename(a, b); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Lstat(a); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("source still there: %v", err)
			}
			if got := content(t, b); got != "data" {
				t.Errorf("destination holds %q", got)
			}
			// A directory moves too.
			d, e := filepath.Join(dir, "d"), filepath.Join(dir, "e")
			if err := os.Mkdir(d, 0o700); err != nil {
				t.Fatal(err)
			}
			write(t, filepath.Join(d, "x"), "x")
			if err := rename(d, e); err != nil {
				t.Fatal(err)
			}
			if got := content(t, filepath.Join(e, "x")); got != "x" {
				t.Errorf("moved directory holds %q", got)
			}
		})
	}
}

func TestRenameNoReplaceMissingSource(t *testing.T) {
	for name, rename := range renamers() {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			err := rename(filepath.Join(dir, "nope"), filepath.Join(dir, "b"))
			if !errors.Is(err, fs.ErrNotExist) {
				t.Fatalf("missing source: %v, want fs.ErrNotExist", err)
			}
		})
	}
}

func TestIDOf(t *testing.T) {
	dir := t.TempDir()
	a, b, c := filepath.Join(dir, "a"), filepath.Join(dir, "b"), filepath.Join(dir, "c")
	write(t, a, "a")
	write(t, c, "c")
	if err := os.Link(a, b); err != nil {
		t.Skipf("no hard links here: %v", err)
	}
	id := func(p string) ID {
		t.Helper()
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		v, err := IDOf(p, fi, true)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	ia, ib, ic := id(a), id(b), id(c)
	if ia.Ino == 0 && ia.Dev == 0 {
		t.Fatalf("no identity: %+v", ia)
	}
	if ia.Dev != ib.Dev || ia.Ino != ib.Ino || ia.Nlink != 2 || ib.Nlink != 2 {
		t.Errorf("two names of one file: %+v and %+v, want the same id and 2 links", ia, ib)
	}
	if ic.Ino == ia.Ino && ic.Dev == ia.Dev {
		t.Errorf("two files share an id: %+v", ic)
	}
	f, err := os.Open(a)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fid, err := IDOfFile(f)
	if err != nil {
		t.Fatal(err)
	}
	if fid.Dev != ia.Dev || fid.Ino != ia.Ino {
		t.Errorf("IDOfFile %+v != IDOf %+v", fid, ia)
	}
}

func TestNoFollowRefusesLink(t *testing.T) {
	dir := t.TempDir()
	target, link := filepath.Join(dir, "target"), filepath.Join(dir, "link")
	write(t, target, "secret")
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	f, err := os.OpenFile(link, os.O_RDONLY|NoFollow, 0)
	if err == nil {
		err = CheckNoFollow(f)
		if err == nil {
			f.Close()
		}
	}
	if err == nil {
		t.Fatalf("opening a symbolic link with NoFollow succeeded (%s)", runtime.GOOS)
	}
	// A regular file opens.
	f, err = os.OpenFile(target, os.O_RDONLY|NoFollow, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckNoFollow(f); err != nil {
		t.Fatal(err)
	}
	f.Close()
}
