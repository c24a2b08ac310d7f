package opencode

import (
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

func (fp *fileProblem) problem(kind string) problem.Problem {
	p := problem.Problem{Code: fp.code, Severity: SevError, Location: fp.path}
	switch fp.code {
	case CodeJSONEmpty:
		p.Message = kind + " file is empty (0 bytes)"
		p.Fix = "a crash or full disk truncated it; OpenCode fails on it (\"Unexpected end of JSON input\"); restore it from a backup or move it aside"
	case CodeJSONNUL:
		p.Message = kind + " file is filled with NUL bytes: " + fp.err.Error()
		p.Fix = "a crash left zero-filled blocks; one such file can hide every session of the install; restore it from a backup or move it aside"
	case CodeJSONInvalid:
		p.Message = kind + " file is not valid JSON: " + fp.err.Error()
		p.Fix = "the file was torn by an interrupted write; restore it from a backup or move it aside"
	default:
		p.Code = CodeReadError
		p.Message = fp.err.Error()
	}
	return p
}
