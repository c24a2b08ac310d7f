//go:build !windows

package safewrite

import (
	"errors"
	"os"
	"syscall"
)

// syncDir fsyncs a directory, making the creation, rename or removal of a
// name in it durable. EINVAL (a file system that cannot fsync a directory)
// is not an error.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) {
		return err
	}
	return nil
}
