// Package sessopen opens a session for a reading command: index it,
// report what the reader saw on stderr, refuse a file without a valid header
// with the reason, and resolve --leaf.
package sessopen

import (
	"fmt"

	"github.com/sessctl/sessctl/internal/cmdutil"
	"github.com/sessctl/sessctl/internal/format/pi"
	"github.com/sessctl/sessctl/internal/iostreams"
	"github.com/sessctl/sessctl/internal/render"
	"github.com/sessctl/sessctl/internal/tree"
)

// Pi indexes a pi-family file in the given dialect ("auto" or "" detects), prints the
// problems on stderr (unless -q), and returns the file and the leaf named by
// leafArg (tree.None when empty). An unknown or ambiguous leaf is a usage
// error (exit 2); a file without a valid header is an error (exit 1).
func Pi(ios *iostreams.IOStreams, path, dialect, leafArg string) (*pi.File, int, error) {
	d, _ := pi.ParseDialect(dialect)
	f, err := pi.Open(path, pi.Options{Dialect: d})
	if err != nil {
		return nil, tree.None, err
	}
	if !ios.Quiet() {
		render.Diagnostics(ios.ErrOut, path, f.Problems, render.NewStyles(ios), 20)
	}
	if f.HeaderErr != nil {
		return nil, tree.None, fmt.Errorf("%s is not a valid %s session file: %v; nothing was changed (sessctl check %s explains, sessctl repair --rebuild-header can rebuild it)",
			path, f.Dialect, f.HeaderErr, path)
	}
	leaf := tree.None
	if leafArg != "" {
		if leaf, err = f.FindEntry(leafArg); err != nil {
			return nil, tree.None, cmdutil.UsageErrorf("--leaf: %v", err)
		}
	}
	return f, leaf, nil
}
