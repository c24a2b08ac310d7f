package tree

import (
	"github.com/sessctl/sessctl/internal/cmd/sessopen"
	"github.com/sessctl/sessctl/internal/session"
)

// runOpenClawDB reads a session of an OpenClaw agent database
// ("<openclaw-agent.sqlite>#<session id>") through a temporary pi export.
func runOpenClawDB(opts *Options) (handled bool, err error) {
	return sessopen.OpenClawDB(opts.IO, opts.Session, opts.JSON, func(ref session.Ref) error { return runPi(opts, ref) })
}
