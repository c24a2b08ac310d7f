//go:build unix

package blob

import (
	"path/filepath"
	"syscall"
	"testing"
)

// platformUnreadableKinds adds a FIFO named like a session file: opening it
// would block, so the mark must refuse it as "not a regular file".
func platformUnreadableKinds() []unreadableKind {
	return []unreadableKind{{"fifo named like a session file", func(t *testing.T, f *fixture) string {
		p := filepath.Join(f.sessions, "-proj", "pipe.jsonl")
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
		return p
	}}}
}
