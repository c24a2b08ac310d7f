package openclaw

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sessctl/sessctl/internal/format/pi"
	"github.com/sessctl/sessctl/internal/tree"
	"github.com/stretchr/testify/require"
)

// realState is a store the real OpenClaw 2026.9.6 wrote offline
// (testdata/openclaw/real-2026.9.6/gen.sh): an agent database at schema 23
// and the archives its gateway left when two sessions were deleted
// (<id>.jsonl.deleted.<time>.<generation>.zst), beside two plain archives
// of the JSONL era.
var realState = filepath.Join("..", "..", "..", "testdata", "openclaw", "real-2026.9.6", "state")

const piParity = "../../../testdata/pi/parity"

// defaultContext is the expected default-leaf context of a pi parity
// fixture (its "messages").
func defaultContext(t *testing.T, expected string) any {
	t.Helper()
	b, err := os.ReadFile(expected)
	require.NoError(t, err)
	var exp struct {
		Cases []struct {
			Leaf    *string         `json:"leaf"`
			Context json.RawMessage `json:"context"`
		} `json:"cases"`
	}
	require.NoError(t, json.Unmarshal(b, &exp))
	require.Nil(t, exp.Cases[0].Leaf)
	var v struct {
		Messages any `json:"messages"`
	}
	require.NoError(t, json.Unmarshal(exp.Cases[0].Context, &v))
	return v.Messages
}

func contextOf(t *testing.T, path string) any {
	t.Helper()
	f, err := pi.Open(path, pi.Options{})
	require.NoError(t, err)
	require.NoError(t, f.HeaderErr)
	ctx, err := f.BuildContext(tree.None)
	require.NoError(t, err)
	var b bytes.Buffer
	b.WriteByte('[')
	for i, m := range ctx.Messages {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(m)
	}
	b.WriteByte(']')
	var v any
	require.NoError(t, json.Unmarshal(b.Bytes(), &v))
	return v
}

func TestRealArchives(t *testing.T) {
	dir := filepath.Join(realState, "agents", "main", "sessions")
	names, err := os.ReadDir(dir)
	if err != nil {
		t.Skip("no real OpenClaw fixtures")
	}
	// Which pi fixture each session id was made from (gen.sh).
	source := map[string]string{
		"s-edit":   piParity + "/v152/expected/101-context-edit-basic.json",
		"s-comp":   piParity + "/v152/expected/106-compaction-system-message.json",
		"s-old":    piParity + "/expected/002-linear-short.json",
		"s-linear": piParity + "/expected/003-linear-array-content.json",
	}
	zst := 0
	for _, e := range names {
		p := filepath.Join(dir, e.Name())
		fi := Classify(e.Name())
		require.Equal(t, KindArchive, fi.Kind, e.Name())
		require.Contains(t, []string{"deleted", "reset"}, fi.Reason)
		require.False(t, fi.ArchivedAt.IsZero(), e.Name())
		require.Equal(t, strings.HasSuffix(e.Name(), ".zst"), fi.Compressed)
		want, ok := source[fi.SessionID]
		require.True(t, ok, "session id %q from %s", fi.SessionID, e.Name())
		head := make([]byte, 4)
		fh, err := os.Open(p)
		require.NoError(t, err)
		_, _ = fh.Read(head)
		fh.Close()
		require.Equal(t, fi.Compressed, IsCompressedArchive(p, head))
		if fi.Compressed {
			zst++
			require.Equal(t, "deleted", fi.Reason)
		}

		li, err := ArchiveListInfo(p)
		require.NoError(t, err)
		require.True(t, li.ValidHeader, e.Name())
		require.Greater(t, li.Messages, 0)

		tmp := p
		if fi.Compressed {
			tmp, err = ArchiveTemp(p)
			require.NoError(t, err)
			defer os.Remove(tmp)
			st, err := os.Stat(tmp)
			require.NoError(t, err)
			require.Equal(t, os.FileMode(0o600), st.Mode().Perm())
		}
		// The archive holds the conversation OpenClaw had: pi's context of
		// the transcript it was made from.
		require.Equal(t, defaultContext(t, want), contextOf(t, tmp), e.Name())
	}
	require.Equal(t, 2, zst, "the gateway compresses what it archives")
}

// The agent database of 2026.9.6 (schema 23) lists its remaining session
// and exports it as the pi transcript it was imported from.
func TestRealAgentDB(t *testing.T) {
	p := filepath.Join(realState, "agents", "main", "agent", "openclaw-agent.sqlite")
	if _, err := os.Stat(p); err != nil {
		t.Skip("no real OpenClaw fixtures")
	}
	d, err := OpenAgentDB(p)
	require.NoError(t, err)
	defer d.Close()
	ss, err := d.Sessions()
	require.NoError(t, err)
	require.Len(t, ss, 1)
	require.Equal(t, "s-linear", ss[0].SessionID)
	require.Equal(t, "agent:main:s-linear", ss[0].Key)
	require.Equal(t, "label s-linear", ss[0].Label)
	tmp, err := ExportTemp(p, "s-linear")
	require.NoError(t, err)
	defer os.Remove(tmp)
	require.Equal(t, defaultContext(t, piParity+"/expected/004-linear-tool-calls.json"), contextOf(t, tmp))

	arch, err := d.Archives()
	require.NoError(t, err)
	require.Len(t, arch, 2)
	for _, a := range arch {
		require.Equal(t, "deleted", a.Reason)
		require.Equal(t, "zstd", a.Encoding)
		require.False(t, a.Published.IsZero())
		require.WithinDuration(t, time.Now(), a.Published, 5*365*24*time.Hour)
		var b bytes.Buffer
		n, err := d.ArchiveContent(a.SessionID, a.Generation, &b)
		require.NoError(t, err)
		require.Equal(t, int64(b.Len()), n)
		// The file the gateway wrote beside it holds the same bytes.
		r, err := OpenArchive(filepath.Join(realState, "agents", "main", "sessions", a.Name))
		require.NoError(t, err)
		var fb bytes.Buffer
		_, err = fb.ReadFrom(r)
		r.Close()
		require.NoError(t, err)
		require.Equal(t, fb.String(), b.String(), a.Name)
	}
}

func TestClassifyArchive2026_9(t *testing.T) {
	fi := Classify("a.jsonl.reset.2026-09-01T10-00-00.123Z.0123456789abcdef0123456789abcdef.zst")
	require.Equal(t, KindArchive, fi.Kind)
	require.True(t, fi.Compressed)
	require.Equal(t, "reset", fi.Reason)
	require.Equal(t, "a", fi.SessionID)
	require.Equal(t, time.Date(2026, 9, 1, 10, 0, 0, 0, time.UTC), fi.ArchivedAt)
	fi = Classify("a.jsonl.deleted.2026-09-01T10-00-00Z.zst")
	require.Equal(t, KindArchive, fi.Kind)
	require.True(t, fi.Compressed)
	for _, bad := range []string{
		"a.jsonl.deleted.2026-09-01T10-00-00Z.0123", // not 32 hex digits
		"a.jsonl.deleted.2026-09-01T10-00-00Z.zst.zst",
		"a.jsonl.zst",
	} {
		require.NotEqual(t, KindArchive, Classify(bad).Kind, bad)
	}
	require.False(t, IsCompressedArchive("a.jsonl.deleted.2026-09-01T10-00-00Z.zst", []byte(`{"ty`)), "a .zst name over plain bytes")
}

// Conversations and members (tables OpenClaw 2026.9 added) come with the
// sessions. The real store has none (no chat channel ran), so rows are put
// into a copy of it, within the real schema's constraints.
func TestRealAgentDBMembership(t *testing.T) {
	src := filepath.Join(realState, "agents", "main", "agent", "openclaw-agent.sqlite")
	b, err := os.ReadFile(src)
	if err != nil {
		t.Skip("no real OpenClaw fixtures")
	}
	p := filepath.Join(t.TempDir(), "openclaw-agent.sqlite")
	require.NoError(t, os.WriteFile(p, b, 0o600))
	w, err := sql.Open("sqlite", "file:"+p+"?_pragma=foreign_keys(1)")
	require.NoError(t, err)
	for _, q := range []string{
		`INSERT INTO conversations (conversation_id, channel, account_id, kind, peer_id, delivery_target, label, created_at, updated_at)
		 VALUES ('conv-1', 'telegram', 'bot-1', 'group', 'peer-1', 'telegram:peer-1', 'Team chat', 1790000000000, 1790000000000)`,
		`INSERT INTO session_conversations (session_id, conversation_id, role, first_seen_at, last_seen_at)
		 VALUES ('s-linear', 'conv-1', 'primary', 1790000000000, 1790000001000)`,
		`INSERT INTO session_members (session_key, identity_id, added_by, added_at) VALUES ('agent:main:s-linear', 'user:alice', 'operator', 1790000000000)`,
		`INSERT INTO session_members (session_key, identity_id, added_by, added_at) VALUES ('agent:main:s-linear', 'user:bob', 'operator', 1790000000500)`,
	} {
		_, err := w.Exec(q)
		require.NoError(t, err, q)
	}
	require.NoError(t, w.Close())

	d, err := OpenAgentDB(p)
	require.NoError(t, err)
	defer d.Close()
	ss, err := d.Sessions()
	require.NoError(t, err)
	require.Len(t, ss, 1)
	require.Equal(t, []DBConversation{{ID: "conv-1", Role: "primary", Channel: "telegram", Kind: "group", Label: "Team chat"}}, ss[0].Conversations)
	require.Equal(t, []string{"user:alice", "user:bob"}, ss[0].Members)
}

// A deleted session's database reference still shows: its archive row.
func TestRealDeletedSessionFromArchiveRow(t *testing.T) {
	p := filepath.Join(realState, "agents", "main", "agent", "openclaw-agent.sqlite")
	if _, err := os.Stat(p); err != nil {
		t.Skip("no real OpenClaw fixtures")
	}
	tmp, err := ExportTemp(p, "s-edit")
	require.NoError(t, err)
	defer os.Remove(tmp)
	require.Equal(t, defaultContext(t, piParity+"/v152/expected/101-context-edit-basic.json"), contextOf(t, tmp))
	_, err = ExportTemp(p, "no-such-session")
	require.Error(t, err)
}

// Deleted sessions are listed from their archive rows.
func TestRealArchivedSessions(t *testing.T) {
	p := filepath.Join(realState, "agents", "main", "agent", "openclaw-agent.sqlite")
	if _, err := os.Stat(p); err != nil {
		t.Skip("no real OpenClaw fixtures")
	}
	d, err := OpenAgentDB(p)
	require.NoError(t, err)
	defer d.Close()
	as, err := d.ArchivedSessions()
	require.NoError(t, err)
	require.Len(t, as, 2)
	got := map[string]int{}
	for _, a := range as {
		require.True(t, a.Info.ValidHeader)
		require.Equal(t, a.SessionID, a.Info.ID)
		got[a.SessionID] = a.Info.Messages
	}
	for id, src := range map[string]string{"s-edit": "101-context-edit-basic.jsonl", "s-comp": "106-compaction-system-message.jsonl"} {
		li, err := pi.ReadListInfo(filepath.Join(piParity, "v152", "sessions", src))
		require.NoError(t, err)
		require.Equal(t, li.Messages, got[id], id)
	}
}
