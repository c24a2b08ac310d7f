package discover

import (
	"errors"
	"github.com/sessctl/sessctl/internal/format/claude"
	"github.com/sessctl/sessctl/internal/sessfmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Claude Code: $CLAUDE_CONFIG_DIR or ~/.claude, then projects/<encoded>/<uuid>.jsonl
// (../shared/reference/claude-code-format.md §1). Only the listing is
// here, with a minimal one-pass reader (claudelist.go).

func claudeRoots(env Env) []Root {
	if d := env.Get("CLAUDE_CONFIG_DIR"); d != "" {
		return []Root{{Agent: "claude", Path: filepath.Join(env.ExpandHome(d), "projects"), Source: "$CLAUDE_CONFIG_DIR"}}
	}
	if h := env.Home(); h != "" {
		return []Root{{Agent: "claude", Path: filepath.Join(h, ".claude", "projects"), Source: "default"}}
	}
	return nil
}

// claudeFiles lists <root>/<project>/*.jsonl. Subagent transcripts (in
// <session>/subagents/, or legacy agent-*.jsonl next to the sessions) are
// not sessions of their own and are left out, as are Claude Code's side
// files (claude.IsSideFile: resume-head.jsonl, .superseded-<ms> and
// .compact.tmp.* copies).
func claudeFiles(root string, warn func(string, error)) []string {
	var out []string
	for _, p := range walkJSONL(root, 1, warn) {
		rel, err := filepath.Rel(root, p)
		if err != nil || strings.Count(filepath.ToSlash(rel), "/") != 1 {
			continue // only files directly inside a project folder
		}
		if strings.HasPrefix(filepath.Base(p), "agent-") || claude.IsSideFile(filepath.Base(p)) {
			continue // subagents; Claude Code's side files are never sessions
		}
		out = append(out, p)
	}
	// Subagent transcripts whose main transcript is gone are the only
	// trace of that session: list them, marked (issue 11.13).
	subs, _ := filepath.Glob(filepath.Join(root, "*", "*", "subagents", "agent-*.jsonl"))
	for _, p := range subs {
		if orphanedSubagent(p) {
			out = append(out, p)
		}
	}
	return out
}

// subagentParent is the main transcript a <uuid>/subagents/agent-*.jsonl
// file belongs to ("" for any other file).
func subagentParent(path string) string {
	dir := filepath.Dir(path)
	if filepath.Base(dir) != "subagents" || !strings.HasPrefix(filepath.Base(path), "agent-") {
		return ""
	}
	return filepath.Dir(dir) + ".jsonl"
}

// orphanedSubagent says path is a subagent transcript whose main
// transcript does not exist.
func orphanedSubagent(path string) bool {
	parent := subagentParent(path)
	if parent == "" {
		return false
	}
	_, err := os.Stat(parent)
	return errors.Is(err, fs.ErrNotExist)
}

func claudeInfo(path string, st os.FileInfo) (*Session, error) {
	ci, err := readClaudeInfo(path)
	if err != nil {
		return nil, err
	}
	info, err := claude.ListInfo(path)
	if err != nil {
		return nil, err
	}
	// id, title, first prompt and cwd are the session's own Meta (the
	// /resume picker's rules), so list, show and tree agree on every file
	m := claude.InfoMeta(path, info)
	s := &Session{
		Agent: "claude", Format: "claude", ID: m.ID, Path: path, Cwd: m.Cwd,
		Title: m.Title, TitleSource: m.TitleSource, FirstMessage: info.FirstPrompt,
		Messages: ci.messages, Entries: ci.entries,
		Bytes: st.Size(), MTime: st.ModTime(), Problems: ci.problemCount(), ProblemCodes: ci.problems,
		Sidechain: ci.sawSide && !ci.sawMain,
	}
	if s.Cwd == "" {
		s.Cwd = ci.cwd
	}
	s.ContinuedIn = info.ContinuedIn
	if orphanedSubagent(path) {
		s.SubagentOf, s.Orphaned = subagentParent(path), true
		if s.Title == "" && ci.firstSidePrompt != "" {
			// the main transcript is gone: its subagent's first prompt names it
			s.FirstMessage = ci.firstSidePrompt
			s.Title, s.TitleSource = sessfmt.Title("", "", s.FirstMessage)
		}
	}
	if !ci.first.IsZero() {
		c := ci.first
		s.Created = &c
	}
	s.Modified = ci.last
	if s.Modified.IsZero() {
		s.Modified = st.ModTime().UTC().Truncate(time.Millisecond)
	}
	return s, nil
}
