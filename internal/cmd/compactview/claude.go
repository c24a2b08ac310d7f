package compactview

import (
	"github.com/sessctl/sessctl/internal/cmdutil"
	"github.com/sessctl/sessctl/internal/format/claude"
	"github.com/sessctl/sessctl/internal/model"
	"github.com/sessctl/sessctl/internal/render"
	"github.com/sessctl/sessctl/internal/session"
)

func init() { Viewers[session.FormatClaude] = viewClaude }

// viewClaude lists the compactions on a Claude Code transcript's whole
// history (the path from the last-prompt leaf, or --leaf, across boundaries).
func viewClaude(ref session.Ref, opts *Options) (*model.CompactView, error) {
	f, err := claude.Open(ref.Path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if !opts.IO.Quiet() {
		render.Diagnostics(opts.IO.ErrOut, ref.Path, f.ProblemList(), render.NewStyles(opts.IO), 20)
	}
	cv, err := f.CompactView(opts.Leaf)
	if err != nil && opts.Leaf != "" {
		return nil, cmdutil.UsageErrorf("--leaf: %v", err)
	}
	return cv, err
}
