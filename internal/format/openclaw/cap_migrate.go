package openclaw

import (
	"errors"
	"fmt"

	"github.com/sessctl/sessctl/internal/sessfmt"
)

// errDBWrite: a session of an agent database is read through a temporary
// pi file; writing that file would change nothing OpenClaw reads.
var errDBWrite = errors.New("sessctl does not write OpenClaw agent databases")

// Migrate refuses: the session's events live in the agent database, whose
// rows OpenClaw migrates itself.
func (o *Opened) Migrate(sessfmt.MigrateOptions) (*sessfmt.MigrateResult, error) {
	return nil, fmt.Errorf("%w; %v", sessfmt.Unsupported(o, "migrate"), errDBWrite)
}
