package openclaw

import (
	"fmt"

	"github.com/sessctl/sessctl/internal/sessfmt"
)

// Repair refuses: the session's events live in the agent database, which
// sessctl does not write. (OpenClaw transcript files are pi files and are
// repaired as such.)
func (o *Opened) Repair(sessfmt.RepairOptions) (*sessfmt.RepairResult, error) {
	return nil, fmt.Errorf("%w; %v", sessfmt.Unsupported(o, "repair"), errDBWrite)
}

// Fork refuses, for the same reason.
func (o *Opened) Fork(sessfmt.ForkOptions) (*sessfmt.ForkResult, error) {
	return nil, fmt.Errorf("%w; %v", sessfmt.Unsupported(o, "fork"), errDBWrite)
}
