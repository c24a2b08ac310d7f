package claude

import (
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"unicode/utf16"

	"github.com/sessctl/sessctl/internal/fsx"
)

// maxSanitized is Claude Code's cap on an encoded project folder name
// before a hash suffix is added.
const maxSanitized = 200

// ProjectDirName encodes a working directory into a project folder name as
// Claude Code does: every UTF-16 code unit outside [A-Za-z0-9] becomes '-';
// a result over 200 characters is cut to 200 and suffixed with '-' and the
// base-36 absolute value of a 32-bit string hash (h = h*31 + unit) of the
// original path. The cwd must already be the real, NFC-normalised path. The
// encoding is lossy; never decode a folder name back into a path.
func ProjectDirName(cwd string) string {
	units := utf16.Encode([]rune(cwd))
	out := make([]byte, len(units))
	for i, u := range units {
		if u < 128 && (u >= 'a' && u <= 'z' || u >= 'A' && u <= 'Z' || u >= '0' && u <= '9') {
			out[i] = byte(u)
		} else {
			out[i] = '-'
		}
	}
	if len(out) <= maxSanitized {
		return string(out)
	}
	var h int32
	for _, u := range units {
		h = (h << 5) - h + int32(u)
	}
	abs := int64(h)
	if abs < 0 {
		abs = -abs
	}
	return string(out[:maxSanitized]) + "-" + strconv.FormatInt(abs, 36)
}

// ConfigDir is the Claude Code config root: $CLAUDE_CONFIG_DIR, else
// ~/.claude.
func ConfigDir(getenv func(string) string) string {
	if d := getenv("CLAUDE_CONFIG_DIR"); d != "" {
		return d
	}
	if h := fsx.Home(getenv); h != "" {
		return filepath.Join(h, ".claude")
	}
	return ""
}

// FindSession looks a session id up in every project folder under
// <configDir>/projects (sessions move between folders on /cd and worktree
// changes) and returns the matching regular, non-empty files.
func FindSession(configDir, id string) ([]string, error) {
	if id == "" {
		return nil, nil
	}
	pattern := filepath.Join(configDir, "projects", "*", id+".jsonl")
	m, err := filepath.Glob(pattern)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, p := range m {
		st, err := os.Stat(p)
		if err != nil || !st.Mode().IsRegular() || st.Size() == 0 {
			continue
		}
		out = append(out, p)
	}
	sort.Strings(out)
	return out, nil
}
