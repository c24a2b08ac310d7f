package show

import (
	"bufio"
	"fmt"

	"github.com/sessctl/sessctl/internal/cmdutil"
	"github.com/sessctl/sessctl/internal/format/agentcore"
	"github.com/sessctl/sessctl/internal/render"
	"github.com/sessctl/sessctl/internal/session"
)

// runAgentCore shows an Agent Core session: the root→leaf path (default leaf:
// the first leaf in file order). --json prints the context messages exactly
// as Agent Core builds them.
func runAgentCore(opts *Options, ref session.Ref) error {
	s, err := agentcore.Read(ref.Path)
	if err != nil {
		return err
	}
	st := render.NewStyles(opts.IO)
	if !opts.IO.Quiet() {
		render.Diagnostics(opts.IO.ErrOut, ref.Path, s.Problems, st, 20)
	}
	leaf := s.DefaultLeaf()
	if opts.Leaf != "" {
		if leaf, err = s.Find(opts.Leaf); err != nil {
			return cmdutil.UsageErrorf("--leaf: %v", err)
		}
	}
	switch {
	case opts.Raw:
		w := bufio.NewWriter(opts.IO.Out)
		if leaf >= 0 {
			for _, i := range s.PathTo(leaf) {
				raw, err := s.Raw(i)
				if err != nil {
					return err
				}
				if opts.IO.IsStdoutTTY() {
					raw = []byte(render.Escape(string(raw)))
				}
				w.Write(raw)
				w.WriteByte('\n')
			}
		}
		return w.Flush()
	case opts.JSON:
		msgs, err := s.Context(leaf)
		if err != nil && err != agentcore.ErrNoLeaf {
			return err
		}
		if msgs == nil {
			msgs = []agentcore.Message{}
		}
		var leafID any
		if leaf >= 0 {
			leafID = s.Entries[leaf].ID
		}
		warnings := []string{}
		for _, p := range s.Problems {
			warnings = append(warnings, p.String())
		}
		return render.JSON(opts.IO.Out, map[string]any{
			"format": "agentcore", "path": ref.Path, "sessionId": s.ID, "leafId": leafID,
			"messages": msgs, "warnings": warnings,
		}, opts.IO.IsStdoutTTY())
	}
	tr, err := s.Transcript(leaf)
	if err != nil {
		return err
	}
	if len(s.Leaves()) > 1 && !opts.IO.Quiet() {
		fmt.Fprintf(opts.IO.ErrOut, "%s: %d leaves; showing %s (--leaf picks another)\n",
			render.EscapeLine(ref.Path), len(s.Leaves()), render.EscapeLine(s.Entries[leaf].ID))
	}
	return render.DrawTranscript(opts.IO.Out, tr, render.TranscriptOptions{
		Full: opts.Full, TTY: opts.IO.IsStdoutTTY(), Styles: st, ShowIDs: true,
	})
}
