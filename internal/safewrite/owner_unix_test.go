//go:build unix

package safewrite

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestLikeGivesOwnerAndMode: a derived file made by root for another
// user's session takes that session's owner, group and mode.
func TestLikeGivesOwnerAndMode(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to chown")
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "s.jsonl")
	write(t, p, "old\n", 0o640)
	if err := os.Chown(p, 1234, 5678); err != nil {
		t.Fatal(err)
	}
	snap, err := Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	check := func(name string) {
		t.Helper()
		fi, err := os.Lstat(name)
		if err != nil {
			t.Fatal(err)
		}
		st := fi.Sys().(*syscall.Stat_t)
		if st.Uid != 1234 || st.Gid != 5678 || fi.Mode().Perm() != 0o640 {
			t.Errorf("%s: %d:%d %v, want 1234:5678 0640", filepath.Base(name), st.Uid, st.Gid, fi.Mode().Perm())
		}
	}
	side := p + ".rejected.jsonl"
	w, err := Create(side, Options{Like: &snap})
	if err != nil {
		t.Fatal(err)
	}
	w.WriteString("rec\n")
	if _, err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	check(side)
	// An existing derived file made root:root 0600 (older sessctl) is
	// rewritten with the session's owner and mode.
	os.Chown(side, 0, 0)
	os.Chmod(side, 0o600)
	w, err = Begin(side, Options{Like: &snap, NoFollow: true, NoBackup: true})
	if err != nil {
		t.Fatal(err)
	}
	w.WriteString("rec\nrec2\n")
	if _, err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	check(side)
	// A copied backup (no hard links) keeps the owner too.
	linkFile = func(string, string) error { return &os.LinkError{Op: "link", Err: syscall.EPERM} }
	defer func() { linkFile = os.Link }()
	res, err := rewrite(t, p, "new\n", Options{Now: fixedNow})
	if err != nil {
		t.Fatal(err)
	}
	if !res.BackupCopied {
		t.Fatal("backup not copied")
	}
	check(res.Backup)
	check(p)
}

func TestOwnerAndSpecialBitsKeptAsRoot(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to chown")
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "s.jsonl")
	write(t, p, "old\n", 0o640)
	if err := os.Chown(p, 1234, 5678); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, 0o640|fs.ModeSetgid); err != nil {
		t.Fatal(err)
	}
	if _, err := rewrite(t, p, "new\n", Options{NoBackup: true}); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(p)
	st := fi.Sys().(*syscall.Stat_t)
	if st.Uid != 1234 || st.Gid != 5678 {
		t.Errorf("owner %d:%d, want 1234:5678", st.Uid, st.Gid)
	}
	if fi.Mode().Perm() != 0o640 || fi.Mode()&fs.ModeSetgid == 0 {
		t.Errorf("mode %v", fi.Mode())
	}
}
