package openclaw

import (
	"bytes"
	"database/sql"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var stateFixture = filepath.Join("..", "..", "..", "testdata", "openclaw", "state")

func sid(n int) string { return "a1b2c3d4-0000-4000-8000-00000000000" + string(rune('0'+n)) }

const forkID = "5f0c1e2d-3b4a-4c5d-8e9f-a0b1c2d3e4f5"

func copyState(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(stateFixture, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(stateFixture, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	require.NoError(t, err)
	return dst
}

func agent(t *testing.T, st *State, id string) *Agent {
	t.Helper()
	for _, a := range st.Agents {
		if a.ID == id {
			return a
		}
	}
	t.Fatalf("agent %s not found", id)
	return nil
}

func TestClassify(t *testing.T) {
	cases := []struct {
		name string
		kind FileKind
		sid  string
		rsn  string
	}{
		{"abc.jsonl", KindTranscript, "abc", ""},
		{"keep.deleted.keep.jsonl", KindTranscript, "keep.deleted.keep", ""},
		{"abc.jsonl.deleted.2026-01-01T00-00-00.000Z", KindArchive, "abc", "deleted"},
		{"abc.jsonl.reset.2026-01-01T00-00-00Z", KindArchive, "abc", "reset"},
		{"abc.jsonl.clear.2026-01-01T00-00-00.000Z", KindArchive, "abc", "clear"},
		{"abc.jsonl.bak.2026-01-01T00-00-00.000Z", KindArchive, "abc", "bak"},
		{"abc.jsonl.reset.yesterday", KindOther, "", ""},
		{"sessions.json", KindStore, "", ""},
		{"sessions.json.bak.1737420882", KindStoreBackup, "", ""},
		{"abc.jsonl.lock", KindLock, "abc", ""},
		{"abc.jsonl.bak-4242-1737420882000", KindRepairBak, "", ""},
		{"abc.trajectory.jsonl", KindTrajectory, "abc", ""},
		{"abc-topic-42.jsonl", KindTopic, "abc", ""},
		{"2026-02-03T10-11-12-123Z_" + forkID + ".jsonl", KindFork, forkID, ""},
		{"archive-tier.abc.jsonl.imported-2026-09-01T00-00-00Z", KindImported, "abc", ""},
	}
	for _, c := range cases {
		fi := Classify(c.name)
		assert.Equal(t, c.kind, fi.Kind, c.name)
		assert.Equal(t, c.sid, fi.SessionID, c.name)
		assert.Equal(t, c.rsn, fi.Reason, c.name)
	}
	fi := Classify("abc.jsonl.reset.2026-02-23T12-34-56.000Z")
	assert.Equal(t, time.Date(2026, 2, 23, 12, 34, 56, 0, time.UTC), fi.ArchivedAt)
	assert.Equal(t, "a b/c", Classify("abc-topic-a%20b%2Fc.jsonl").Topic)
}

func TestIndex(t *testing.T) {
	idx, err := ReadIndex(filepath.Join(stateFixture, "agents", "main", "sessions", "sessions.json"))
	require.NoError(t, err)
	require.Len(t, idx.Entries, 8)
	byKey := map[string]Entry{}
	for _, e := range idx.Entries {
		byKey[e.Key] = e
	}
	m := byKey["agent:main:main"]
	assert.Equal(t, sid(1), m.SessionID)
	require.NotNil(t, m.TotalTokens)
	assert.Equal(t, int64(1500), *m.TotalTokens)
	assert.Equal(t, "Main", m.Name())
	assert.Equal(t, time.UnixMilli(1769940005000).UTC(), m.UpdatedAt)
	assert.Equal(t, "direct", m.Kind())
	bob := byKey["agent:main:direct:bob"]
	assert.Equal(t, "whatsapp", bob.Channel, "legacy provider is read as channel")
	assert.Nil(t, bob.TotalTokens)
	assert.Equal(t, "group", byKey["agent:main:telegram:group:-100200:topic:42"].Kind())
	assert.Equal(t, "Ops chat", byKey["agent:main:telegram:group:-100200:topic:42"].Name())
}

func TestIndexErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
		return p
	}
	var ie *IndexError
	_, err := ReadIndex(write("empty.json", ""))
	require.True(t, errors.As(err, &ie))
	assert.True(t, ie.Empty)
	_, err = ReadIndex(write("blank.json", "  \n"))
	require.True(t, errors.As(err, &ie))
	assert.True(t, ie.Empty)
	_, err = ReadIndex(write("torn.json", `{"a":{"sessionId":"x","updatedAt":1},"b":{"sessionId":`))
	require.True(t, errors.As(err, &ie))
	assert.False(t, ie.Empty)
	assert.Len(t, ie.Parsed, 1)
	_, err = ReadIndex(write("array.json", `[1,2]`))
	require.True(t, errors.As(err, &ie))
	_, err = ReadIndex(write("trail.json", `{"a":{"sessionId":"x"}} {}`))
	require.True(t, errors.As(err, &ie))
	_, err = ReadIndex(write("nul.json", "\x00\x00\x00"))
	require.True(t, errors.As(err, &ie))
	// A repeated key keeps its last value, as JSON.parse does.
	idx, err := ReadIndex(write("dup.json", `{"k":{"sessionId":"first"},"k":{"sessionId":"second"}}`))
	require.NoError(t, err)
	require.Len(t, idx.Entries, 1)
	assert.Equal(t, "second", idx.Entries[0].SessionID)
	// Reading never changes the file.
	b, _ := os.ReadFile(filepath.Join(dir, "torn.json"))
	assert.Equal(t, `{"a":{"sessionId":"x","updatedAt":1},"b":{"sessionId":`, string(b))
}

func TestTranscripts(t *testing.T) {
	st, err := Open(copyState(t))
	require.NoError(t, err)
	require.Len(t, st.Agents, 2)
	main := agent(t, st, "main")
	require.NotNil(t, main.Index)
	ts, err := main.Transcripts()
	require.NoError(t, err)
	rows := map[string]Transcript{}
	for _, tr := range ts {
		rows[filepath.Base(tr.Path)] = tr
		assert.Equal(t, "main", tr.AgentID)
	}
	assert.Len(t, rows, 9, "%v", rows)
	one := rows[sid(1)+".jsonl"]
	assert.Equal(t, StatusActive, one.Status)
	assert.Equal(t, []string{"agent:main:direct:bob", "agent:main:main"}, one.Keys())
	topic := rows[sid(3)+"-topic-42.jsonl"]
	assert.Equal(t, KindTopic, topic.Kind)
	assert.Equal(t, "42", topic.Topic)
	assert.Equal(t, []string{"agent:main:telegram:group:-100200:topic:42"}, topic.Keys())
	fork := rows["2026-02-03T10-11-12-123Z_"+forkID+".jsonl"]
	assert.Equal(t, KindFork, fork.Kind)
	assert.Equal(t, StatusActive, fork.Status)
	// The absolute sessionFile from an old install falls back to the file name here.
	assert.Equal(t, []string{"agent:main:discord:channel:999"}, rows[sid(4)+".jsonl"].Keys())
	assert.Equal(t, StatusOrphan, rows[sid(9)+".jsonl"].Status)
	reset := rows[sid(7)+".jsonl.reset.2026-02-01T04-00-00.000Z"]
	assert.Equal(t, StatusArchived, reset.Status)
	assert.Equal(t, "reset", reset.Reason)
	assert.Equal(t, sid(7), reset.SessionID)
	assert.Equal(t, "deleted", rows[sid(8)+".jsonl.deleted.2026-02-10T10-20-30.000Z"].Reason)
	_, isTraj := rows[sid(1)+".trajectory.jsonl"]
	assert.False(t, isTraj, "trajectory files are not transcripts")
}

func TestCheck(t *testing.T) {
	dir := copyState(t)
	st, err := Open(dir)
	require.NoError(t, err)
	ps := st.Check(time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC))
	got := map[string][]string{}
	for _, p := range ps {
		got[p.Code] = append(got[p.Code], p.Scope+":"+filepath.Base(p.Location))
	}
	assert.Equal(t, map[string][]string{
		CodeIndexCorrupt:      {"work:sessions.json"},
		CodeMissingTranscript: {"main:" + sid(5) + ".jsonl"},
		CodeUnindexed:         {"main:" + sid(9) + ".jsonl"},
		CodeArchived:          {"main:" + sid(7) + ".jsonl.reset.2026-02-01T04-00-00.000Z", "main:" + sid(8) + ".jsonl.deleted.2026-02-10T10-20-30.000Z"},
		CodeOutsidePath:       {"main:sessions.json"},
		CodeStaleLock:         {"main:" + sid(2) + ".jsonl.lock"},
	}, got)
	for _, p := range ps {
		switch p.Code {
		case CodeArchived:
			assert.Equal(t, "info", string(p.Severity))
		case CodeIndexCorrupt:
			assert.Equal(t, "error", string(p.Severity))
			assert.Contains(t, p.Fix, "never rewrites")
		case CodeMissingTranscript:
			assert.Equal(t, "cron:nightly", p.ID)
			assert.Equal(t, "cron:nightly", p.Located(dir).ID)
		case CodeStaleLock:
			assert.Contains(t, p.Message, "dead-pid")
		}
	}
	// Check never writes: the corrupt store is untouched.
	b, err := os.ReadFile(filepath.Join(dir, "agents", "work", "sessions", "sessions.json"))
	require.NoError(t, err)
	orig, _ := os.ReadFile(filepath.Join(stateFixture, "agents", "work", "sessions", "sessions.json"))
	assert.Equal(t, orig, b)
	// The work agent's transcript still lists, without keys.
	ts, err := agent(t, st, "work").Transcripts()
	require.NoError(t, err)
	require.Len(t, ts, 1)
	assert.Empty(t, ts[0].Keys())
}

func TestLiveLockIsInfo(t *testing.T) {
	dir := copyState(t)
	lock := filepath.Join(dir, "agents", "main", "sessions", sid(2)+".jsonl.lock")
	now := time.Now().UTC()
	content := `{"pid":` + itoa(os.Getpid()) + `,"createdAt":"` + now.Format(time.RFC3339Nano) + `"}`
	require.NoError(t, os.WriteFile(lock, []byte(content), 0o644))
	st, err := Open(dir)
	require.NoError(t, err)
	var codes []string
	for _, p := range agent(t, st, "main").Check(now) {
		if strings.HasSuffix(p.Location, ".lock") {
			codes = append(codes, p.Code)
		}
	}
	assert.Equal(t, []string{CodeLiveLock}, codes)
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for n > 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(b)
}

func TestOpenAgentFolder(t *testing.T) {
	dir := copyState(t)
	st, err := Open(filepath.Join(dir, "agents", "main", "sessions"))
	require.NoError(t, err)
	require.Len(t, st.Agents, 1)
	assert.Equal(t, "main", st.Agents[0].ID)
	assert.Equal(t, dir, st.Dir)
	assert.True(t, Detect(dir))
	assert.False(t, Detect(t.TempDir()))
	_, err = Open(t.TempDir())
	assert.ErrorIs(t, err, ErrNotOpenClaw)
}

func TestStateDirCandidates(t *testing.T) {
	t.Setenv("OPENCLAW_STATE_DIR", "/srv/claw")
	t.Setenv("CLAWDBOT_STATE_DIR", "")
	t.Setenv("HOME", "/home/u")
	assert.Equal(t, []string{"/srv/claw", "/home/u/.openclaw", "/home/u/.clawdbot", "/home/u/.moltbot", "/home/u/.moldbot"}, StateDirCandidates())
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("OPENCLAW_STATE_DIR", "")
	require.NoError(t, os.Mkdir(filepath.Join(home, ".openclaw"), 0o755))
	require.NoError(t, os.Symlink(filepath.Join(home, ".openclaw"), filepath.Join(home, ".clawdbot")))
	assert.Equal(t, []string{filepath.Join(home, ".openclaw")}, StateDirs(), "a legacy symlink to the new dir counts once")
}

// agentDB builds an OpenClaw ≥ 2026.8 agent database (the tables sessctl
// reads, as in src/state/openclaw-agent-schema.sql).
func agentDB(t *testing.T, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "agents", "ops", "agent", "openclaw-agent.sqlite")
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	db, err := sql.Open("sqlite", p)
	require.NoError(t, err)
	defer db.Close()
	for _, q := range []string{
		`CREATE TABLE session_nodes (session_key TEXT NOT NULL PRIMARY KEY, current_session_id TEXT NOT NULL, entry_json TEXT NOT NULL, entry_valid INTEGER NOT NULL DEFAULT 0, updated_at INTEGER NOT NULL, label TEXT, display_name TEXT, spawned_by TEXT, archived_at INTEGER) STRICT`,
		`CREATE TABLE session_windows (session_id TEXT NOT NULL PRIMARY KEY, session_key TEXT NOT NULL, previous_session_id TEXT, reason TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, chat_type TEXT, channel TEXT, model_provider TEXT, model TEXT, spawned_by TEXT, display_name TEXT, FOREIGN KEY (session_key) REFERENCES session_nodes(session_key) ON DELETE CASCADE) STRICT`,
		`CREATE TABLE transcript_events (session_id TEXT NOT NULL, seq INTEGER NOT NULL, event_json TEXT NOT NULL, created_at INTEGER NOT NULL, PRIMARY KEY (session_id, seq), FOREIGN KEY (session_id) REFERENCES session_windows(session_id) ON DELETE CASCADE) STRICT`,
		`INSERT INTO session_nodes VALUES ('agent:ops:main', 'c2', '{"sessionId":"c2"}', 1, 1788000000000, 'Ops', NULL, NULL, NULL)`,
		`INSERT INTO session_windows VALUES ('c1', 'agent:ops:main', NULL, 'initial', 1787000000000, 1787000500000, 'direct', 'telegram', 'anthropic', 'claude-sonnet-4', NULL, NULL)`,
		`INSERT INTO session_windows VALUES ('c2', 'agent:ops:main', 'c1', 'reset', 1788000000000, 1788000500000, 'direct', 'telegram', 'anthropic', 'claude-sonnet-4', NULL, 'Ops DM')`,
		`INSERT INTO transcript_events VALUES ('c1', 1, '{"type":"session","version":3,"id":"c1","timestamp":"2026-08-29T10:00:00.000Z","cwd":"/srv"}', 1)`,
		`INSERT INTO transcript_events VALUES ('c1', 2, '{"type":"message","id":"aa11bb22","parentId":null,"timestamp":"2026-08-29T10:00:01.000Z","message":{"role":"user","content":"hi","timestamp":1787000001000},"x-unknown":{"kept":true}}', 2)`,
		// c2 was imported without its header, one event pretty-printed.
		`INSERT INTO transcript_events VALUES ('c2', 1, '{
  "type": "message",
  "id": "cc33dd44",
  "parentId": null,
  "timestamp": "2026-09-10T10:00:01.000Z",
  "message": {"role": "user", "content": "again"}
}', 1)`,
	} {
		_, err := db.Exec(q)
		require.NoError(t, err, q)
	}
	return p
}

func TestAgentDB(t *testing.T) {
	dir := copyState(t)
	p := agentDB(t, dir)
	st, err := Open(dir)
	require.NoError(t, err)
	ops := agent(t, st, "ops")
	assert.Equal(t, p, ops.DBPath)
	d, err := OpenAgentDB(ops.DBPath)
	require.NoError(t, err)
	defer d.Close()
	assert.True(t, d.Immutable)
	ss, err := d.Sessions()
	require.NoError(t, err)
	require.Len(t, ss, 2)
	assert.Equal(t, "c2", ss[0].SessionID)
	assert.True(t, ss[0].Current)
	assert.Equal(t, "reset", ss[0].Reason)
	assert.Equal(t, "c1", ss[0].PreviousID)
	assert.Equal(t, "Ops DM", ss[0].DisplayName)
	assert.Equal(t, "Ops", ss[0].Label)
	assert.Equal(t, 1, ss[0].Events)
	assert.False(t, ss[1].Current)
	assert.Equal(t, 2, ss[1].Events)

	var buf bytes.Buffer
	n, err := d.Export("c1", &buf)
	require.NoError(t, err)
	assert.Equal(t, 2, n)
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	require.Len(t, lines, 2)
	assert.Equal(t, `{"type":"message","id":"aa11bb22","parentId":null,"timestamp":"2026-08-29T10:00:01.000Z","message":{"role":"user","content":"hi","timestamp":1787000001000},"x-unknown":{"kept":true}}`, lines[1], "events are copied byte for byte")

	buf.Reset()
	n, err = d.Export("c2", &buf)
	require.NoError(t, err)
	assert.Equal(t, 2, n)
	lines = strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	assert.Equal(t, `{"type":"session","version":3,"id":"c2","timestamp":"2026-08-29T10:40:00.000Z","cwd":""}`, lines[0])
	assert.Equal(t, `{"type":"message","id":"cc33dd44","parentId":null,"timestamp":"2026-09-10T10:00:01.000Z","message":{"role":"user","content":"again"}}`, lines[1])

	_, err = d.Export("nope", io.Discard)
	assert.ErrorIs(t, err, ErrNoEvents)
	// Reading left no side files next to the idle database.
	ents, _ := os.ReadDir(filepath.Dir(p))
	assert.Len(t, ents, 1)
}

// TestWriteSQLiteFixture regenerates testdata/openclaw/sqlite-state (an
// OpenClaw ≥ 2026.8 state folder with one agent database) when
// SESSCTL_REGEN_FIXTURES=1; otherwise it checks the committed copy reads.
func TestWriteSQLiteFixture(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "testdata", "openclaw", "sqlite-state")
	if os.Getenv("SESSCTL_REGEN_FIXTURES") == "1" {
		require.NoError(t, os.RemoveAll(dir))
		agentDB(t, dir)
	}
	p := filepath.Join(dir, "agents", "ops", "agent", "openclaw-agent.sqlite")
	d, err := OpenAgentDB(p)
	require.NoError(t, err)
	defer d.Close()
	ss, err := d.Sessions()
	require.NoError(t, err)
	assert.Len(t, ss, 2)
	db, id, ok := ParseDBRef(p + "#c1")
	require.True(t, ok)
	assert.Equal(t, p, db)
	assert.Equal(t, "c1", id)
	_, _, ok = ParseDBRef(p)
	assert.False(t, ok)
	tmp, err := ExportTemp(p, "c2")
	require.NoError(t, err)
	defer os.Remove(tmp)
	b, err := os.ReadFile(tmp)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(b), `{"type":"session","version":3,"id":"c2"`))
	ents, _ := os.ReadDir(filepath.Dir(p))
	assert.Len(t, ents, 1, "reading leaves no side files")
}

func FuzzReadIndex(f *testing.F) {
	b, _ := os.ReadFile(filepath.Join(stateFixture, "agents", "main", "sessions", "sessions.json"))
	f.Add(b)
	f.Add([]byte(`{"k":{"sessionId":"x","updatedAt":1,"sessionFile":"../../x.jsonl"}}`))
	f.Add([]byte(`{"a":{"sessionId":`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(t.TempDir(), "sessions.json")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		idx, err := ReadIndex(p)
		var ie *IndexError
		if err != nil && !errors.As(err, &ie) {
			t.Fatalf("unexpected error type %T: %v", err, err)
		}
		if err == nil {
			seen := map[string]bool{}
			for _, e := range idx.Entries {
				if seen[e.Key] {
					t.Fatalf("duplicate key %q kept", e.Key)
				}
				seen[e.Key] = true
			}
		}
		// The file is never changed.
		got, _ := os.ReadFile(p)
		if !bytes.Equal(got, data) {
			t.Fatal("ReadIndex changed the file")
		}
	})
}
