package discover

import (
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Claude Code: $CLAUDE_CONFIG_DIR or ~/.claude, then projects/<encoded>/<uuid>.jsonl
// (/work/shared/reference/claude-code-format.md §1). Only the listing is
// here, with a minimal one-pass reader (claudelist.go).
func init() {
	Register(Provider{Agent: "claude", Format: "claude", Order: 40, Version: 1,
		Roots: claudeRoots, Files: claudeFiles, Info: claudeInfo})
}

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
	return out
}

func claudeInfo(path string, st os.FileInfo) (*Session, error) {
	ci, err := readClaudeInfo(path)
	if err != nil {
		return nil, err
	}
	s := &Session{
		Agent: "claude", Format: "claude", ID: IDFromFileName(path), Path: path, Cwd: ci.cwd,
		FirstMessage: ci.firstPrompt, Messages: ci.messages, Entries: ci.entries,
		Bytes: st.Size(), MTime: st.ModTime(), Problems: ci.problemCount(), ProblemCodes: ci.problems,
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
		s.Title, s.TitleSource = titleFrom(ci.customTitle, "custom-title", ci.firstPrompt)
	case ci.aiTitle != "":
		s.Title, s.TitleSource = titleFrom(ci.aiTitle, "ai-title", ci.firstPrompt)
	default:
		s.Title, s.TitleSource = titleFrom("", "", ci.firstPrompt)
	}
	return s, nil
}
