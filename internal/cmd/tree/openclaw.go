package tree

import (
	"fmt"
	"os"

	"github.com/sessctl/sessctl/internal/format/openclaw"
	"github.com/sessctl/sessctl/internal/session"
)

// runOpenClawDB draws a session of an OpenClaw agent database
// ("<openclaw-agent.sqlite>#<session id>") through a temporary pi export.
func runOpenClawDB(opts *Options) (handled bool, err error) {
	db, id, ok := openclaw.ParseDBRef(opts.Session)
	if !ok {
		return false, nil
	}
	tmp, err := openclaw.ExportTemp(db, id)
	if err != nil {
		return true, fmt.Errorf("%s: %w", opts.Session, err)
	}
	defer os.Remove(tmp)
	return true, runPi(opts, session.Ref{Path: tmp, Format: session.FormatPi, Agent: "openclaw"})
}
