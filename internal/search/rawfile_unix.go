//go:build unix

package search

import (
	"io"
	"io/fs"
	"syscall"
)

// rawFile is a file read with plain system calls: open, read, close. An
// os.File of a regular file costs four fcntl calls and an epoll_ctl more
// (it tries the poller first), five calls per file that search -l, which
// reads the first block of thousands of files, would spend for nothing.
type rawFile struct {
	fd   int
	path string
}

// openRaw opens path for reading, as os.Open does (close-on-exec).
func openRaw(path string) (*rawFile, error) {
	for {
		fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: path, Err: err}
		}
		return &rawFile{fd: fd, path: path}, nil
	}
}

// Read reads up to len(b) bytes; io.EOF at the end, as os.File.
func (f *rawFile) Read(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	if len(b) > 1<<30 {
		b = b[:1<<30]
	}
	for {
		n, err := syscall.Read(f.fd, b)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return 0, &fs.PathError{Op: "read", Path: f.path, Err: err}
		}
		if n == 0 {
			return 0, io.EOF
		}
		return n, nil
	}
}

// Close closes the file.
func (f *rawFile) Close() error {
	if err := syscall.Close(f.fd); err != nil {
		return &fs.PathError{Op: "close", Path: f.path, Err: err}
	}
	return nil
}
