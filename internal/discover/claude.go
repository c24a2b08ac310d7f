package discover

import (
	"errors"
	"github.com/sessctl/sessctl/internal/sessfmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Claude Code: $CLAUDE_CONFIG_DIR or ~/.claude, then projects/<encoded>/<uuid>.jsonl
// (/work/shared/reference/claude-code-format.md §1). Only the listing is
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
// not sessions of their own and are left out.
func claudeFiles(root string, warn func(string, error)) []string {
	var out []string
	for _, p := range walkJSONL(root, 1, warn) {
		rel, err := filepath.Rel(root, p)
		if err != nil || strings.Count(filepath.ToSlash(rel), "/") != 1 {
			continue // only files directly inside a project folder
		}
		if strings.HasPrefix(filepath.Base(p), "agent-") {
			continue
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

// claudeID is a Claude Code session's id: the file's base name, whole (it
// is the session uuid; a file named otherwise is never split at '_' as a pi
// "<time>_<id>" name is).
func claudeID(path string) string { return strings.TrimSuffix(filepath.Base(path), ".jsonl") }

func claudeInfo(path string, st os.FileInfo) (*Session, error) {
	ci, err := readClaudeInfo(path)
	if err != nil {
		return nil, err
	}
	s := &Session{
		Agent: "claude", Format: "claude", ID: claudeID(path), Path: path, Cwd: ci.cwd,
		FirstMessage: ci.firstPrompt, Messages: ci.messages, Entries: ci.entries,
		Bytes: st.Size(), MTime: st.ModTime(), Problems: ci.problemCount(), ProblemCodes: ci.problems,
		Sidechain: ci.sawSide && !ci.sawMain,
	}
	if orphanedSubagent(path) {
		s.SubagentOf, s.Orphaned = subagentParent(path), true
		if s.FirstMessage == "" {
			s.FirstMessage = ci.firstSidePrompt
		}
	}
	if ci.lastUUID != "" || len(ci.summaries) > 0 {
		s.Claude = &ClaudeInfo{LastUUID: ci.lastUUID, Summaries: ci.summaries}
	}
	if !ci.first.IsZero() {
		c := ci.first
		s.Created = &c
	}
	s.Modified = ci.last
	if s.Modified.IsZero() {
		s.Modified = st.ModTime().UTC().Truncate(time.Millisecond)
	}
	switch {
	case ci.customTitle != "":
		s.Title, s.TitleSource = sessfmt.Title(ci.customTitle, "custom-title", s.FirstMessage)
	case ci.aiTitle != "":
		s.Title, s.TitleSource = sessfmt.Title(ci.aiTitle, "ai-title", s.FirstMessage)
	case ci.summary != "":
		s.Title, s.TitleSource = sessfmt.Title(ci.summary, "summary", s.FirstMessage)
	default:
		s.Title, s.TitleSource = sessfmt.Title("", "", s.FirstMessage)
	}
	return s, nil
}

// ClaudeInfo is what a Claude Code row needs for titles that live in other
// files: older CLIs appended a session's summary line (keyed by its leaf
// uuid) to the next session's file.
type ClaudeInfo struct {
	// LastUUID is the last non-sidechain record of the file in file order.
	LastUUID string `json:"lastUuid,omitempty"`
	// Summaries are the summary lines this file carries, by leafUuid.
	Summaries map[string]string `json:"summaries,omitempty"`
}

// ApplyClaudeSummaries titles Claude Code sessions that have no custom or
// AI title with a summary line found in any listed file whose leafUuid is
// the session's last record (title order: custom-title > ai-title >
// summary > first real prompt).
func ApplyClaudeSummaries(sessions []*Session) {
	byLeaf := map[string]string{}
	for _, s := range sessions {
		if s.Claude != nil {
			for leaf, t := range s.Claude.Summaries {
				if leaf != "" && strings.TrimSpace(t) != "" {
					byLeaf[leaf] = t
				}
			}
		}
	}
	if len(byLeaf) == 0 {
		return
	}
	for _, s := range sessions {
		if s.Claude == nil || s.TitleSource == "custom-title" || s.TitleSource == "ai-title" || s.TitleSource == "summary" {
			continue
		}
		if t, ok := byLeaf[s.Claude.LastUUID]; ok {
			s.Title, s.TitleSource = sessfmt.Title(t, "summary", s.FirstMessage)
		}
	}
}
