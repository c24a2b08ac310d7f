//go:build unix

package app

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestFIFORefused (issue 11.7): a FIFO given as the session is refused
// before it is opened (opening one blocks until a writer comes).
func TestFIFORefused(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "s.jsonl")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	t.Cleanup(func() {
		// unblock a reader stuck in open, if any
		if fd, err := syscall.Open(fifo, syscall.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			syscall.Close(fd)
		}
	})
	for _, cmd := range [][]string{{"show"}, {"tree"}, {"check"}, {"repair"}, {"compact-view"}, {"show", "--json"}, {"fork", "--dry-run"}, {"migrate", "--check"}, {"export"}} {
		f, out, errOut := testFactory(false)
		done := make(chan int, 1)
		go func() { done <- Run(f, append(cmd, fifo)) }()
		select {
		case code := <-done:
			require.NotEqual(t, 0, code, "%v accepted a FIFO", cmd)
			// check and migrate report per file on stdout, the others fail
			require.Contains(t, out.String()+errOut.String(), "not a regular file", "%v: %s%s", cmd, out, errOut)
		case <-time.After(5 * time.Second):
			t.Fatalf("%v hangs on a FIFO", cmd)
		}
	}
}
