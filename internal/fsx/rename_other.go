//go:build !linux && !darwin && !windows

package fsx

// RenameNoReplace renames oldpath to newpath only if newpath does not
// exist; otherwise it fails with an error matching fs.ErrExist (EEXIST)
// and changes nothing.
//
// FreeBSD, OpenBSD, NetBSD and other systems have no atomic
// rename-without-replace system call, so none is pretended: a regular
// file is moved by link(2) + unlink(2) (link fails if the name exists), a
// directory by rename(2), which can only replace an empty directory, and
// anything else (a symbolic link, a device) fails with an error matching
// errors.ErrUnsupported. See linkRename.
func RenameNoReplace(oldpath, newpath string) error {
	return linkRename(oldpath, newpath)
}
