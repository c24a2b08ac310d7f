package fsx

import (
	"os"

	"golang.org/x/sys/windows"
)

// RenameNoReplace renames oldpath to newpath only if newpath does not
// exist; otherwise it fails with an error matching fs.ErrExist
// (ERROR_ALREADY_EXISTS or ERROR_FILE_EXISTS) and changes nothing.
//
// Windows: MoveFileEx without MOVEFILE_REPLACE_EXISTING, which refuses an
// existing destination (file or directory) atomically, and without
// MOVEFILE_COPY_ALLOWED, so a move to another volume fails instead of
// becoming a copy and a delete. A file another process has open without
// FILE_SHARE_DELETE cannot be moved (ERROR_SHARING_VIOLATION): the move
// fails and nothing changes.
func RenameNoReplace(oldpath, newpath string) error {
	from, err := windows.UTF16PtrFromString(fixLongPath(oldpath))
	if err != nil {
		return &os.LinkError{Op: "rename", Old: oldpath, New: newpath, Err: err}
	}
	to, err := windows.UTF16PtrFromString(fixLongPath(newpath))
	if err != nil {
		return &os.LinkError{Op: "rename", Old: oldpath, New: newpath, Err: err}
	}
	if err := windows.MoveFileEx(from, to, 0); err != nil {
		return &os.LinkError{Op: "rename", Old: oldpath, New: newpath, Err: err}
	}
	return nil
}
