package claude

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type sdkInfo struct {
	SessionID   string  `json:"sessionId"`
	Summary     string  `json:"summary"`
	CustomTitle *string `json:"customTitle"`
	FirstPrompt *string `json:"firstPrompt"`
	GitBranch   *string `json:"gitBranch"`
	Cwd         *string `json:"cwd"`
	Tag         *string `json:"tag"`
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// TestListParityClaudeSDK compares list's summary of every parity and title
// session (ListInfo: id, title, cwd, git branch, tag) and show's title
// (File.Title) with what the Claude Agent SDK 0.3.330's listSessions and
// getSessionInfo give on the same home (testdata/claude/parity/titles.sh).
func TestListParityClaudeSDK(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(parityDir, "expect", "list.json"))
	require.NoError(t, err)
	var sdk struct {
		List []sdkInfo           `json:"listSessions"`
		Info map[string]*sdkInfo `json:"getSessionInfo"`
	}
	require.NoError(t, json.Unmarshal(b, &sdk))
	listed := map[string]sdkInfo{}
	for _, s := range sdk.List {
		listed[s.SessionID] = s
	}
	paths, _ := filepath.Glob(filepath.Join(parityDir, "cases", "*", "*.jsonl"))
	titles, _ := filepath.Glob(filepath.Join(parityDir, "titles", "*.jsonl"))
	paths = append(paths, titles...)
	require.GreaterOrEqual(t, len(paths), 180)
	for _, p := range paths {
		id := strings.TrimSuffix(filepath.Base(p), ".jsonl")
		info, err := ListInfo(p)
		require.NoError(t, err)
		want, ok := listed[id]
		gi := sdk.Info[id]
		if !ok {
			assert.Nil(t, gi, "%s: getSessionInfo finds what listSessions hides", p)
			assert.True(t, info.SidechainOnly, "%s: the SDK does not list it; list should hide it", p)
			continue
		}
		require.NotNil(t, gi, p)
		assert.Equal(t, want.Summary, gi.Summary, "%s: listSessions and getSessionInfo disagree", p)
		assert.Equal(t, id, info.SessionID, p)
		assert.False(t, info.SidechainOnly, "%s: listed by the SDK", p)
		assert.Equal(t, want.Summary, info.Title, "%s: title", p)
		assert.Equal(t, deref(want.Cwd), info.Cwd, "%s: cwd", p)
		assert.Equal(t, deref(want.GitBranch), info.GitBranch, "%s: git branch", p)
		assert.Equal(t, deref(want.Tag), info.Tag, "%s: tag", p)
		f, err := Open(p)
		require.NoError(t, err)
		assert.Equal(t, want.Summary, f.Title(), "%s: show's title", p)
		f.Close()
	}
}
