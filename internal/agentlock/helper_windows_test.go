package agentlock

import (
	"fmt"
	"os"

	"golang.org/x/sys/windows"
)

// holdForHelper: gate:<name> creates omp's named mutex the way omp does
// (no initial ownership; the handle is kept until exit), flock:<path>
// takes an exclusive LockFileEx lock on the file.
func holdForHelper(kind, arg string) error {
	switch kind {
	case "gate":
		h, held, err := createGateMutex(arg)
		if err == nil && held {
			err = fmt.Errorf("gate %s is held already", arg)
		}
		_ = h // kept open until the process exits
		return err
	case "flock":
		f, err := os.OpenFile(arg, os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			return err
		}
		var ol windows.Overlapped
		return windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, &ol)
	case "sleep":
		return nil
	}
	return fmt.Errorf("unknown helper kind %q", kind)
}
