// Package problem describes what sessctl finds wrong in a session file: a
// stable code, a severity, where it is, what it means and how to fix it.
package problem

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Severity of a problem.
type Severity string

// Severities, most serious first.
const (
	Error   Severity = "error"
	Warning Severity = "warning"
	Info    Severity = "info"
)

// Problem is one finding, the one shape every format reports. Codes are
// stable: scripts may match on them.
type Problem struct {
	Code     string   `json:"code"`
	Severity Severity `json:"severity"`
	// Line is the 1-based line of the checked file (0: the whole file, or a
	// problem of a store located by Location).
	Line int `json:"line,omitempty"`
	// ID names what the problem is about: an entry id, or in a store the
	// session (OpenCode) or session key (OpenClaw) concerned.
	ID      string `json:"id,omitempty"`
	Message string `json:"message"`
	// Fix is a one-line hint of the fix.
	Fix string `json:"fix,omitempty"`
	// Location is where inside a store the problem is, when it is not a
	// line of one session file: a file of the store, or
	// "<db file>:<table>/<id>" for a database row. Located folds it into
	// the message, which is how commands print it.
	Location string `json:"location,omitempty"`
	// Scope is the part of a store the problem belongs to (an OpenClaw
	// agent id); never printed on its own.
	Scope string `json:"-"`
}

func (p Problem) String() string {
	msg := p.Message
	if p.Location != "" {
		msg = p.Location + ": " + msg
	}
	if p.Line > 0 {
		return fmt.Sprintf("line %d: %s (%s)", p.Line, msg, p.Code)
	}
	return fmt.Sprintf("%s (%s)", msg, p.Code)
}

// Located returns p with its Location folded into the message
// ("<location>: <message>") and cleared, the location written relative to
// base (the store as the user named it; a file's folder when base is a
// file) when it lies below it.
func (p Problem) Located(base string) Problem {
	if p.Location == "" {
		return p
	}
	p.Message = Rel(base, p.Location) + ": " + p.Message
	p.Location = ""
	return p
}

// Rel writes path relative to base (a folder, or a file whose folder is
// meant) when it lies below it, else unchanged.
func Rel(base, path string) string {
	if fi, err := os.Stat(base); err == nil && !fi.IsDir() {
		base = filepath.Dir(base)
	}
	if abs, err := filepath.Abs(base); err == nil && filepath.IsAbs(path) {
		base = abs
	}
	if r, err := filepath.Rel(base, path); err == nil && r != ".." && !filepath.IsAbs(r) &&
		!strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return r
	}
	return path
}

// Stable problem codes shared by the formats.
const (
	TornTail      = "torn-tail"
	MalformedLine = "malformed-line"
	NULRun        = "nul-run"
	BOM           = "bom"
	NonObject     = "non-object-line"
	MissingHeader = "missing-header"
	InvalidHeader = "invalid-header"
	ExtraHeader   = "extra-header"
	DuplicateID   = "duplicate-id"
	SelfParent    = "self-parent"
	Cycle         = "cycle"
	Orphan        = "orphaned-parent"
	MissingID     = "missing-id"
	SeveralRoots  = "several-roots"
	CRLF          = "crlf"
	// StaleTemp is a temp file an interrupted sessctl write left beside a
	// session file.
	StaleTemp = "stale-temp"
	// PendingJournal is a journal an interrupted repair left beside a
	// session: rejected lines not yet written to the sidecar.
	PendingJournal = "pending-journal"
)

// Count returns how many problems have each severity.
func Count(ps []Problem) (errors, warnings, infos int) {
	for _, p := range ps {
		switch p.Severity {
		case Error:
			errors++
		case Warning:
			warnings++
		default:
			infos++
		}
	}
	return
}
