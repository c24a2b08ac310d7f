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
	refs, err := IDLookup(Options{Env: envOf(map[string]string{"XDG_DATA_HOME": data})})("plainid")
	require.NoError(t, err)
	require.Len(t, refs, 1, "%v", refs)
	assert.Equal(t, filepath.Join(data, "opencode")+"#plainid1", refs[0].Path)
}

// Issue 11 item 13: a Claude Code project folder holding only
// <uuid>/subagents/agent-*.jsonl (the main transcript is gone) is listed,
// marked as an orphaned subagent; a subagent whose main transcript exists
// is still left out.
func TestClaudeOrphanedSubagentsListed(t *testing.T) {
	home := t.TempDir()
	proj := filepath.Join(home, ".claude", "projects", "-p")
	gone := filepath.Join(proj, "11111111-2222-4333-8444-555555555555", "subagents")
	kept := filepath.Join(proj, "99999999-2222-4333-8444-555555555555", "subagents")
	require.NoError(t, os.MkdirAll(gone, 0o755))
	require.NoError(t, os.MkdirAll(kept, 0o755))
	side := `{"type":"user","uuid":"u1","parentUuid":null,"isSidechain":true,"sessionId":"s","cwd":"/p","timestamp":"2026-01-01T00:00:00Z","message":{"role":"user","content":"look around"}}` + "\n"
	main := `{"type":"user","uuid":"m1","parentUuid":null,"sessionId":"s","cwd":"/p","timestamp":"2026-01-01T00:00:00Z","message":{"role":"user","content":"hi"}}` + "\n"
	require.NoError(t, os.WriteFile(filepath.Join(gone, "agent-a1.jsonl"), []byte(side), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(kept, "agent-b1.jsonl"), []byte(side), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(proj, "99999999-2222-4333-8444-555555555555.jsonl"), []byte(main), 0o644))
	res := Scan(Options{Env: envOf(map[string]string{"HOME": home}), Agents: []string{"claude"}})
	byBase := map[string]*Session{}
	for _, s := range res.Sessions {
		byBase[filepath.Base(s.Path)] = s
	}
	require.Len(t, res.Sessions, 2, "the main transcript and the orphaned subagent")
	o := byBase["agent-a1.jsonl"]
	require.NotNil(t, o)
	assert.True(t, o.Orphaned)
	assert.Equal(t, filepath.Join(proj, "11111111-2222-4333-8444-555555555555.jsonl"), o.SubagentOf)
	assert.Nil(t, byBase["agent-b1.jsonl"])
	assert.False(t, byBase["99999999-2222-4333-8444-555555555555.jsonl"].Orphaned)
}

// Issue 15 item 4: a fork of an archived (.reset) OpenClaw transcript, which
// no sessions.json entry names, is not a live session.
func TestOpenClawForkOfArchiveIsArchived(t *testing.T) {
	state := t.TempDir()
	sess := filepath.Join(state, "agents", "main", "sessions")
	require.NoError(t, os.MkdirAll(sess, 0o755))
	src := filepath.Join("..", "..", "testdata", "openclaw", "state", "agents", "main", "sessions")
	archive := "a1b2c3d4-0000-4000-8000-000000000007.jsonl.reset.2026-02-01T04-00-00.000Z"
	for _, name := range []string{"sessions.json", archive} {
		b, err := os.ReadFile(filepath.Join(src, name))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(sess, name), b, 0o644))
	}
	fork := `{"type":"session","version":3,"id":"5f0c1e2d-3b4a-4c5d-8e9f-a0b1c2d3e4aa","timestamp":"2026-02-03T10:11:12.123Z","cwd":"/w","parentSession":"` + filepath.Join(sess, archive) + `"}
{"type":"message","id":"m1","parentId":null,"timestamp":"2026-02-03T10:11:13.000Z","message":{"role":"user","content":"hi","timestamp":1}}
`
	name := "2026-02-03T10-11-12-123Z_5f0c1e2d-3b4a-4c5d-8e9f-a0b1c2d3e4aa.jsonl"
	require.NoError(t, os.WriteFile(filepath.Join(sess, name), []byte(fork), 0o644))
	res := Scan(Options{Env: envOf(map[string]string{"OPENCLAW_STATE_DIR": state}), Agents: []string{"openclaw"}})
	var row *Session
	for _, s := range res.Sessions {
		if filepath.Base(s.Path) == name {
			row = s
		}
	}
	require.NotNil(t, row)
	require.NotNil(t, row.OpenClaw)
	assert.Equal(t, "archived", row.OpenClaw.Status)
}
