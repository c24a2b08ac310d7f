// Package prune selects old, large, surplus or empty sessions and moves
// them, with everything that belongs to them, into sessctl's archive
// (package archive), or deletes them when asked. It never touches a live
// session (held agent lock, a process with one of its files open, Claude
// Code's sessions/<pid>.json naming it, a recent modification) and never
// silently breaks lineage (a session another staying session names as its
// parent). Sessions kept in another program's database or index (OpenCode,
// OpenClaw) are only reported, with the agent's own command.
package prune

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/sessctl/sessctl/internal/agentlock"
	"github.com/sessctl/sessctl/internal/archive"
	"github.com/sessctl/sessctl/internal/discover"
	"github.com/sessctl/sessctl/internal/format/claude"
	"github.com/sessctl/sessctl/internal/safewrite"
)

// Criteria select sessions; every criterion given must hold.
type Criteria struct {
	OlderThan  time.Duration // last activity longer ago than this
	LargerThan int64         // bytes, with everything that belongs to it
	Keep       int           // keep the N most recent per project (-1: unset)
	Empty      bool          // no conversation (no message)
	// Force prunes a session that a staying session names as its parent.
	Force bool
	// Files, when set, lists what the session's format says belongs to
	// it (sessfmt.Filer through the registry): paths of files or folders,
	// and the number of shared blobs it refers to (they stay in their
	// store). It is merged with sessctl's own list (belongs).
	Files func(s *discover.Session) (paths []string, sharedBlobs int)
}

// Any reports whether a selecting criterion is set.
func (c Criteria) Any() bool { return c.OlderThan > 0 || c.LargerThan > 0 || c.Keep >= 0 || c.Empty }

// Candidate is a selected session and what becomes of it.
type Candidate struct {
	Agent    string    `json:"agent"`
	ID       string    `json:"id"`
	Path     string    `json:"path"`
	Cwd      string    `json:"cwd"`
	Title    string    `json:"title"`
	Modified time.Time `json:"modified"`
	Messages int       `json:"messages"`
	// Files are the session file and everything that belongs to it.
	Files []string `json:"files"`
	Bytes int64    `json:"bytes"`
	// SharedBlobs is the number of blobs of a shared store it refers to:
	// they stay (`sessctl blob gc` removes blobs nothing refers to).
	SharedBlobs int `json:"sharedBlobs,omitempty"`
	// Reasons are the criteria it matched.
	Reasons []string `json:"reasons"`
	// Status: would-archive, would-delete, archived, deleted, refused,
	// report-only, failed.
	Status string `json:"status"`
	// Why it is refused (live, lineage) or failed.
	Why string `json:"why,omitempty"`
	// Command is the agent's own command (report-only sessions).
	Command string `json:"command,omitempty"`
	// Archive is the archive folder it went to.
	Archive string `json:"archive,omitempty"`

	dirs   []string
	parent string
}

// Select returns the sessions that meet every criterion, newest first
// within each project, with what belongs to them. Subagent transcripts are
// never selected on their own (they go with their session).
func Select(sessions []*discover.Session, c Criteria, now time.Time) []*Candidate {
	var top []*discover.Session
	for _, s := range sessions {
		if s.SubagentOf != "" || s.Sidechain {
			continue
		}
		top = append(top, s)
	}
	sort.SliceStable(top, func(i, j int) bool { return top[i].Modified.After(top[j].Modified) })
	rank := map[*discover.Session]int{}
	perProject := map[string]int{}
	for _, s := range top {
		rank[s] = perProject[s.Cwd]
		perProject[s.Cwd]++
	}
	var out []*Candidate
	for _, s := range top {
		var reasons []string
		if c.OlderThan > 0 {
			if now.Sub(s.Modified) <= c.OlderThan {
				continue
			}
			reasons = append(reasons, "older-than")
		}
		if c.Keep >= 0 {
			if rank[s] < c.Keep {
				continue
			}
			reasons = append(reasons, fmt.Sprintf("beyond the %d most recent of its project", c.Keep))
		}
		if c.Empty {
			if s.Messages > 0 {
				continue
			}
			reasons = append(reasons, "empty")
		}
		cand := &Candidate{Agent: s.Agent, ID: s.ID, Path: s.Path, Cwd: s.Cwd, Title: s.Title, Modified: s.Modified,
			Messages: s.Messages, Reasons: reasons}
		if s.ParentSession != nil {
			cand.parent = *s.ParentSession
		}
		if dbKept(s) {
			cand.Bytes = s.Bytes
			cand.Files = []string{s.Path}
		} else {
			var extra []string
			if c.Files != nil {
				extra, cand.SharedBlobs = c.Files(s)
			}
			b := belongs(s.Agent, s.Path, s.ID, s.Root, extra)
			cand.Files, cand.dirs, cand.Bytes = b.Files, b.Dirs, b.Bytes
		}
		if c.LargerThan > 0 {
			if cand.Bytes <= c.LargerThan {
				continue
			}
			cand.Reasons = append(cand.Reasons, "larger-than")
		}
		out = append(out, cand)
	}
	return out
}

func dbKept(s *discover.Session) bool {
	return s.Agent == "opencode" || s.Agent == "openclaw" || strings.Contains(s.Path, "#")
}

// Guard marks what may not be pruned: sessions kept in an agent's
// database or index (report-only, with its command), live sessions, and
// sessions a staying session names as its parent (unless force). The
// others get "would-archive" or, with del, "would-delete".
func Guard(cands []*Candidate, all []*discover.Session, live *Live, force, del bool) {
	for _, c := range cands {
		switch {
		case c.Agent == "opencode":
			c.Status, c.Command = "report-only", "opencode session delete "+c.ID
			c.Why = "kept in OpenCode's database, which sessctl does not write"
		case c.Agent == "openclaw":
			c.Status, c.Command = "report-only", "openclaw sessions cleanup --dry-run   (then --enforce)"
			c.Why = "indexed by OpenClaw's sessions store (sessions.json or its database), which sessctl does not write"
		default:
			if why := live.Why(c.Agent, c.ID, c.Files); why != "" {
				c.Status, c.Why = "refused", "live: "+why
			} else if del {
				c.Status = "would-delete"
			} else {
				c.Status = "would-archive"
			}
		}
	}
	// Lineage: a session that stays keeps its parent (to a fixpoint:
	// a kept parent stays too).
	// A parent is named by path; the file name (time and id) also
	// matches, so a moved or relocated parent is still found.
	going := map[string]*Candidate{}
	for _, c := range cands {
		if strings.HasPrefix(c.Status, "would-") {
			going[c.Path] = c
			going["name:"+filepath.Base(c.Path)] = c
			if c.Agent == "claude" {
				going["claude:"+c.ID] = c
			}
		}
	}
	type child struct{ id, path, parent, how string }
	var children []child
	for _, s := range all {
		if s.ParentSession != nil && *s.ParentSession != "" {
			children = append(children, child{s.ID, s.Path, *s.ParentSession, "parent"})
		}
		// Claude Code: a session resumed into another names it in a
		// continued-in line (read from the file's tail).
		if s.Agent == "claude" && len(going) > 0 && !strings.Contains(s.Path, "#") {
			if info, err := claude.ListInfo(s.Path); err == nil && info.ContinuedIn != "" {
				children = append(children, child{s.ID, s.Path, "claude:" + info.ContinuedIn, "continued-in target"})
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for _, ch := range children {
			if _, gone := going[ch.path]; gone {
				continue
			}
			p, ok := going[ch.parent]
			if !ok {
				if p, ok = going["name:"+filepath.Base(ch.parent)]; !ok {
					continue
				}
			}
			if force {
				p.Why = appendWhy(p.Why, fmt.Sprintf("lineage broken (--force): %s of %s, which stays", ch.how, ch.id))
				continue
			}
			p.Status, p.Why = "refused", fmt.Sprintf("lineage: %s of %s, which stays (use --force to prune it anyway)", ch.how, ch.id)
			for k, v := range going {
				if v == p {
					delete(going, k)
				}
			}
			changed = true
		}
	}
}

func appendWhy(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// Apply archives (or, with del, deletes) every candidate marked
// would-archive/would-delete. Before anything is removed each file is
// checked again: unchanged since it was archived, no live lock. It returns
// the number of candidates that failed.
func Apply(cands []*Candidate, archiveRoot string, del bool, now time.Time) int {
	failed := 0
	for _, c := range cands {
		if c.Status != "would-archive" && c.Status != "would-delete" {
			continue
		}
		var err error
		if del {
			err = deleteOne(c)
			if err == nil {
				c.Status = "deleted"
			}
		} else {
			err = archiveOne(c, archiveRoot, now)
			if err == nil {
				c.Status = "archived"
			}
		}
		if err != nil {
			c.Status, c.Why = "failed", err.Error()
			failed++
		}
	}
	return failed
}

func archiveOne(c *Candidate, root string, now time.Time) error {
	dir, m, err := archive.Create(root, archive.Manifest{Agent: c.Agent, ID: c.ID, Cwd: c.Cwd, Title: c.Title, Session: c.Path, Reasons: c.Reasons}, c.Files, now)
	if err != nil {
		return err
	}
	c.Archive = dir
	for _, e := range m.Entries {
		if !archive.Unchanged(e) {
			archive.Remove(dir)
			c.Archive = ""
			return fmt.Errorf("%s changed after it was archived: nothing was removed (archive dropped)", e.Path)
		}
	}
	if err := removeFiles(c); err != nil {
		return fmt.Errorf("%w (the archive %s holds every file)", err, dir)
	}
	return nil
}

func deleteOne(c *Candidate) error {
	return removeFiles(c)
}

// removeFiles removes the candidate's files (the session file last, so a
// run that stops midway leaves the session listed) and its emptied
// folders. A live lock on the session file stops it before anything goes.
func removeFiles(c *Candidate) error {
	if len(c.Files) == 0 {
		return nil
	}
	if _, err := agentlock.CheckFree(c.Files[0], agentlock.OMPWait); err != nil {
		return err
	}
	for i := len(c.Files) - 1; i >= 0; i-- {
		if err := os.Remove(c.Files[i]); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	synced := map[string]bool{}
	for _, f := range c.Files {
		d := filepath.Dir(f)
		if !synced[d] {
			synced[d] = true
			safewrite.SyncDir(d)
		}
	}
	for _, d := range c.dirs {
		removeEmptyTree(d)
	}
	return nil
}

// removeEmptyTree removes dir and the folders below it that are empty
// (depth first); anything that is not an empty folder stays.
func removeEmptyTree(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if e.IsDir() {
			removeEmptyTree(filepath.Join(dir, e.Name()))
		}
	}
	if os.Remove(dir) == nil {
		safewrite.SyncDir(filepath.Dir(dir))
	}
}
