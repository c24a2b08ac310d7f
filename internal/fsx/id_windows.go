package fsx

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"golang.org/x/sys/windows"
)

// NoFollow is the os.OpenFile flag that opens a symbolic link itself
// instead of its target (FILE_FLAG_OPEN_REPARSE_POINT). Unlike Unix's
// O_NOFOLLOW the open succeeds: the caller must check the opened file
// (File.Stat reports fs.ModeSymlink) and refuse it; CheckNoFollow does.
// (os.OpenFile with O_CREATE|O_EXCL never follows a link on Windows.)
const NoFollow = windows.O_FILE_FLAG_OPEN_REPARSE_POINT

// IDOf returns the identity of the file path names (fi is not used on
// Windows): the file is opened without asking for any access right and
// with all sharing allowed, so no other process is disturbed, and
// GetFileInformationByHandle gives its volume serial number, file index
// and link count. With follow false a symbolic link itself is described.
func IDOf(path string, fi fs.FileInfo, follow bool) (ID, error) {
	p, err := windows.UTF16PtrFromString(fixLongPath(path))
	if err != nil {
		return ID{}, &fs.PathError{Op: "identify", Path: path, Err: err}
	}
	attrs := uint32(windows.FILE_FLAG_BACKUP_SEMANTICS)
	if !follow {
		attrs |= windows.FILE_FLAG_OPEN_REPARSE_POINT
	}
	h, err := windows.CreateFile(p, 0, windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE,
		nil, windows.OPEN_EXISTING, attrs, 0)
	if err != nil {
		return ID{}, &fs.PathError{Op: "identify", Path: path, Err: err}
	}
	defer windows.CloseHandle(h)
	id, err := idOfHandle(h)
	if err != nil {
		return ID{}, &fs.PathError{Op: "identify", Path: path, Err: err}
	}
	return id, nil
}

// IDOfFile returns the identity of an open file.
func IDOfFile(f *os.File) (ID, error) {
	conn, err := f.SyscallConn()
	if err != nil {
		return ID{}, err
	}
	var id ID
	var ierr error
	if err := conn.Control(func(fd uintptr) { id, ierr = idOfHandle(windows.Handle(fd)) }); err != nil {
		return ID{}, err
	}
	if ierr != nil {
		return ID{}, &fs.PathError{Op: "identify", Path: f.Name(), Err: ierr}
	}
	return id, nil
}

func idOfHandle(h windows.Handle) (ID, error) {
	var d windows.ByHandleFileInformation
	if err := windows.GetFileInformationByHandle(h, &d); err != nil {
		return ID{}, err
	}
	return ID{
		Dev:   uint64(d.VolumeSerialNumber),
		Ino:   uint64(d.FileIndexHigh)<<32 | uint64(d.FileIndexLow),
		Nlink: uint64(d.NumberOfLinks),
	}, nil
}

// CheckNoFollow returns an error matching syscall.ELOOP if f, opened with
// NoFollow, is a symbolic link (the link itself was opened), and closes f
// then. It returns nil for any other file.
func CheckNoFollow(f *os.File) error {
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		f.Close()
		return &fs.PathError{Op: "open", Path: f.Name(), Err: syscall.ELOOP}
	}
	return nil
}

// fixLongPath prefixes an absolute path of MAX_PATH or more characters
// with \\?\ (\\?\UNC\ for a share), as package os does internally, so the
// Win32 calls made here accept it.
func fixLongPath(path string) string {
	if len(path) < 248 || !filepath.IsAbs(path) || strings.HasPrefix(path, `\\?\`) || strings.HasPrefix(path, `\\.\`) {
		return path
	}
	p := filepath.Clean(path)
	if strings.HasPrefix(p, `\\`) {
		return `\\?\UNC\` + p[2:]
	}
	return `\\?\` + p
}

// IsNoFollowErr reports whether err is CheckNoFollow's refusal of a
// symbolic link (ELOOP).
func IsNoFollowErr(err error) bool { return errors.Is(err, syscall.ELOOP) }
