package sessopen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/sessctl/sessctl/internal/format/openclaw"
	"github.com/sessctl/sessctl/internal/iostreams"
	"github.com/sessctl/sessctl/internal/session"
)

// OpenClawDB runs a reading command on a session of an OpenClaw agent
// database ("<openclaw-agent.sqlite>#<session id>", as list prints it): its
// transcript events are pi lines, exported to a temporary pi file that run
// reads. With jsonOut, the temporary path in run's output is replaced by the
// database reference, so the JSON names what the user asked for. handled is
// false when arg is not such a reference.
func OpenClawDB(ios *iostreams.IOStreams, arg string, jsonOut bool, run func(session.Ref) error) (handled bool, err error) {
	db, id, ok := openclaw.ParseDBRef(arg)
	if !ok {
		return false, nil
	}
	tmp, err := openclaw.ExportTemp(db, id)
	if err != nil {
		return true, fmt.Errorf("%s: %w", arg, err)
	}
	defer os.Remove(tmp)
	ref := session.Ref{Path: tmp, Format: session.FormatPi, Agent: "openclaw"}
	if !jsonOut {
		return true, run(ref)
	}
	out := ios.Out
	var buf bytes.Buffer
	ios.Out = &buf
	err = run(ref)
	ios.Out = out
	if err != nil {
		return true, err
	}
	q := func(s string) string { b, _ := json.Marshal(s); return string(b[1 : len(b)-1]) }
	_, err = out.Write([]byte(strings.ReplaceAll(buf.String(), q(tmp), q(arg))))
	return true, err
}
