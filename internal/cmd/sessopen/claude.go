package sessopen

import (
	"github.com/sessctl/sessctl/internal/cmdutil"
	"github.com/sessctl/sessctl/internal/format/claude"
	"github.com/sessctl/sessctl/internal/iostreams"
	"github.com/sessctl/sessctl/internal/render"
)

// Claude opens a Claude Code transcript: --leaf-mode is parsed (a bad value
// is a usage error) and the problems are printed on stderr (unless -q),
// except a leaf-mode disagreement, which the caller reports in its own
// words from the returned choice. The caller closes the file.
func Claude(ios *iostreams.IOStreams, path, leafMode string) (*claude.File, claude.LeafMode, claude.LeafChoice, error) {
	mode, err := claude.ParseLeafMode(leafMode)
	if err != nil {
		return nil, "", claude.LeafChoice{}, cmdutil.FlagErrorf("--leaf-mode: %v", err)
	}
	f, err := claude.Open(path)
	if err != nil {
		return nil, "", claude.LeafChoice{}, err
	}
	choice := f.LeafModes()
	if !ios.Quiet() {
		var ps []claude.Problem
		for _, p := range f.Problems() {
			if p.Code != claude.ProbLeafDisagree {
				ps = append(ps, p)
			}
		}
		render.Diagnostics(ios.ErrOut, path, claude.ToProblems(ps), render.NewStyles(ios), 20)
	}
	return f, mode, choice, nil
}
