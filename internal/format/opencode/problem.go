package opencode

import (
	"fmt"

	"github.com/sessctl/sessctl/internal/problem"
)

// Severity of a Problem (the shared problem.Severity).
type Severity = problem.Severity

// Severities.
const (
	SevError   = problem.Error
	SevWarning = problem.Warning
	SevInfo    = problem.Info
)

// Problem is one finding of Check (or of reading). Code is stable and meant
// for scripts; Message and Hint are for people.
type Problem struct {
	Code     string   `json:"code"`
	Severity Severity `json:"severity"`
	// Location is a file path, or "<db file>:<table>/<id>" for database rows.
	Location string `json:"location"`
	// Session is the session concerned, when there is one.
	Session string `json:"session,omitempty"`
	Message string `json:"message"`
	Hint    string `json:"hint,omitempty"`
}

// Shared converts p to the shared problem shape: the session id goes to ID,
// the hint to Fix, and the location is prefixed to the message.
func (p Problem) Shared() problem.Problem {
	return problem.Problem{Code: p.Code, Severity: p.Severity, ID: p.Session, Message: p.Location + ": " + p.Message, Fix: p.Hint}
}

func (p Problem) String() string {
	return fmt.Sprintf("%s %s %s: %s", p.Severity, p.Code, p.Location, p.Message)
}

// Problem codes.
const (
	CodeReadError        = "read-error"     // a file or database could not be read
	CodeDBOpen           = "db-open-failed" // an opencode*.db could not be opened
	CodeJSONEmpty        = "json-empty"     // zero-byte JSON file
	CodeJSONNUL          = "json-nul"       // NUL-filled JSON file
	CodeJSONInvalid      = "json-invalid"   // JSON file that does not parse
	CodeOrphanMessage    = "orphan-message" // message whose session is missing
	CodeOrphanPart       = "orphan-part"    // part whose message is missing
	CodePartSession      = "part-session-mismatch"
	CodeParentMissing    = "parent-missing"    // child session whose parent is missing
	CodeToolUnfinished   = "tool-unfinished"   // tool part left pending or running
	CodeNotImported      = "json-not-imported" // JSON session absent from every database
	CodeProjectMissing   = "project-missing"   // session whose project id matches no project
	CodeRevertPending    = "revert-pending"    // session.revert set: a hidden tail awaits cleanup
	CodeRevertTargetGone = "revert-target-missing"
)

func (fp *fileProblem) problem(kind string) Problem {
	p := Problem{Code: fp.code, Severity: SevError, Location: fp.path}
	switch fp.code {
	case CodeJSONEmpty:
		p.Message = kind + " file is empty (0 bytes)"
		p.Hint = "a crash or full disk truncated it; OpenCode fails on it (\"Unexpected end of JSON input\"); restore it from a backup or move it aside"
	case CodeJSONNUL:
		p.Message = kind + " file is filled with NUL bytes: " + fp.err.Error()
		p.Hint = "a crash left zero-filled blocks; one such file can hide every session of the install; restore it from a backup or move it aside"
	case CodeJSONInvalid:
		p.Message = kind + " file is not valid JSON: " + fp.err.Error()
		p.Hint = "the file was torn by an interrupted write; restore it from a backup or move it aside"
	default:
		p.Code = CodeReadError
		p.Message = fp.err.Error()
	}
	return p
}
