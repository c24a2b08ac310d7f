//go:build unix

package resume

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

// execIn replaces the process with argv[0] (looked up in PATH) run in dir.
func execIn(dir string, argv []string) error {
	path, err := exec.LookPath(argv[0])
	if err != nil {
		return fmt.Errorf("%s is not installed (not in PATH): %w", argv[0], err)
	}
	if dir != "" {
		if err := os.Chdir(dir); err != nil {
			return err
		}
	}
	err = syscall.Exec(path, argv, os.Environ())
	return errors.Join(fmt.Errorf("running %s", argv[0]), err)
}
