package openclaw

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/sessctl/sessctl/internal/problem"
	"github.com/sessctl/sessctl/internal/sessfmt"
)

// IsStore says whether path is an OpenClaw state folder, one agent's
// folder or its sessions folder (sessfmt.StoreChecker).
func (Format) IsStore(path string) bool {
	fi, err := os.Stat(path)
	if err != nil || !fi.IsDir() {
		return false
	}
	return Detect(path)
}

// CheckStore reports the state-level problems of every agent of the store
// (the sessions.json index, entries without transcripts, archives, locks)
// and lists its live transcripts (indexed or orphaned), which are pi files
// check then checks one by one (sessfmt.StoreChecker).
func (Format) CheckStore(path string, opts sessfmt.CheckOptions) ([]problem.Problem, []string, error) {
	st, err := Open(path)
	if err != nil {
		return nil, nil, err
	}
	ps := st.Check(opts.When())
	// Name the transcripts under the folder as the user named it: a
	// relative argument gives relative paths.
	abs, _ := filepath.Abs(path)
	var members []string
	for _, a := range st.Agents {
		ts, err := a.Transcripts()
		if err != nil {
			continue
		}
		for _, t := range ts {
			if t.Status != StatusActive && t.Status != StatusOrphan {
				continue
			}
			p := t.Path
			if r, err := filepath.Rel(abs, p); err == nil && !strings.HasPrefix(r, "..") && !filepath.IsAbs(path) {
				p = filepath.Join(path, r)
			}
			members = append(members, p)
		}
	}
	return ps, members, nil
}
