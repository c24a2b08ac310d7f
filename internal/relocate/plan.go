// Package relocate moves the session history of a project folder that was
// renamed or moved from OLD to NEW, for every agent that keys sessions by
// their working directory (docs/relocate.md).
//
// A Plan is made from the discovered sessions (package discover) and is a
// list of steps, each atomic on its own: move a file or folder from OLD's
// project folder to NEW's (rename(2) without replacing; a folder that
// exists is merged entry by entry, never nested), rewrite the cwd of a
// session file through package safewrite, or remove an emptied folder.
// Steps are ordered so that a run killed at any point leaves a state from
// which a new plan completes the job, and a plan made after a complete run
// is empty. What sessctl must not change (other programs' databases,
// Claude Code's ~/.claude.json and history.jsonl) is reported with the way
// to move it.
package relocate

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/sessctl/sessctl/internal/discover"
	"github.com/sessctl/sessctl/internal/sessfmt"
)

// Step actions.
const (
	ActMove      = "move"       // rename a file or folder (merging folders)
	ActRewrite   = "rewrite"    // rewrite cwd (and OLD paths) in a session file
	ActRemoveDir = "remove-dir" // remove a project folder left empty
)

// Step is one atomic change.
type Step struct {
	Agent  string `json:"agent"`
	Action string `json:"action"`
	// Path is the file or folder the step changes (for a move, where it is).
	Path string `json:"path"`
	// To is where a move puts it.
	To string `json:"to,omitempty"`
	// Detail says what a rewrite changes.
	Detail string `json:"detail,omitempty"`
	// Status is "planned" (dry run), "done", "already-done" or "failed".
	Status string `json:"status"`
	Error  string `json:"error,omitempty"`
	// header is true for a pi-family rewrite (the header line only).
	header bool
	// folders maps old project folders to new ones (pi headers name
	// their parent session by path).
	folders map[string]string
	// deps are the moves (step indexes) a rewrite depends on: when one
	// failed, the rewrite is skipped (the path may be another file).
	deps []int
}

// Report is something that refers to OLD that relocate does not change.
type Report struct {
	Agent string `json:"agent"`
	Path  string `json:"path"`
	// What refers to OLD.
	What string `json:"what"`
	// How to move it.
	How string `json:"how"`
}

// Plan is the full plan of a relocation.
type Plan struct {
	Old      string   `json:"old"`
	New      string   `json:"new"`
	Sessions int      `json:"sessions"`
	Steps    []Step   `json:"steps"`
	Reports  []Report `json:"reports"`
}

// Input is what a plan is made from.
type Input struct {
	Old, New string
	// Sessions are the discovered sessions (files and stores).
	Sessions []*discover.Session
	// Env gives $HOME, $CLAUDE_CONFIG_DIR and the agents' roots.
	Env discover.Env
	// Roots are the agents' session roots: OLD's project folders in them
	// are emptied and removed even when no session is left in them (a
	// run killed after the last session moved).
	Roots []discover.Root
	// Formats name the agents' project folders (sessfmt.ProjectFolderer);
	// nil is every format (formats.All).
	Formats []sessfmt.Format
}

type planner struct {
	in          Input
	home, tmp   string
	plan        *Plan
	moved       map[string]string // planned folder/file moves, old → new
	folderMap   map[string]string // old project folder → new one
	folderAgent map[string]string
	formats     []sessfmt.Format
}

// Clean makes a project path absolute and clean (symlinks are not resolved:
// OLD usually no longer exists).
func Clean(p string) (string, error) {
	if !filepath.IsAbs(p) {
		wd, err := os.Getwd()
		if err != nil {
			return "", err
		}
		p = filepath.Join(wd, p)
	}
	return filepath.Clean(p), nil
}

// Make builds the plan. It reads the file system but changes nothing.
func Make(in Input) (*Plan, error) {
	if in.Old == in.New {
		return nil, fmt.Errorf("OLD and NEW are the same folder")
	}
	if Under(in.New, in.Old) || Under(in.Old, in.New) {
		return nil, fmt.Errorf("%s and %s are inside one another; relocate moves a project to a folder outside the old one", in.Old, in.New)
	}
	p := &planner{in: in, plan: &Plan{Old: in.Old, New: in.New, Steps: []Step{}, Reports: []Report{}},
		moved: map[string]string{}, folderMap: map[string]string{}, folderAgent: map[string]string{}, tmp: tempDir(), formats: in.Formats}
	if h := in.Env.Home(); h != "" {
		p.home = realOr(filepath.Clean(h))
	}
	var files []*discover.Session
	for _, s := range in.Sessions {
		if !Under(s.Cwd, in.Old) {
			continue
		}
		switch s.Agent {
		case "pi", "omp", "xcsh", "claude":
			if strings.Contains(s.Path, "#") {
				continue
			}
			files = append(files, s)
		case "opencode":
			p.report(s.Agent, s.Path, fmt.Sprintf("session %s has directory %s", s.ID, s.Cwd),
				"OpenCode keeps the folder in its database, which sessctl does not write; it finds a git project by its first commit, so a moved repository keeps its sessions (run opencode in NEW); otherwise its sessions stay listed under the old folder")
		case "openclaw":
			p.report(s.Agent, s.Path, fmt.Sprintf("session %s records cwd %s", s.ID, s.Cwd),
				"OpenClaw keys sessions by agent and session key, not by folder: nothing moves; if an agent's workspace was OLD, change it in OpenClaw's config (openclaw.json, agents.*.workspace)")
		}
	}
	// Top-level session files first (a nested transcript moves with its
	// session's folder), then by path for a stable plan.
	sort.SliceStable(files, func(i, j int) bool {
		di, dj := strings.Count(files[i].Path, "/"), strings.Count(files[j].Path, "/")
		if di != dj {
			return di < dj
		}
		return files[i].Path < files[j].Path
	})
	for _, s := range files {
		p.planFile(s)
	}
	for _, r := range in.Roots {
		fs := p.folders(r.Agent, in.Old)
		for _, f := range fs {
			d := filepath.Join(filepath.Clean(r.Path), f)
			if _, ok := p.folderMap[d]; ok {
				continue
			}
			if st, err := os.Stat(d); err == nil && st.IsDir() {
				p.folderMap[d] = filepath.Join(filepath.Clean(r.Path), p.folders(r.Agent, in.New)[0])
				p.folderAgent[d] = r.Agent
			}
		}
	}
	p.sweepFolders()
	p.planClaudeReports()
	p.plan.Sessions = len(files)
	return p.plan, nil
}

func (p *planner) report(agent, path, what, how string) {
	p.plan.Reports = append(p.plan.Reports, Report{Agent: agent, Path: path, What: what, How: how})
}

// where is the planned location of path after the moves planned so far.
func (p *planner) where(path string) string {
	for dir := path; ; {
		if to, ok := p.moved[dir]; ok {
			rel := strings.TrimPrefix(path, dir)
			return to + rel
		}
		next := filepath.Dir(dir)
		if next == dir {
			return path
		}
		dir = next
	}
}

func (p *planner) add(s Step) int {
	s.Status = "planned"
	p.plan.Steps = append(p.plan.Steps, s)
	return len(p.plan.Steps) - 1
}

// planFile plans one session file: the move of it (and of the folder of
// the same name holding its subagents and tool output) into NEW's project
// folder when it lies in OLD's, then the rewrite of its cwd.
func (p *planner) planFile(s *discover.Session) {
	newCwd, _ := Map(s.Cwd, p.in.Old, p.in.New)
	path := p.where(s.Path)
	dir := filepath.Dir(path)
	root := filepath.Clean(s.Root)
	main := path
	var deps []int
	// sideAt is where the folder of the same name (subagents, tool
	// results, artifacts) is now; sideTo where it goes.
	sideAt := strings.TrimSuffix(s.Path, ".jsonl")
	type pair struct{ from, to string }
	var pairs []pair
	if filepath.Dir(dir) == root {
		// The session's own folder, and OLD's folder for a session of a
		// subfolder kept there.
		for _, c := range [][2]string{{s.Cwd, newCwd}, {p.in.Old, p.in.New}} {
			for _, f := range p.folders(s.Agent, c[0]) {
				pairs = append(pairs, pair{filepath.Join(root, f), filepath.Join(root, p.folders(s.Agent, c[1])[0])})
			}
		}
	}
	for _, pr := range pairs {
		oldFolder, newFolder := pr.from, pr.to
		{
			if main != path {
				break
			}
			switch {
			case dir == oldFolder && oldFolder != newFolder:
				to := filepath.Join(newFolder, filepath.Base(path))
				deps = append(deps, p.add(Step{Agent: s.Agent, Action: ActMove, Path: path, To: to}))
				p.moved[path] = to
				p.folderMap[dir] = newFolder
				p.folderAgent[dir] = s.Agent
				main = to
			case dir == newFolder && oldFolder != newFolder:
				// Moved by a run that stopped before its folder of the
				// same name followed.
				if _, err := os.Lstat(filepath.Join(oldFolder, filepath.Base(sideAt))); err == nil {
					sideAt = filepath.Join(oldFolder, filepath.Base(sideAt))
				}
				if st, err := os.Stat(oldFolder); err == nil && st.IsDir() {
					p.folderMap[oldFolder] = newFolder
					p.folderAgent[oldFolder] = s.Agent
				}
			}
		}
	}
	sideTo := strings.TrimSuffix(main, ".jsonl")
	if st, err := os.Lstat(sideAt); err == nil && st.IsDir() && sideAt != sideTo {
		deps = append(deps, p.add(Step{Agent: s.Agent, Action: ActMove, Path: sideAt, To: sideTo}))
		p.moved[sideAt] = sideTo
	}
	detail := fmt.Sprintf("cwd %s → %s", s.Cwd, newCwd)
	if s.Agent == "claude" {
		// Subagent transcripts first, the main transcript last: once the
		// main one is rewritten, discovery no longer finds the session
		// under OLD, so everything else must be done by then.
		subs, _ := filepath.Glob(filepath.Join(sideAt, "subagents", "*.jsonl"))
		for _, sub := range subs {
			at := filepath.Join(sideTo, "subagents", filepath.Base(sub))
			p.add(Step{Agent: s.Agent, Action: ActRewrite, Path: at, Detail: "cwd of every record under " + p.in.Old, deps: deps})
		}
		p.add(Step{Agent: s.Agent, Action: ActRewrite, Path: main, Detail: "cwd of every record under " + p.in.Old, deps: deps})
		return
	}
	p.add(Step{Agent: s.Agent, Action: ActRewrite, Path: main, Detail: "header " + detail, header: true, folders: p.folderMap, deps: deps})
}

// sweepFolders plans, for each project folder sessions moved out of, the
// move of what else it holds (Claude Code's memory/, …) when every session
// in it moved, and its removal.
func (p *planner) sweepFolders() {
	var dirs []string
	for d := range p.folderMap {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	for _, d := range dirs {
		to := p.folderMap[d]
		entries, err := os.ReadDir(d)
		if err != nil {
			continue
		}
		stays := false
		var rest []string
		for _, e := range entries {
			path := filepath.Join(d, e.Name())
			if _, ok := p.moved[path]; ok {
				continue
			}
			if strings.HasSuffix(e.Name(), ".jsonl") && e.Type().IsRegular() {
				stays = true // a session of another project (lossy names)
				continue
			}
			if strings.HasPrefix(e.Name(), ".") {
				continue // locks, temps: the agents' and sessctl's own
			}
			rest = append(rest, path)
		}
		if stays {
			continue
		}
		agent := p.folderAgent[d]
		for _, r := range rest {
			if st, err := os.Lstat(r); err == nil && st.IsDir() {
				if _, err := os.Lstat(r + ".jsonl"); err == nil {
					continue // a session folder whose session stays
				}
			}
			p.add(Step{Agent: agent, Action: ActMove, Path: r, To: filepath.Join(to, filepath.Base(r))})
			p.moved[r] = filepath.Join(to, filepath.Base(r))
		}
		p.add(Step{Agent: agent, Action: ActRemoveDir, Path: d, Detail: "emptied project folder"})
	}
}

// planClaudeReports notes the files Claude Code keys by the project path
// that relocate leaves alone.
func (p *planner) planClaudeReports() {
	cfg := p.in.Env.Get("CLAUDE_CONFIG_DIR")
	var claudeJSON, history string
	if cfg != "" {
		cfg = p.in.Env.ExpandHome(cfg)
		claudeJSON = filepath.Join(cfg, ".claude.json")
		history = filepath.Join(cfg, "history.jsonl")
	} else if h := p.in.Env.Home(); h != "" {
		claudeJSON = filepath.Join(h, ".claude.json")
		history = filepath.Join(h, ".claude", "history.jsonl")
	}
	if claudeJSON != "" {
		if keys := claudeProjectKeys(claudeJSON, p.in.Old); len(keys) > 0 {
			p.report("claude", claudeJSON, fmt.Sprintf("project entries %s (trust, allowed tools, MCP servers)", strings.Join(keys, ", ")),
				"Claude Code starts a fresh entry for NEW; to keep the settings, rename the key(s) under \"projects\" in this file while no claude process runs")
		}
	}
	if history != "" {
		if n := historyLines(history, p.in.Old); n > 0 {
			p.report("claude", history, fmt.Sprintf("%d prompt-history lines with project under %s", n, p.in.Old),
				"Claude Code recalls prompts (↑) per project; those lines stay tied to OLD unless their \"project\" is edited while no claude process runs")
		}
	}
}
