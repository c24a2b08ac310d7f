// Package problem describes what sessctl finds wrong in a session file: a
// stable code, a severity, where it is, what it means and how to fix it.
package problem

import "fmt"

// Severity of a problem.
type Severity string

// Severities, most serious first.
const (
	Error   Severity = "error"
	Warning Severity = "warning"
	Info    Severity = "info"
)

// Problem is one finding. Codes are stable: scripts may match on them.
type Problem struct {
	Code     string   `json:"code"`
	Severity Severity `json:"severity"`
	Line     int      `json:"line,omitempty"`
	ID       string   `json:"id,omitempty"`
	Message  string   `json:"message"`
	Fix      string   `json:"fix,omitempty"`
}

func (p Problem) String() string {
	if p.Line > 0 {
		return fmt.Sprintf("line %d: %s (%s)", p.Line, p.Message, p.Code)
	}
	return fmt.Sprintf("%s (%s)", p.Message, p.Code)
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
