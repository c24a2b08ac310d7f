// Package repair fixes what check finds in session files, safely: nothing
// that was valid JSON is lost (it stays byte for byte, changes only in the
// fields a fix names, or moves to a .rejected.jsonl sidecar), every write
// goes through safewrite (atomic, backup, freshness check, agent locks), and
// the repaired content is re-read before it is published: if it still has
// errors, nothing is changed.
package repair

import (
	"errors"
	"io"
	"time"

	"github.com/sessctl/sessctl/internal/problem"
)

// Options tune a repair.
type Options struct {
	DryRun         bool
	NoBackup       bool
	RebuildHeader  bool // rebuild a missing header from the file name and its folder
	CloseToolCalls bool // append error results for unanswered tool calls at the leaf
	// BridgeProgress (Claude Code) re-points every record that hangs on a
	// legacy progress line at its nearest non-progress ancestor. Check notes
	// these as information only (the loader bridges them itself), so repair
	// leaves them alone unless asked.
	BridgeProgress bool
	Now            func() time.Time
	Rand           io.Reader
}

func (o Options) now() time.Time {
	if o.Now != nil {
		return o.Now()
	}
	return time.Now()
}

// Fix is one change repair made (or would make).
type Fix struct {
	Line   int    `json:"line"` // original line number; 0 for appended lines
	Code   string `json:"code"` // the problem it fixes
	Action string `json:"action"`
	ID     string `json:"id,omitempty"`
	Detail string `json:"detail"`
}

// Result reports a repair.
type Result struct {
	Path      string            `json:"path"`
	Format    string            `json:"format"`
	DryRun    bool              `json:"dryRun"`
	Changed   bool              `json:"changed"`
	Fixes     []Fix             `json:"fixes"`
	Rejected  int               `json:"rejectedLines"`
	Sidecar   string            `json:"sidecar,omitempty"`
	Backup    string            `json:"backup,omitempty"`
	Remaining []problem.Problem `json:"remaining"`
}

// ErrNeedsHeaderRebuild is returned when the file has no valid header and
// --rebuild-header was not given.
var ErrNeedsHeaderRebuild = errors.New("the file has no valid session header")

// vline is one line of the repaired file.
type vline struct {
	orig   int   // original line number (1-based); 0 for new lines
	off    int64 // original offset and length (with newline) of the line
	n      int64
	bytes  []byte // replacement bytes (nil: the original line unchanged)
	edits  map[string]string
	obj    bool
	typ    string
	id     string
	hasID  bool
	parent string
	refs   map[string]string // other id references: targetId, firstKeptEntryId, fromId
	header bool
	crlf   bool
	// Claude Code lines only
	side bool  // isSidechain
	ts   int64 // timestamp in unix ms (noTS when absent or invalid)
}

type rejectRec struct {
	line   int
	reason string
	raw    []byte
}
