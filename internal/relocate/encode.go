package relocate

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/sessctl/sessctl/internal/format/claude"
)

// Under reports whether p is base or a path below it, comparing whole path
// elements: "/a/b" is under "/a/b" and "/a", never under "/a/bc".
func Under(p, base string) bool {
	if p == base {
		return true
	}
	if base == "/" {
		return strings.HasPrefix(p, "/")
	}
	return strings.HasPrefix(p, base+"/")
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

// piFolder is pi's per-project folder name: "--" + cwd without its leading
// separator, with "/", "\" and ":" made "-", + "--".
func piFolder(cwd string) string {
	s := strings.TrimLeft(cwd, "/\\")
	s = strings.NewReplacer("/", "-", "\\", "-", ":", "-").Replace(s)
	return "--" + s + "--"
}

// ompFolder is oh-my-pi's (and xcsh's) folder name for a canonical cwd:
// inside $HOME "-" + the relative path with separators and ":" made "-"
// (home itself "-"), inside the temp folder "-tmp-<rel>" ("-tmp"),
// otherwise pi's legacy form.
func ompFolder(cwd, home, tmp string) string {
	rep := strings.NewReplacer("/", "-", "\\", "-", ":", "-")
	if home != "" && Under(cwd, home) {
		if cwd == home {
			return "-"
		}
		return "-" + rep.Replace(strings.TrimPrefix(cwd, home+"/"))
	}
	if tmp != "" && Under(cwd, tmp) {
		if cwd == tmp {
			return "-tmp"
		}
		return "-tmp-" + rep.Replace(strings.TrimPrefix(cwd, tmp+"/"))
	}
	return piFolder(cwd)
}

// realOr is the symlink-resolved path, or p when it cannot be resolved.
func realOr(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// folders are the names an agent may have given the project folder of cwd
// (the first is the one it uses now).
func (p *planner) folders(agent, cwd string) []string {
	switch agent {
	case "claude":
		return []string{claude.ProjectDirName(cwd)}
	case "pi":
		return []string{piFolder(cwd)}
	case "omp", "xcsh":
		return []string{ompFolder(cwd, p.home, p.tmp), piFolder(cwd)}
	}
	return nil
}

func tempDir() string { return realOr(filepath.Clean(os.TempDir())) }
