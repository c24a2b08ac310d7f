package tree

import (
	"fmt"

	"github.com/sessctl/sessctl/internal/cmdutil"
	"github.com/sessctl/sessctl/internal/format/agentcore"
	"github.com/sessctl/sessctl/internal/render"
	"github.com/sessctl/sessctl/internal/session"
)

// runAgentCore draws an Agent Core session's entry tree; the active path
// leads to the first leaf in file order unless --leaf names another.
func runAgentCore(opts *Options, ref session.Ref) error {
	s, err := agentcore.Read(ref.Path)
	if err != nil {
		return err
	}
	st := render.NewStyles(opts.IO)
	if !opts.IO.Quiet() {
		render.Diagnostics(opts.IO.ErrOut, ref.Path, s.Problems, st, 20)
	}
	leaf := -1
	if opts.Leaf != "" {
		if leaf, err = s.Find(opts.Leaf); err != nil {
			return cmdutil.UsageErrorf("--leaf: %v", err)
		}
	}
	t, err := s.Tree(leaf)
	if err != nil {
		return err
	}
	if opts.JSON {
		return render.JSON(opts.IO.Out, render.TreeJSONOf(t, "agentcore", "", ref.Path), opts.IO.IsStdoutTTY())
	}
	o := render.TreeOptions{Full: opts.Full, TTY: opts.IO.IsStdoutTTY(), Styles: st, ShortIDs: 8}
	if opts.IO.IsStdoutTTY() {
		o.Width = opts.IO.TerminalWidth()
	}
	fmt.Fprintln(opts.IO.Out, st.Dim.Sprint(render.EscapeLine(fmt.Sprintf("agentcore session %s · %d entries · %d leaves", s.ID, len(s.Entries), len(s.Leaves())))))
	if err := render.DrawTree(opts.IO.Out, t, render.TreeRows(t, o), o); err != nil {
		return err
	}
	render.TreeFooter(opts.IO.Out, t, st)
	return nil
}
