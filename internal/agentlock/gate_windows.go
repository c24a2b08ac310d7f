package agentlock

import (
	"errors"
	"io/fs"
	"os"

	"github.com/sessctl/sessctl/internal/fsx"
	"golang.org/x/sys/windows"
)

// gate is one held omp OS gate on Windows. omp's native FileLock
// (pi-natives file_lock/windows.rs) creates the named kernel mutex
// "Global\" + GateName(sidecar path) without taking ownership: the lock is
// the object's existence, ERROR_ALREADY_EXISTS means another process holds
// it, and the kernel deletes the object when its last handle closes, also
// when the holder dies. No file is involved. As on Linux we also lock the
// ".<name>.lock.os" sidecar (LockFileEx, the Windows counterpart of flock)
// when that file exists, for an omp of another OS sharing the folder; it is
// never created.
type gate struct {
	mutex windows.Handle
	file  *os.File
}

// mutexName is the kernel object name omp uses for a gate name.
func mutexName(name string) string { return `Global\` + name }

// createGateMutex creates the gate mutex; held=true when it exists already
// (ERROR_ALREADY_EXISTS) or exists but may not be opened by us
// (ERROR_ACCESS_DENIED, e.g. an omp running elevated): either way someone
// holds it.
func createGateMutex(name string) (windows.Handle, bool, error) {
	p, err := windows.UTF16PtrFromString(mutexName(name))
	if err != nil {
		return 0, false, err
	}
	h, err := windows.CreateMutex(nil, false, p)
	switch {
	case err == nil:
		return h, false, nil
	case errors.Is(err, windows.ERROR_ALREADY_EXISTS):
		if h != 0 {
			windows.CloseHandle(h)
		}
		return 0, true, nil
	case errors.Is(err, windows.ERROR_ACCESS_DENIED):
		return 0, true, nil
	}
	return 0, false, err
}

// mutexExists reports whether the gate mutex exists, without creating it:
// OpenMutex for SYNCHRONIZE only, closed at once. ERROR_FILE_NOT_FOUND
// means free; ERROR_ACCESS_DENIED is only returned for an existing object
// (held). Any other error is returned, so the caller fails closed.
func mutexExists(name string) (bool, error) {
	p, err := windows.UTF16PtrFromString(mutexName(name))
	if err != nil {
		return false, err
	}
	h, err := windows.OpenMutex(windows.SYNCHRONIZE, false, p)
	switch {
	case err == nil:
		windows.CloseHandle(h)
		return true, nil
	case errors.Is(err, windows.ERROR_FILE_NOT_FOUND):
		return false, nil
	case errors.Is(err, windows.ERROR_ACCESS_DENIED):
		return true, nil
	}
	return false, err
}

// lockSidecar opens the gate sidecar if it exists (never creating it, never
// following a link at its name) and tries a non-blocking exclusive
// LockFileEx on its first byte. It returns the open file on success,
// held=true when another handle holds the lock, and (nil, false, nil) when
// there is no sidecar.
func lockSidecar(path string) (*os.File, bool, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|fsx.NoFollow, 0)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, false, nil
		}
		return nil, false, err
	}
	if err := fsx.CheckNoFollow(f); err != nil {
		return nil, false, err
	}
	var ol windows.Overlapped
	err = windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, &ol)
	if err != nil {
		f.Close()
		if errors.Is(err, windows.ERROR_LOCK_VIOLATION) || errors.Is(err, windows.ERROR_IO_PENDING) {
			return nil, true, nil
		}
		return nil, false, err
	}
	return f, false, nil
}

func unlockSidecar(f *os.File) {
	if f == nil {
		return
	}
	var ol windows.Overlapped
	_ = windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, &ol)
	_ = f.Close()
}

func tryGate(sidecar, name string) (*gate, bool, error) {
	h, held, err := createGateMutex(name)
	if err != nil || held {
		return nil, held, err
	}
	f, held, err := lockSidecar(sidecar)
	if err != nil || held {
		windows.CloseHandle(h)
		return nil, held, err
	}
	return &gate{mutex: h, file: f}, false, nil
}

func (g *gate) release() {
	if g == nil {
		return
	}
	unlockSidecar(g.file)
	g.file = nil
	if g.mutex != 0 {
		windows.CloseHandle(g.mutex)
		g.mutex = 0
	}
}

// probeGate reports whether the gate is held without taking it: the mutex
// is only opened (never created), the sidecar, if present, is locked and
// unlocked at once.
func probeGate(sidecar, name string) (bool, error) {
	held, err := mutexExists(name)
	if err != nil || held {
		return held, err
	}
	f, held, err := lockSidecar(sidecar)
	if err != nil || held {
		return held, err
	}
	unlockSidecar(f)
	return false, nil
}
