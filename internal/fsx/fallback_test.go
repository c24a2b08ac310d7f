//go:build !windows

package fsx

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func addFallback(m map[string]func(string, string) error) { m["linkRename"] = linkRename }

func TestLinkRenameRefusesSymlink(t *testing.T) {
	dir := t.TempDir()
	target, link, dst := filepath.Join(dir, "target"), filepath.Join(dir, "link"), filepath.Join(dir, "dst")
	write(t, target, "t")
	if err := os.Symlink(target, link); err != nil {
		t.Skip(err)
	}
	if err := linkRename(link, dst); !errors.Is(err, errors.ErrUnsupported) {
		t.Fatalf("linkRename of a symbolic link: %v, want errors.ErrUnsupported", err)
	}
	if _, err := os.Lstat(link); err != nil {
		t.Errorf("the link is gone: %v", err)
	}
	if _, err := os.Lstat(dst); err == nil {
		t.Errorf("something was created at the destination")
	}
}
