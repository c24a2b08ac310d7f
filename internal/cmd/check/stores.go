package check

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/sessctl/sessctl/internal/format/openclaw"
	"github.com/sessctl/sessctl/internal/format/opencode"
	"github.com/sessctl/sessctl/internal/problem"
)

// StoreChecker checks a store that is not one file per session: an OpenCode
// data folder, storage tree or database, or an OpenClaw state folder.
type StoreChecker struct {
	Agent  string
	Detect func(path string) bool
	// Check returns the store's own problems, located in their messages.
	Check func(path string, opts *Options) ([]problem.Problem, error)
	// Files lists session files inside the store that the file checkers
	// handle (OpenClaw's pi transcripts), nil for none.
	Files func(path string) []string
}

// StoreCheckers are tried, in order, on every argument before it is taken
// as a session file or searched as a folder.
var StoreCheckers = []StoreChecker{
	{Agent: "opencode", Detect: isOpenCode, Check: checkOpenCode},
	{Agent: "openclaw", Detect: isOpenClawState, Check: checkOpenClaw, Files: openClawFiles},
}

func storeChecker(path string) *StoreChecker {
	for i := range StoreCheckers {
		if StoreCheckers[i].Detect(path) {
			return &StoreCheckers[i]
		}
	}
	return nil
}

// checkStore checks a store argument and lists the session files it holds;
// ok is false when path is not a store.
func checkStore(path string, opts *Options) (r FileResult, members []string, ok bool) {
	sc := storeChecker(path)
	if sc == nil {
		return FileResult{}, nil, false
	}
	if sc.Files != nil {
		members = sc.Files(path)
	}
	r = FileResult{Path: path, Agent: sc.Agent, Problems: []problem.Problem{}}
	ps, err := sc.Check(path, opts)
	if err != nil {
		r.Error = err.Error()
		return r, members, true
	}
	r.Problems = append(r.Problems, ps...)
	return r, members, true
}

func isOpenCode(path string) bool {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() && isOpenClawState(path) {
		return false
	}
	return opencode.Detect(path)
}

func checkOpenCode(path string, _ *Options) ([]problem.Problem, error) {
	s, err := opencode.Open(path)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	var out []problem.Problem
	for _, p := range s.Check() {
		out = append(out, p.Located(path))
	}
	return out, nil
}

// isOpenClawState: an OpenClaw state folder (with agents/) or one agent's
// folder or sessions folder, recognised by sessions.json or an agent database.
func isOpenClawState(path string) bool {
	fi, err := os.Stat(path)
	if err != nil || !fi.IsDir() {
		return false
	}
	return openclaw.Detect(path)
}

func checkOpenClaw(path string, _ *Options) ([]problem.Problem, error) {
	st, err := openclaw.Open(path)
	if err != nil {
		return nil, err
	}
	var out []problem.Problem
	for _, p := range st.Check(time.Now()) {
		out = append(out, p.Located(path))
	}
	return out, nil
}

// openClawFiles lists the live transcripts (pi files) of every agent.
func openClawFiles(path string) []string {
	st, err := openclaw.Open(path)
	if err != nil {
		return nil
	}
	// Report the transcripts under the folder as the user named it: a
	// relative argument gives relative paths.
	abs, _ := filepath.Abs(path)
	var out []string
	for _, a := range st.Agents {
		ts, err := a.Transcripts()
		if err != nil {
			continue
		}
		for _, t := range ts {
			if t.Status == openclaw.StatusActive || t.Status == openclaw.StatusOrphan {
				p := t.Path
				if r, err := filepath.Rel(abs, p); err == nil && !strings.HasPrefix(r, "..") && !filepath.IsAbs(path) {
					p = filepath.Join(path, r)
				}
				out = append(out, p)
			}
		}
	}
	return out
}
