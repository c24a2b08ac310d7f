package tree

import (
	"errors"
	"fmt"

	"github.com/sessctl/sessctl/internal/cmdutil"
	"github.com/sessctl/sessctl/internal/format/opencode"
	"github.com/sessctl/sessctl/internal/problem"
	"github.com/sessctl/sessctl/internal/render"
)

// runOpenCode draws OpenCode's session hierarchy (child sessions made by the
// task tool hang under their parent): for a data directory or database all
// sessions, for one session its family with its messages and parts.
func runOpenCode(opts *Options) (handled bool, err error) {
	ref, ok := opencode.ParseRef(opts.Session, opts.Factory.Getenv)
	if !ok {
		return false, nil
	}
	if opts.Leaf != "" {
		return true, cmdutil.UsageErrorf("--leaf: an OpenCode session is a list of messages; there is no leaf to choose")
	}
	var all []opencode.Session
	var focus *opencode.Transcript
	path := ref.Data
	if ref.Export != "" {
		path = ref.Export
		if focus, err = opencode.LoadRef(ref); err != nil {
			return true, err
		}
	} else {
		s, err := opencode.Open(ref.Data)
		if err != nil {
			return true, err
		}
		defer s.Close()
		var probs []problem.Problem
		all, probs = s.Sessions()
		if !opts.IO.Quiet() {
			for _, p := range probs {
				fmt.Fprintf(opts.IO.ErrOut, "%s: warning: %s\n", render.EscapeLine(p.Location), render.EscapeLine(p.Message))
			}
		}
		if ref.ID != "" {
			focus, err = s.Load(ref.ID)
			if errors.Is(err, opencode.ErrAmbiguous) {
				return true, cmdutil.UsageErrorf("%v", err)
			}
			if err != nil {
				return true, err
			}
		}
	}
	t := opencode.TreeView(all, focus)
	if opts.JSON {
		return true, render.JSON(opts.IO.Out, render.TreeJSONOf(t, "opencode", "", path), opts.IO.IsStdoutTTY())
	}
	st := render.NewStyles(opts.IO)
	o := render.TreeOptions{Full: opts.Full, TTY: opts.IO.IsStdoutTTY(), Styles: st}
	if opts.IO.IsStdoutTTY() {
		o.Width = opts.IO.TerminalWidth()
	}
	head := fmt.Sprintf("opencode %s · %d sessions", path, len(all))
	if focus != nil {
		head = fmt.Sprintf("opencode session %s · %s · %d messages · from %s", focus.Session.ID, focus.Session.Title, len(focus.Messages), focus.Source)
	}
	fmt.Fprintln(opts.IO.Out, st.Dim.Sprint(render.EscapeLine(head)))
	return true, render.DrawTree(opts.IO.Out, t, render.TreeRows(t, o), o)
}
