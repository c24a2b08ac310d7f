//go:build unix

package agentlock

import (
	"os"
	"syscall"
)

// flockHold creates path and takes an exclusive flock on it, kept until
// the process exits.
func flockHold(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
}
