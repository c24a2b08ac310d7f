//go:build !unix

package resume

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
)

// execIn runs argv[0] (looked up in PATH, e.g. a .exe or an npm .cmd shim)
// in dir with this process's standard streams and environment, and exits
// with its exit code: Windows has no exec(2) that replaces a process, so
// sessctl waits for the agent instead. It returns only on failure to start.
func execIn(dir string, argv []string) error {
	path, err := exec.LookPath(argv[0])
	if err != nil {
		return fmt.Errorf("%s is not installed (not in PATH): %w", argv[0], err)
	}
	cmd := exec.Command(path, argv[1:]...)
	cmd.Dir = dir
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	// Ctrl-C reaches the agent and sessctl alike; the agent uses it to
	// interrupt itself, so sessctl must not exit on it and leave the agent
	// running behind the shell's prompt (on Windows only a Notify swallows
	// it; signal.Ignore does not).
	signal.Notify(make(chan os.Signal, 1), os.Interrupt)
	if err := cmd.Start(); err != nil {
		return errors.Join(fmt.Errorf("running %s", argv[0]), err)
	}
	err = cmd.Wait()
	var ee *exec.ExitError
	switch {
	case err == nil:
		os.Exit(0)
	case errors.As(err, &ee):
		os.Exit(ee.ExitCode())
	}
	return errors.Join(fmt.Errorf("running %s", argv[0]), err)
}
