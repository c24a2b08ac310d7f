package prune

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Belongings are the files that belong to one session file, and the
// folders that hold only such files (removed once empty).
type Belongings struct {
	Files []string
	Dirs  []string
	Bytes int64
}

// belongs lists what belongs to the session file path of agent (extra:
// what its format lists, files or folders, merged in):
//   - every agent: the file, sessctl's sidecar <file>.rejected.jsonl and
//     backups <file>.sessctl-*.bak;
//   - the folder of the same name without .jsonl (Claude Code subagents/
//     and tool-results/, oh-my-pi subagent transcripts and artifacts);
//   - Claude Code, in its config folder (the parent of projects/):
//     file-history/<id>/, session-env/<id>/, debug/<id>.txt and
//     todos/<id>-*.json.
//
// oh-my-pi blobs are shared between sessions and stay in the store
// (`sessctl blob gc` removes those nothing refers to).
func belongs(agent, path, id, root string, extra []string) Belongings {
	var b Belongings
	seen := map[string]bool{}
	addFile := func(p string) {
		st, err := os.Lstat(p)
		if err != nil || !st.Mode().IsRegular() || seen[p] {
			return
		}
		seen[p] = true
		b.Files = append(b.Files, p)
		b.Bytes += st.Size()
	}
	addDir := func(d string) {
		st, err := os.Lstat(d)
		if err != nil || !st.IsDir() {
			return
		}
		b.Dirs = append(b.Dirs, d)
		filepath.WalkDir(d, func(p string, e fs.DirEntry, err error) error {
			if err == nil && e.Type().IsRegular() {
				addFile(p)
			}
			return nil
		})
	}
	addFile(path)
	addFile(path + ".rejected.jsonl")
	if m, _ := filepath.Glob(globEscape(path) + ".sessctl-*.bak"); len(m) > 0 {
		for _, p := range m {
			addFile(p)
		}
	}
	addDir(strings.TrimSuffix(path, ".jsonl"))
	for _, p := range extra {
		if st, err := os.Lstat(p); err == nil && st.IsDir() {
			addDir(p)
		} else {
			addFile(p)
		}
	}
	if agent == "claude" && id != "" && !strings.ContainsAny(id, `/\*?[`) {
		cfg := filepath.Dir(filepath.Clean(root))
		addDir(filepath.Join(cfg, "file-history", id))
		addDir(filepath.Join(cfg, "session-env", id))
		addFile(filepath.Join(cfg, "debug", id+".txt"))
		if m, _ := filepath.Glob(filepath.Join(cfg, "todos", id+"-*.json")); len(m) > 0 {
			for _, p := range m {
				addFile(p)
			}
		}
	}
	if len(b.Files) > 1 {
		sort.Strings(b.Files[1:])
	}
	return b
}

func globEscape(p string) string {
	r := strings.NewReplacer(`*`, `\*`, `?`, `\?`, `[`, `\[`, `\`, `\\`)
	return r.Replace(p)
}
