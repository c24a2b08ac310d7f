//go:build !windows

package fsx

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// linkRename renames a regular file oldpath to newpath without replacing
// an existing newpath: link(2) fails with EEXIST when newpath exists and
// never follows a link there; the old name is then unlinked. A crash
// between the two steps leaves both names on the same inode (nothing is
// lost; a second run sees the same bytes under both names). A directory
// is renamed with rename(2), which can replace only an empty directory (a
// non-empty one fails with ENOTEMPTY or EEXIST, a file with ENOTDIR), so no
// content can be lost. Anything else (a symbolic link, a device) is
// refused: link(2) may follow a symbolic link on some systems.
func linkRename(oldpath, newpath string) error {
	fi, err := os.Lstat(oldpath)
	if err != nil {
		return &os.LinkError{Op: "rename", Old: oldpath, New: newpath, Err: errors.Unwrap(err)}
	}
	switch {
	case fi.Mode().IsRegular():
		if err := os.Link(oldpath, newpath); err != nil {
			return err
		}
		if err := os.Remove(oldpath); err != nil {
			return fmt.Errorf("%s was linked to %s but removing the old name failed (both names now hold the same file): %w", oldpath, newpath, err)
		}
		return nil
	case fi.IsDir():
		return os.Rename(oldpath, newpath)
	}
	return &os.LinkError{Op: "rename", Old: oldpath, New: newpath,
		Err: fmt.Errorf("%w: no rename that cannot replace is available here for a %s", errors.ErrUnsupported, fileKind(fi.Mode()))}
}

func fileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "named pipe"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeDevice != 0:
		return "device"
	}
	return "special file"
}
