package pi

import "strings"

// ProjectFolders are the pi family's project folder names for cwd: pi's
// (PiFolder); oh-my-pi's and xcsh's (OmpFolder) and then pi's legacy form,
// which they still read. nil for another agent.
func (Format) ProjectFolders(agent, cwd, home, tmp string) []string {
	switch agent {
	case "pi":
		return []string{PiFolder(cwd)}
	case "omp", "xcsh":
		return []string{OmpFolder(cwd, home, tmp), PiFolder(cwd)}
	}
	return nil
}

// folderReplacer makes path separators and ":" "-" in a folder name.
var folderReplacer = strings.NewReplacer("/", "-", "\\", "-", ":", "-")

// PiFolder is pi's per-project folder name: "--" + cwd without its
// leading separator, with "/", "\" and ":" made "-", + "--".
func PiFolder(cwd string) string {
	return "--" + folderReplacer.Replace(strings.TrimLeft(cwd, "/\\")) + "--"
}

// OmpFolder is oh-my-pi's (and xcsh's) folder name for a canonical cwd:
// inside home "-" + the relative path with separators and ":" made "-"
// (home itself "-"), inside tmp "-tmp-<rel>" ("-tmp"), otherwise pi's
// legacy form. Inside compares whole path elements.
func OmpFolder(cwd, home, tmp string) string {
	if home != "" && under(cwd, home) {
		if cwd == home {
			return "-"
		}
		return "-" + folderReplacer.Replace(strings.TrimPrefix(cwd, home+"/"))
	}
	if tmp != "" && under(cwd, tmp) {
		if cwd == tmp {
			return "-tmp"
		}
		return "-tmp-" + folderReplacer.Replace(strings.TrimPrefix(cwd, tmp+"/"))
	}
	return PiFolder(cwd)
}

// under reports whether p is base or below it, by whole path elements.
func under(p, base string) bool {
	if p == base {
		return true
	}
	if base == "/" {
		return strings.HasPrefix(p, "/")
	}
	return strings.HasPrefix(p, base+"/")
}
