package fsx

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// RenameNoReplace renames oldpath to newpath only if newpath does not
// exist; otherwise it fails with an error matching fs.ErrExist (EEXIST)
// and changes nothing.
//
// Linux: renameat2(RENAME_NOREPLACE), atomic. On a file system without
// RENAME_NOREPLACE (EINVAL, or ENOSYS on very old kernels) a regular file
// is moved by link(2) + unlink(2) and a directory by rename(2), which can
// only replace an empty directory (see linkRename); other kinds fail.
func RenameNoReplace(oldpath, newpath string) error {
	err := unix.Renameat2(unix.AT_FDCWD, oldpath, unix.AT_FDCWD, newpath, unix.RENAME_NOREPLACE)
	if err == nil {
		return nil
	}
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) {
		return linkRename(oldpath, newpath)
	}
	return &os.LinkError{Op: "rename", Old: oldpath, New: newpath, Err: err}
}
