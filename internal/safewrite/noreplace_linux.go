package safewrite

import "golang.org/x/sys/unix"

// renameNoReplace renames old to new only if new does not exist
// (renameat2 RENAME_NOREPLACE). It is the fallback where hard links are
// not supported; it returns an error wrapping EEXIST if new exists.
func renameNoReplace(oldpath, newpath string) error {
	return unix.Renameat2(unix.AT_FDCWD, oldpath, unix.AT_FDCWD, newpath, unix.RENAME_NOREPLACE)
}
