package compactview

import (
	"github.com/sessctl/sessctl/internal/cmd/sessopen"
	"github.com/sessctl/sessctl/internal/format/opencode"
	"github.com/sessctl/sessctl/internal/render"
)

// runOpenCode shows an OpenCode session's compactions: each compaction
// request, its summary, the messages it hides and the retained tail.
func runOpenCode(opts *Options) (handled bool, err error) {
	t, handled, err := sessopen.OpenCode(opts.Session, opts.Leaf, opts.Factory.Getenv)
	if !handled || err != nil {
		return handled, err
	}
	cv := opencode.CompactView(t)
	if opts.JSON {
		return true, render.JSON(opts.IO.Out, cv, opts.IO.IsStdoutTTY())
	}
	render.DrawCompactView(opts.IO.Out, cv, opts.Full, opts.IO.IsStdoutTTY(), render.NewStyles(opts.IO))
	return true, nil
}
