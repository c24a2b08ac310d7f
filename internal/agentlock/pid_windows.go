package agentlock

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// stillActive is STILL_ACTIVE (STATUS_PENDING), the exit code
// GetExitCodeProcess reports for a process that has not exited.
const stillActive = 259

// PIDAlive reports whether process pid exists and has not exited. Windows
// has no kill(pid, 0): the process is opened (OpenProcess). A pid that
// names no process fails with ERROR_INVALID_PARAMETER: dead. If it opens,
// WaitForSingleObject with a zero timeout tells a running process
// (WAIT_TIMEOUT) from one that has exited but whose object another handle
// still keeps (signaled: dead). Without the right to wait, the exit code
// is read instead (STILL_ACTIVE: alive), as Node's process.kill(pid, 0)
// does. Access denied means the process exists (alive), and any other
// failure counts as alive too: fail closed, as omp does.
func PIDAlive(pid int) bool {
	if pid <= 0 || pid > int(^uint32(0)>>1) {
		return false
	}
	if pid == os.Getpid() {
		return true
	}
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION|windows.SYNCHRONIZE, false, uint32(pid))
	if err == nil {
		defer windows.CloseHandle(h)
		ev, err := windows.WaitForSingleObject(h, 0)
		switch {
		case err != nil:
			return true
		case ev == uint32(windows.WAIT_TIMEOUT):
			return true
		case ev == windows.WAIT_OBJECT_0:
			return false
		}
		return true
	}
	if errors.Is(err, windows.ERROR_INVALID_PARAMETER) {
		return false
	}
	if !errors.Is(err, windows.ERROR_ACCESS_DENIED) {
		return true
	}
	// Not allowed to wait on it: try reading the exit code.
	h, err = windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return !errors.Is(err, windows.ERROR_INVALID_PARAMETER)
	}
	defer windows.CloseHandle(h)
	var code uint32
	if err := windows.GetExitCodeProcess(h, &code); err != nil {
		return true
	}
	return code == stillActive
}
