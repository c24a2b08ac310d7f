//go:build unix

package fsx

import (
	"io/fs"
	"os"
	"syscall"
)

// NoFollow is the os.OpenFile flag that refuses a symbolic link at the
// last element of a name: O_NOFOLLOW (the open fails with ELOOP).
const NoFollow = syscall.O_NOFOLLOW

// IDOf returns the identity of the file fi describes (fi from os.Stat or
// os.Lstat of path, or File.Stat). On Unix fi carries it; path and follow
// are not used.
func IDOf(path string, fi fs.FileInfo, follow bool) (ID, error) {
	return idFromInfo(fi), nil
}

// IDOfFile returns the identity of an open file.
func IDOfFile(f *os.File) (ID, error) {
	fi, err := f.Stat()
	if err != nil {
		return ID{}, err
	}
	return idFromInfo(fi), nil
}

func idFromInfo(fi fs.FileInfo) ID {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return ID{}
	}
	return ID{Dev: uint64(st.Dev), Ino: uint64(st.Ino), Nlink: uint64(st.Nlink), UID: int(st.Uid), GID: int(st.Gid)}
}
