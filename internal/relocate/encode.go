package relocate

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/sessctl/sessctl/internal/sessfmt"
	"github.com/sessctl/sessctl/internal/sessfmt/formats"
)

// Under reports whether p is base or a path below it, comparing whole path
// elements: "/a/b" is under "/a/b" and "/a", never under "/a/bc". A path
// separator is the OS's (os.IsPathSeparator: '/' on Unix, '\\' and '/' on
// Windows, where a root such as `C:\` ends in one). Names are compared
// byte for byte, also on Windows, whose file systems usually ignore case:
// a differently cased path is not under base there.
func Under(p, base string) bool {
	if p == base {
		return true
	}
	if !strings.HasPrefix(p, base) {
		return false
	}
	if base != "" && os.IsPathSeparator(base[len(base)-1]) {
		return true // base is a root ("/", `C:\`)
	}
	return len(p) > len(base) && os.IsPathSeparator(p[len(base)])
}

// Map returns p with its prefix old replaced by new when p is old or below
// it (whole path elements only), and whether it did.
func Map(p, old, new string) (string, bool) {
	if !Under(p, old) {
		return p, false
	}
	if p == old {
		return new, true
	}
	return filepath.Join(new, strings.TrimPrefix(p, old)), true
}

// realOr is the symlink-resolved path, or p when it cannot be resolved.
func realOr(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// folders are the names an agent may have given the project folder of cwd
// (the first is the one it uses now), as the format of the agent gives
// them (sessfmt.ProjectFolderer); nil for an agent that keeps no project
// folders (OpenCode, OpenClaw, Agent Core).
func (p *planner) folders(agent, cwd string) []string {
	fs := p.formats
	if fs == nil {
		fs = formats.All(nil)
	}
	for _, f := range fs {
		if pf, ok := f.(sessfmt.ProjectFolderer); ok {
			if names := pf.ProjectFolders(agent, cwd, p.home, p.tmp); names != nil {
				return names
			}
		}
	}
	return nil
}

func tempDir() string { return realOr(filepath.Clean(os.TempDir())) }
