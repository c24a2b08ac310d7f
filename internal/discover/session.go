package discover

import (
	"path/filepath"
	"strings"
	"time"

	"github.com/sessctl/sessctl/internal/sessfmt"
)

// Session is one listed session file. Its JSON form is what
// `sessctl list --json` prints (see docs/list.md).
type Session struct {
	Agent  string `json:"agent"`
	Format string `json:"format"`
	// Dialect is the pi-family dialect (pi, omp, xcsh) found in the file.
	Dialect string `json:"dialect,omitempty"`
	// ID is the session id from the file (header id; Claude: the file name
	// uuid). Files without one get the id from their file name.
	ID   string `json:"id"`
	Path string `json:"path"`
	Root string `json:"root"`
	// Cwd is the project folder written in the file (never decoded from the
	// folder name).
	Cwd string `json:"cwd"`
	// Title is the session's name or title when it has one, else the first
	// line of the first user message.
	Title        string `json:"title"`
	TitleSource  string `json:"titleSource,omitempty"` // name, title, first-message, …
	FirstMessage string `json:"firstMessage"`
	Messages     int    `json:"messages"`
	Entries      int    `json:"entries"`
	Bytes        int64  `json:"bytes"`
	// Created is when the session started (null when unknown).
	Created *time.Time `json:"created"`
	// Modified is the last activity (see docs/list.md), never null.
	Modified time.Time `json:"modified"`
	// MTime is the file's modification time.
	MTime time.Time `json:"mtime"`
	// ParentSession is the session this one was forked from (a path), null
	// when none.
	ParentSession *string `json:"parentSession"`
	// SubagentOf is the session file a nested subagent transcript belongs to.
	SubagentOf string `json:"subagentOf,omitempty"`
	// Sidechain marks a Claude Code file holding only sidechain records (a
	// subagent transcript); list hides these unless --all.
	Sidechain bool `json:"sidechain,omitempty"`
	// Orphaned marks a subagent transcript whose main transcript is gone
	// (SubagentOf names the missing file); list shows it even without --all.
	Orphaned bool `json:"orphaned,omitempty"`
	// ContinuedIn is the session this one was resumed into (Claude Code's
	// continued-in record), "" when none.
	ContinuedIn string `json:"continuedIn,omitempty"`
	// OpenClaw is what the agent's sessions.json says (OpenClaw rows only).
	OpenClaw *OpenClawInfo `json:"openclaw,omitempty"`
	// OpenCode holds OpenCode's own fields (OpenCode rows only).
	OpenCode *OpenCodeInfo `json:"opencode,omitempty"`
	// Problems is the number of errors and warnings check reports for the
	// session (sessfmt.VerdictOf; the lister's own count when the registry
	// cannot open it); ProblemCodes counts them by code.
	Problems     int            `json:"problems"`
	ProblemCodes map[string]int `json:"problemCodes,omitempty"`
}

// clampTimes moves the row's times into years 0-9999, which list --json
// and the list cache can write (sessfmt.ClampPrintable): a file's mtime
// is whatever its file system holds, and one file must not make the
// whole list fail. Times read from a session are already printable
// (sessfmt.UnixMilli); a Modified that fell back on the mtime may not be.
func (s *Session) clampTimes() {
	s.MTime = sessfmt.ClampPrintable(s.MTime)
	s.Modified = sessfmt.ClampPrintable(s.Modified)
	if s.Created != nil && !sessfmt.PrintableTime(*s.Created) {
		c := sessfmt.ClampPrintable(*s.Created)
		s.Created = &c
	}
}

// ShortID is the first 8 characters of the id.
func (s *Session) ShortID() string {
	if len(s.ID) > 8 {
		return s.ID[:8]
	}
	return s.ID
}

// IDFromFileName derives a session id from a file name: pi-family files are
// named <timestamp>_<id>.jsonl, Claude files <uuid>.jsonl.
func IDFromFileName(path string) string {
	base := strings.TrimSuffix(filepath.Base(path), ".jsonl")
	if i := strings.LastIndexByte(base, '_'); i >= 0 && i+1 < len(base) {
		return base[i+1:]
	}
	return base
}
