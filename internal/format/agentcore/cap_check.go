package agentcore

import (
	"github.com/sessctl/sessctl/internal/problem"
	"github.com/sessctl/sessctl/internal/sessfmt"
)

// Check is check's verdict on the file (sessfmt.Checker): bad lines, tree
// problems and tool call/result pairing.
func (o *Opened) Check(sessfmt.CheckOptions) ([]problem.Problem, error) {
	return o.S.Check()
}
