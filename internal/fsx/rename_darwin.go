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
// macOS: renamex_np(RENAME_EXCL), atomic (APFS, HFS+). On a file system
// that does not support it (ENOTSUP, EINVAL) a regular file is moved by
// link(2) + unlink(2) and a directory by rename(2), which can only replace
// an empty directory (see linkRename); other kinds fail.
func RenameNoReplace(oldpath, newpath string) error {
	err := unix.RenamexNp(oldpath, newpath, unix.RENAME_EXCL)
	if err == nil {
		return nil
	}
	if errors.Is(err, unix.ENOTSUP) || errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) {
		return linkRename(oldpath, newpath)
	}
	return &os.LinkError{Op: "rename", Old: oldpath, New: newpath, Err: err}
}
