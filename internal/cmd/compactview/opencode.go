package compactview

import (
	"errors"

	"github.com/sessctl/sessctl/internal/cmdutil"
	"github.com/sessctl/sessctl/internal/format/opencode"
	"github.com/sessctl/sessctl/internal/render"
)

// runOpenCode shows an OpenCode session's compactions: each compaction
// request, its summary, the messages it hides and the retained tail.
func runOpenCode(opts *Options) (handled bool, err error) {
	ref, ok := opencode.ParseRef(opts.Session, opts.Factory.Getenv)
	if !ok {
		return false, nil
	}
	if opts.Leaf != "" {
		return true, cmdutil.UsageErrorf("--leaf: an OpenCode session is a list of messages; there is no leaf to choose")
	}
	t, err := opencode.LoadRef(ref)
	if errors.Is(err, opencode.ErrAmbiguous) || errors.Is(err, opencode.ErrNoSession) {
		return true, cmdutil.UsageErrorf("%v", err)
	}
	if err != nil {
		return true, err
	}
	cv := opencode.CompactView(t)
	if opts.JSON {
		return true, render.JSON(opts.IO.Out, cv, opts.IO.IsStdoutTTY())
	}
	render.DrawCompactView(opts.IO.Out, cv, opts.Full, opts.IO.IsStdoutTTY(), render.NewStyles(opts.IO))
	return true, nil
}
