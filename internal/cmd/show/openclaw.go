package show

import (
	"fmt"
	"os"

	"github.com/sessctl/sessctl/internal/format/openclaw"
	"github.com/sessctl/sessctl/internal/session"
)

// runOpenClawDB shows a session of an OpenClaw agent database
// ("<openclaw-agent.sqlite>#<session id>", as list prints it): its
// transcript events are pi lines, exported to a temporary pi file that the
// pi reader shows. handled is false for other arguments.
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
