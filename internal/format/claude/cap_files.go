package claude

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/sessctl/sessctl/internal/sessfmt"
)

var _ sessfmt.Filer = Format{}

// SessionFiles lists what Claude Code keeps for a session: the transcript
// <home>/projects/<project>/<id>.jsonl; the folder <id>/ beside it
// (subagents/, tool-results/, anything else in it); and, outside projects/,
// file-history/<id>/, session-env/<id>/ and debug/<id>.txt. Older
// agent-*.jsonl subagent files beside the transcript belong to it when
// their lines carry its id. Paths that do not exist are left out.
func (Format) SessionFiles(ref sessfmt.Ref) ([]sessfmt.FileUse, error) {
	p := ref.Path
	out := []sessfmt.FileUse{{Path: p, Kind: "transcript"}}
	id := strings.TrimSuffix(filepath.Base(p), ".jsonl")
	if strings.HasPrefix(id, "agent-") {
		return out, nil // a subagent transcript on its own (orphaned)
	}
	dir := filepath.Join(filepath.Dir(p), id)
	if ents, err := os.ReadDir(dir); err == nil {
		for _, e := range ents {
			kind := "session-folder"
			switch e.Name() {
			case "subagents":
				kind = "subagents"
			case "tool-results":
				kind = "tool-results"
			}
			out = append(out, sessfmt.FileUse{Path: filepath.Join(dir, e.Name()), Kind: kind})
		}
	}
	if subs, err := subagentPaths(p); err == nil {
		for _, s := range subs {
			if filepath.Dir(s) == filepath.Dir(p) { // the older layout, beside the transcript
				out = append(out, sessfmt.FileUse{Path: s, Kind: "subagents"})
			}
		}
	}
	// <home>/projects/<project>/<id>.jsonl
	projects := filepath.Dir(filepath.Dir(p))
	if filepath.Base(projects) == "projects" && id != "" {
		home := filepath.Dir(projects)
		for _, x := range []struct{ path, kind string }{
			{filepath.Join(home, "file-history", id), "file-history"},
			{filepath.Join(home, "session-env", id), "session-env"},
			{filepath.Join(home, "debug", id+".txt"), "debug"},
		} {
			if _, err := os.Lstat(x.path); err == nil {
				out = append(out, sessfmt.FileUse{Path: x.path, Kind: x.kind})
			}
		}
	}
	return out, nil
}
