//go:build unix

package agentlock

import (
	"errors"
	"os"
	"syscall"
)

// PIDAlive reports whether process pid exists, using kill(pid, 0): success
// or EPERM (exists, not ours) mean alive, ESRCH means dead, and any other
// error counts as alive (fail closed), as omp does.
func PIDAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	if pid == os.Getpid() {
		return true
	}
	err := syscall.Kill(pid, 0)
	if err == nil {
		return true
	}
	return !errors.Is(err, syscall.ESRCH)
}
