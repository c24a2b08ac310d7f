package sessfmt

import (
	"time"

	"github.com/sessctl/sessctl/internal/problem"
)

// CheckOptions tune check. Formats ignore what does not apply to them.
type CheckOptions struct {
	// BlobDir is the blob store oh-my-pi and xcsh references are checked
	// against ("": beside the sessions folder).
	BlobDir string
	// Now dates what ages (OpenClaw's locks); zero is time.Now.
	Now time.Time
}

// When returns o.Now, or the current time when it is zero.
func (o CheckOptions) When() time.Time {
	if o.Now.IsZero() {
		return time.Now()
	}
	return o.Now
}

// Checker is a session that check can judge: `sessctl check`, and list's
// status, which is computed by the same code.
type Checker interface {
	// Check returns every problem of the session: what the reader saw and
	// what the format's own rules find (tool pairing on the active path,
	// compaction anchors, dangling blob references, …). A session that is
	// a whole store (an OpenCode data folder) returns the store's problems,
	// each with its Location.
	Check(opts CheckOptions) ([]problem.Problem, error)
}

// StoreChecker is a format with stores that are folders holding many
// session files and an index of their own (an OpenClaw state folder):
// check takes such a folder whole, reports the index's problems, then
// checks the session files it holds one by one.
type StoreChecker interface {
	// IsStore says whether path is one of the format's store folders.
	IsStore(path string) bool
	// CheckStore returns the problems of the store at path (each with its
	// Location) and the session files it holds, written under path as the
	// user named it.
	CheckStore(path string, opts CheckOptions) (ps []problem.Problem, members []string, err error)
}

// StoreChecker returns the format that takes path whole as one of its
// store folders, or nil.
func (r *Registry) StoreChecker(path string) StoreChecker {
	for _, f := range r.formats {
		if sc, ok := f.(StoreChecker); ok && sc.IsStore(path) {
			return sc
		}
	}
	return nil
}

// Claims says whether a format owns arg outright (a store folder or
// database, a "<store>#<id>" reference): such an argument is a session (or
// store) of its own, never a folder to search for session files.
func (r *Registry) Claims(arg string) bool {
	_, ok := r.claim(arg)
	return ok
}
