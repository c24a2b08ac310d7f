package search

import (
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// unix.Stat_t and syscall.Stat_t are both the kernel's struct stat of this
// architecture (the same fields in the same order); Stat gives os.Stat's
// Sys, a *syscall.Stat_t, from unix.Fstatat's. These fail to compile if the
// sizes ever differ.
var (
	_ [unsafe.Sizeof(unix.Stat_t{}) - unsafe.Sizeof(syscall.Stat_t{})]byte
	_ [unsafe.Sizeof(syscall.Stat_t{}) - unsafe.Sizeof(unix.Stat_t{})]byte
)

// Dirs keeps a folder's descriptor open for the files found in it, so that
// a file is looked up by its name in the folder (fstatat, openat) instead
// of by its whole path: over thousands of sessions, walking every component
// of the path twice per file (stat, then open) was a tenth of search -l's
// kernel time. Safe for concurrent use; Close closes the folders.
type Dirs struct {
	mu sync.Mutex
	fd map[string]int // -1: could not be opened
}

// NewDirs returns an empty Dirs.
func NewDirs() *Dirs { return &Dirs{fd: map[string]int{}} }

// dir returns the descriptor of the folder of path and the file's name in
// it (ok false: use the path).
func (d *Dirs) dir(path string) (int, string, bool) {
	if d == nil {
		return 0, "", false
	}
	dir, name := filepath.Split(path)
	if dir == "" || name == "" {
		return 0, "", false
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	fd, ok := d.fd[dir]
	if !ok {
		var err error
		fd, err = syscall.Open(dir, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
		if err != nil {
			fd = -1
		}
		d.fd[dir] = fd
	}
	return fd, name, fd >= 0
}

// OpenStat opens a regular file to be searched and stats it in one lookup
// of its name (openat, then fstat on the descriptor, instead of fstatat
// then openat): the file is nil, with os.Stat's answer, when path is not a
// regular file or cannot be opened. The caller hands the file to the
// search in Target.Opened, or closes it.
func (d *Dirs) OpenStat(path string) (*Opened, os.FileInfo, error) {
	fd, name, ok := d.dir(path)
	if !ok {
		st, err := os.Stat(path)
		return nil, st, err
	}
	var f int
	for {
		var err error
		// O_NONBLOCK: opening a FIFO found under a .jsonl name must not
		// wait for a writer (it is not read: not a regular file); cleared
		// below once the file is known to be regular. O_NOCTTY: a device
		// swapped in for the file since the walk never becomes the
		// terminal.
		f, err = syscall.Openat(fd, name, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			st, err := os.Stat(path)
			return nil, st, err
		}
		break
	}
	var ust unix.Stat_t
	for {
		err := unix.Fstat(f, &ust)
		if err == syscall.EINTR {
			continue
		}
		if err != nil || ust.Mode&syscall.S_IFMT != syscall.S_IFREG {
			syscall.Close(f)
			st, err := os.Stat(path)
			return nil, st, err
		}
		break
	}
	// Reads of the file must block as usual (a FUSE or network file system
	// may honour O_NONBLOCK with EAGAIN, which the reads do not retry).
	if err := unix.SetNonblock(f, false); err != nil {
		syscall.Close(f)
		st, err := os.Stat(path)
		return nil, st, err
	}
	return &Opened{f: &rawFile{fd: f, path: path}}, regularStat(name, &ust), nil
}

// regularStat is os.Stat's FileInfo of a regular file from its struct stat.
func regularStat(name string, ust *unix.Stat_t) *fileStat {
	st := *(*syscall.Stat_t)(unsafe.Pointer(ust))
	mode := fs.FileMode(st.Mode & 0o777)
	if st.Mode&syscall.S_ISUID != 0 {
		mode |= fs.ModeSetuid
	}
	if st.Mode&syscall.S_ISGID != 0 {
		mode |= fs.ModeSetgid
	}
	if st.Mode&syscall.S_ISVTX != 0 {
		mode |= fs.ModeSticky
	}
	return &fileStat{name: name, size: st.Size, mode: mode,
		mod: time.Unix(int64(st.Mtim.Sec), int64(st.Mtim.Nsec)), sys: st} //nolint:unconvert // types differ by arch
}

// open is openRaw(path), by name in its folder.
func (d *Dirs) open(path string) (*rawFile, error) {
	fd, name, ok := d.dir(path)
	if !ok {
		return openRaw(path)
	}
	for {
		f, err := syscall.Openat(fd, name, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: path, Err: err}
		}
		return &rawFile{fd: f, path: path}, nil
	}
}

// Close closes the folders.
func (d *Dirs) Close() {
	if d == nil {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	for k, fd := range d.fd {
		if fd >= 0 {
			syscall.Close(fd)
		}
		delete(d.fd, k)
	}
}

// fileStat is os.Stat's FileInfo of a regular file.
type fileStat struct {
	name string
	size int64
	mode fs.FileMode
	mod  time.Time
	sys  syscall.Stat_t
}

func (f *fileStat) Name() string       { return f.name }
func (f *fileStat) Size() int64        { return f.size }
func (f *fileStat) Mode() fs.FileMode  { return f.mode }
func (f *fileStat) ModTime() time.Time { return f.mod }
func (f *fileStat) IsDir() bool        { return false }
func (f *fileStat) Sys() any           { return &f.sys }
