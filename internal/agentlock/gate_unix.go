//go:build unix

package agentlock

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// flockSidecar opens the gate sidecar (creating it only when create is set,
// as omp does on platforms whose gate is flock) and tries a non-blocking
// exclusive flock. It returns the open file on success, held=true when
// someone else holds it, and (nil, false, nil) when the file does not exist
// and create is false.
func flockSidecar(path string, create bool) (*os.File, bool, error) {
	// O_NOFOLLOW: the sidecar is a name derived from the session's; a
	// link planted there is not followed (the open fails with ELOOP).
	flag := os.O_RDONLY | syscall.O_CLOEXEC | syscall.O_NOFOLLOW
	if create {
		flag = os.O_RDWR | os.O_CREATE | syscall.O_CLOEXEC | syscall.O_NOFOLLOW
	}
	f, err := os.OpenFile(path, flag, 0o600)
	if err != nil {
		if !create && errors.Is(err, fs.ErrNotExist) {
			return nil, false, nil
		}
		return nil, false, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) || errors.Is(err, syscall.EAGAIN) {
			return nil, true, nil
		}
		return nil, false, err
	}
	return f, false, nil
}

func unflock(f *os.File) {
	if f == nil {
		return
	}
	_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	_ = f.Close()
}
