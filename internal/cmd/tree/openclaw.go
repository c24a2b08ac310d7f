package tree

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

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
	if !opts.JSON {
		return true, runPi(opts, session.Ref{Path: tmp, Format: session.FormatPi, Agent: "openclaw"})
	}
	// The JSON names the file it read: put the database reference back in
	// place of the temporary export.
	out := opts.IO.Out
	var buf bytes.Buffer
	opts.IO.Out = &buf
	err = runPi(opts, session.Ref{Path: tmp, Format: session.FormatPi, Agent: "openclaw"})
	opts.IO.Out = out
	if err != nil {
		return true, err
	}
	q := func(s string) string { b, _ := json.Marshal(s); return string(b[1 : len(b)-1]) }
	_, err = io.WriteString(out, strings.ReplaceAll(buf.String(), q(tmp), q(opts.Session)))
	return true, err
}
