package discover

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Issue 11 item 12: a Claude Code session id is the file's base name,
// never split at '_' as a pi "<time>_<id>" file name is.
func TestClaudeIDIsBaseName(t *testing.T) {
	home := t.TempDir()
	proj := filepath.Join(home, ".claude", "projects", "-p")
	require.NoError(t, os.MkdirAll(proj, 0o755))
	line := `{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"s","cwd":"/p","timestamp":"2026-01-01T00:00:00Z","message":{"role":"user","content":"hi"}}` + "\n"
	require.NoError(t, os.WriteFile(filepath.Join(proj, "system_reminder.jsonl"), []byte(line), 0o644))
	res := Scan(Options{Env: envOf(map[string]string{"HOME": home}), Agents: []string{"claude"}})
	require.Len(t, res.Sessions, 1)
	assert.Equal(t, "system_reminder", res.Sessions[0].ID)
}

// A session kept in a store is named by its id only: its store's file name
// is no prefix of it (else every OpenCode session would match "opencode").
func TestMatchStoreRowsByIDOnly(t *testing.T) {
	ss := []*Session{
		{ID: "abc123", Path: "/d/opencode.db#abc123"},
		{ID: "ses_9", Path: "/d/opencode.db#ses_9"},
	}
	assert.Empty(t, Match(ss, "opencode"))
	assert.Equal(t, []*Session{ss[0]}, Match(ss, "abc"))
}

// Issue 15 item 3: OpenCode JSON-store sessions whose ids lack the ses_
// prefix are found by id (through the store listing).
func TestResolverFindsStoreSessions(t *testing.T) {
	data := t.TempDir()
	st := filepath.Join(data, "opencode", "storage")
	for _, d := range []string{"session/global", "project", "message/plainid1", "part"} {
		require.NoError(t, os.MkdirAll(filepath.Join(st, d), 0o755))
	}
	require.NoError(t, os.WriteFile(filepath.Join(st, "project", "global.json"), []byte(`{"id":"global","worktree":"/","time":{"created":1}}`), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(st, "session", "global", "plainid1.json"),
		[]byte(`{"id":"plainid1","projectID":"global","directory":"/p","title":"No prefix","version":"1","time":{"created":1,"updated":2}}`), 0o644))
	refs, err := Resolver(Options{Env: envOf(map[string]string{"XDG_DATA_HOME": data})})("plainid")
	require.NoError(t, err)
	require.Len(t, refs, 1, "%v", refs)
	assert.Equal(t, filepath.Join(data, "opencode")+"#plainid1", refs[0].Path)
}
