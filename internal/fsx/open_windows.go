package fsx

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/sys/windows"
)

// OpenRead opens a file for reading, sharing read, write and delete
// access. os.Open on Windows does not share delete access, and while such
// a handle is open the file cannot be renamed over or removed: a safe
// rewrite of a session file the caller is still reading (safewrite's
// rename of its temp file over the target, the removal of a backup link)
// would fail with "Access is denied". Use it for a file that will be
// replaced while it is still open. Like os.Open it follows links and
// opens directories (FILE_FLAG_BACKUP_SEMANTICS).
func OpenRead(path string) (*os.File, error) {
	p, err := windows.UTF16PtrFromString(fixLongPath(path))
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	h, err := windows.CreateFile(p, windows.GENERIC_READ,
		windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE,
		nil, windows.OPEN_EXISTING, windows.FILE_ATTRIBUTE_NORMAL|windows.FILE_FLAG_BACKUP_SEMANTICS, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	return os.NewFile(uintptr(h), path), nil
}

// Replace renames oldpath to newpath, replacing newpath if it exists. In
// one folder it renames through os.Root, which asks NTFS for POSIX rename
// semantics (FILE_RENAME_POSIX_SEMANTICS, Windows 10 1607 and later): the
// name is replaced even while the old file is open with delete access
// shared (by OpenRead, by Node.js agents), as on Unix. Where the file
// system lacks them (FAT, older Windows) it falls back to a classic
// replacing rename, which fails with "Access is denied" while the old file
// is open: then nothing is replaced. Across folders it is os.Rename
// (MoveFileEx with MOVEFILE_REPLACE_EXISTING).
func Replace(oldpath, newpath string) error {
	dir := filepath.Dir(newpath)
	if filepath.Dir(oldpath) != dir {
		return os.Rename(oldpath, newpath)
	}
	r, err := os.OpenRoot(dir)
	if err != nil {
		return &os.LinkError{Op: "rename", Old: oldpath, New: newpath, Err: err}
	}
	defer r.Close()
	if err := r.Rename(filepath.Base(oldpath), filepath.Base(newpath)); err != nil {
		return &os.LinkError{Op: "rename", Old: oldpath, New: newpath, Err: errors.Unwrap(err)}
	}
	return nil
}
