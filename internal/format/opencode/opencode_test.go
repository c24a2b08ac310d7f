package opencode

import (
	"database/sql"
	"encoding/json"
	"github.com/sessctl/sessctl/internal/problem"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	sesA  = "ses_7e5f3a9b1c01Aa1Bb2Cc3Dd4Ee" // root: compaction, running bash tool, task child
	sesB  = "ses_7e5f3a9b1c00Ff5Gg6Hh7Ii8Jj" // child of A
	sesC  = "ses_7e5f3a9b0f00Kk9Ll0Mm1Nn2Oo" // pending revert
	sesJ1 = "ses_7fa0000000aaJsonOneSessXyz"
	sesJ4 = "ses_7fa0000000ddJsonLostProjXy"
)

var testdata = filepath.Join("..", "..", "..", "testdata", "opencode")

// copyTree copies src into dst (tests never open the committed files
// directly: SQLite may rebuild a -shm index next to a database it reads).
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		in, err := os.Open(p)
		if err != nil {
			return err
		}
		defer in.Close()
		out, err := os.Create(target)
		if err != nil {
			return err
		}
		if _, err := io.Copy(out, in); err != nil {
			out.Close()
			return err
		}
		return out.Close()
	})
	require.NoError(t, err)
}

// realDir returns a temp data dir holding the database opencode-ai wrote
// (plus its -wal file when the generator kept one).
func realDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, n := range []string{"opencode.db", "opencode.db-wal"} {
		if _, err := os.Stat(filepath.Join(testdata, "real", n)); err == nil {
			copyTree(t, filepath.Join(testdata, "real", n), filepath.Join(dir, n))
		}
	}
	return dir
}

func codes(ps []problem.Problem) map[string]int {
	m := map[string]int{}
	for _, p := range ps {
		m[p.Code]++
	}
	return m
}

func findProblem(ps []problem.Problem, code, session string) *problem.Problem {
	for i := range ps {
		if ps[i].Code == code && (session == "" || ps[i].ID == session) {
			return &ps[i]
		}
	}
	return nil
}

// TestRealSessionsMatchOpenCode compares the root sessions sessctl reads with
// `opencode session list --format json` run on the same database.
func TestRealSessionsMatchOpenCode(t *testing.T) {
	s, err := Open(realDir(t))
	require.NoError(t, err)
	defer s.Close()
	s.CountParts = true
	all, probs := s.Sessions()
	require.Empty(t, probs)

	var want []struct {
		ID        string `json:"id"`
		Title     string `json:"title"`
		Updated   int64  `json:"updated"`
		Created   int64  `json:"created"`
		ProjectID string `json:"projectId"`
		Directory string `json:"directory"`
	}
	b, err := os.ReadFile(filepath.Join(testdata, "real", "session-list.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &want))
	require.NotEmpty(t, want)

	var roots []Session
	for _, ss := range all {
		if ss.ParentID == "" {
			roots = append(roots, ss)
		}
	}
	require.Len(t, roots, len(want))
	for i, w := range want {
		got := roots[i]
		assert.Equal(t, w.ID, got.ID)
		assert.Equal(t, w.Title, got.Title)
		assert.Equal(t, w.Updated, got.Updated.UnixMilli())
		assert.Equal(t, w.Created, got.Created.UnixMilli())
		assert.Equal(t, w.ProjectID, got.ProjectID)
		assert.Equal(t, w.Directory, got.Directory)
		assert.Equal(t, []string{"sqlite:opencode.db"}, got.Sources)
	}
	// The child made by the task tool is there too, pointing at its parent.
	kids := Children(all, sesA)
	require.Len(t, kids, 1)
	assert.Equal(t, sesB, kids[0].ID)
	assert.Equal(t, 2, kids[0].Messages)
	assert.Equal(t, 3, kids[0].Parts)
}

// TestWALWithLiveWriter plays a running OpenCode: a writer holds the
// database open in WAL mode with checkpoints off, so its new rows live only in
// opencode.db-wal. The read-only store sees them, and the writer is never
// blocked by the reader.
func TestWALWithLiveWriter(t *testing.T) {
	dir := realDir(t)
	w, err := sql.Open("sqlite", filepath.Join(dir, "opencode.db")+"?_pragma=journal_mode(wal)&_pragma=wal_autocheckpoint(0)")
	require.NoError(t, err)
	defer w.Close()
	w.SetMaxOpenConns(1)
	insert := func(id string) {
		_, err := w.Exec(`INSERT INTO session(id, project_id, slug, directory, title, version, time_created, time_updated) VALUES (?, 'global', 's', '/work/live', 'Live session', '1.18.33', 1800000000000, 1800000000000)`, id)
		require.NoError(t, err)
	}
	insert("ses_live1")
	require.FileExists(t, filepath.Join(dir, "opencode.db-wal"))

	s, err := Open(dir)
	require.NoError(t, err)
	defer s.Close()
	require.False(t, s.DBs[0].Immutable, "a -wal file exists, so immutable=1 must not be used")
	all, _ := s.Sessions()
	assert.Len(t, all, 4)
	assert.Equal(t, "ses_live1", all[0].ID)

	// The writer goes on while the reader's connection is open.
	insert("ses_live2")
	all, _ = s.Sessions()
	assert.Len(t, all, 5)
}

// TestIdleDBNoSideFiles: without a -wal file the database is opened with
// immutable=1, and reading creates no -wal/-shm files.
func TestIdleDBNoSideFiles(t *testing.T) {
	bare := t.TempDir()
	copyTree(t, filepath.Join(testdata, "real", "opencode.db"), filepath.Join(bare, "opencode.db"))
	s, err := Open(bare)
	require.NoError(t, err)
	require.True(t, s.DBs[0].Immutable)
	all, _ := s.Sessions()
	assert.Len(t, all, 3)
	_, err = s.DBs[0].SQL().Exec("DELETE FROM session")
	assert.Error(t, err, "the connection is read-only")
	s.Close()
	ents, err := os.ReadDir(bare)
	require.NoError(t, err)
	assert.Len(t, ents, 1)
}

// TestRealLoadMatchesExport compares Load with `opencode export` output.
func TestRealLoadMatchesExport(t *testing.T) {
	s, err := Open(realDir(t))
	require.NoError(t, err)
	defer s.Close()
	files, err := filepath.Glob(filepath.Join(testdata, "real", "export", "*.json"))
	require.NoError(t, err)
	require.Len(t, files, 3)
	for _, f := range files {
		fh, err := os.Open(f)
		require.NoError(t, err)
		exp, err := ReadExport(fh)
		fh.Close()
		require.NoError(t, err)
		got, err := s.Load(exp.Session.ID)
		require.NoError(t, err)
		assert.Equal(t, "sqlite:opencode.db", got.Source)
		assert.Equal(t, got.Session.Parts, countParts(got.Messages), "a session read alone has its part count")
		require.Len(t, got.Messages, len(exp.Messages), f)
		for i := range exp.Messages {
			em, gm := exp.Messages[i], got.Messages[i]
			assert.Equal(t, em.ID, gm.ID)
			assert.Equal(t, em.Role, gm.Role)
			assert.Equal(t, em.ParentID, gm.ParentID)
			assert.Equal(t, em.Summary, gm.Summary)
			assert.Equal(t, em.Reverted, gm.Reverted)
			require.Len(t, gm.Parts, len(em.Parts))
			for k := range em.Parts {
				ep, gp := em.Parts[k], gm.Parts[k]
				assert.Equal(t, ep.ID, gp.ID)
				assert.Equal(t, ep.Type, gp.Type)
				assert.Equal(t, ep.Text, gp.Text)
				assert.Equal(t, ep.Status, gp.Status)
				assert.Equal(t, ep.Output, gp.Output)
				assert.Equal(t, gp.MessageID, gm.ID)
			}
		}
	}
}

func countParts(ms []Message) int {
	n := 0
	for _, m := range ms {
		n += len(m.Parts)
	}
	return n
}

func TestRealPartsDecoded(t *testing.T) {
	s, err := Open(realDir(t))
	require.NoError(t, err)
	defer s.Close()
	tr, err := s.Load("ses_7e5f3a9b1c01") // unique prefix
	require.NoError(t, err)
	require.Len(t, tr.Messages, 8)
	a := tr.Messages[1]
	var types []string
	for _, p := range a.Parts {
		types = append(types, p.Type)
	}
	assert.Equal(t, []string{"step-start", "reasoning", "tool", "tool", "text", "step-finish"}, types)
	task := a.Parts[3]
	assert.Equal(t, "task", task.Tool)
	assert.Equal(t, "completed", task.Status)
	assert.Equal(t, sesB, task.ChildID)
	assert.JSONEq(t, `{"description":"Inspect grammar","prompt":"Find every grammar rule for blank lines.","subagent_type":"explore"}`, string(task.Input))
	fin := a.Parts[5]
	require.NotNil(t, fin.Tokens)
	assert.Equal(t, int64(1200), fin.Tokens.Input)
	assert.InDelta(t, 0.0123, fin.Cost, 1e-9)
	assert.Equal(t, "file", tr.Messages[0].Parts[1].Type)
	assert.Equal(t, "parser.go", tr.Messages[0].Parts[1].Filename)
	bash := tr.Messages[3].Parts[1]
	assert.True(t, bash.Unfinished())
	assert.Equal(t, "running", bash.Status)
	assert.Equal(t, []string{"/work/demo/parser_test.go"}, tr.Messages[7].Parts[1].Files)
	assert.Equal(t, "MessageAbortedError", mustLoad(t, s, sesC).Messages[3].Error.Name)
}

func mustLoad(t *testing.T, s *Store, id string) *Transcript {
	t.Helper()
	tr, err := s.Load(id)
	require.NoError(t, err)
	return tr
}

func TestRealCompaction(t *testing.T) {
	s, err := Open(realDir(t))
	require.NoError(t, err)
	defer s.Close()
	tr := mustLoad(t, s, sesA)
	ids := func(idx []int) []string {
		var out []string
		for _, i := range idx {
			out = append(out, tr.Messages[i].ID[len(tr.Messages[i].ID)-16:len(tr.Messages[i].ID)-14])
		}
		return out
	}
	// [compaction request, summary, retained tail (3,4), newer (7,8)]
	assert.Equal(t, []string{"05", "06", "03", "04", "07", "08"}, ids(FilterCompacted(tr.Messages)))
	cs := Compactions(tr.Messages)
	require.Len(t, cs, 1)
	c := cs[0]
	assert.True(t, c.Auto)
	assert.True(t, c.Completed)
	assert.True(t, c.Effective)
	assert.Equal(t, 4, c.Request)
	assert.Equal(t, 5, c.Summary)
	assert.Equal(t, []string{"01", "02"}, ids(c.Hidden))
	assert.Equal(t, []string{"03", "04"}, ids(c.Tail))
}

func TestFilterCompactedWithoutTail(t *testing.T) {
	msgs := []Message{
		{ID: "m1", Role: "user"},
		{ID: "m2", Role: "assistant", ParentID: "m1", Finish: "stop"},
		{ID: "m3", Role: "user", Parts: []Part{{Type: "compaction"}}},
		{ID: "m4", Role: "assistant", ParentID: "m3", Summary: true, Finish: "stop"},
		{ID: "m5", Role: "user"},
		// A second compaction whose summary failed does not take effect.
		{ID: "m6", Role: "user", Parts: []Part{{Type: "compaction"}}},
		{ID: "m7", Role: "assistant", ParentID: "m6", Summary: true, Finish: "stop", Error: &MessageError{Name: "APIError"}},
	}
	assert.Equal(t, []int{2, 3, 4, 5, 6}, FilterCompacted(msgs))
	cs := Compactions(msgs)
	require.Len(t, cs, 2)
	assert.True(t, cs[0].Effective)
	assert.False(t, cs[1].Completed)
	assert.False(t, cs[1].Effective)
	assert.Equal(t, []int{0, 1}, cs[0].Hidden)
}

func TestRealRevert(t *testing.T) {
	s, err := Open(realDir(t))
	require.NoError(t, err)
	defer s.Close()
	tr := mustLoad(t, s, sesC)
	require.NotNil(t, tr.Session.Revert)
	var rev []bool
	for _, m := range tr.Messages {
		rev = append(rev, m.Reverted)
	}
	assert.Equal(t, []bool{false, false, true, true}, rev)
	assert.True(t, tr.Messages[3].Parts[0].Reverted)
}

func TestRealCheck(t *testing.T) {
	s, err := Open(realDir(t))
	require.NoError(t, err)
	defer s.Close()
	ps := s.Check()
	assert.Equal(t, map[string]int{CodeToolUnfinished: 1, CodeRevertPending: 1}, codes(ps))
	p := findProblem(ps, CodeRevertPending, sesC)
	require.NotNil(t, p)
	assert.Contains(t, p.Message, "2 message(s)")
	p = findProblem(ps, CodeToolUnfinished, sesA)
	require.NotNil(t, p)
	assert.Equal(t, SevWarning, p.Severity)
	assert.Contains(t, p.Message, "bash")
	sh := p.Located(realDir(t))
	assert.Equal(t, sesA, sh.ID)
	assert.Equal(t, p.Fix, sh.Fix)
	assert.NotEmpty(t, sh.Fix)
	assert.Empty(t, sh.Location, "Located folds the location into the message")
}

// orphanDB builds, from the real database, one with every kind of
// database-level damage check must find.
func orphanDB(t *testing.T) string {
	t.Helper()
	dir := realDir(t)
	db, err := sql.Open("sqlite", filepath.Join(dir, "opencode.db")+"?_pragma=foreign_keys(0)")
	require.NoError(t, err)
	defer db.Close()
	stmts := []string{
		// a message whose session is gone, with a part
		`INSERT INTO message(id, session_id, time_created, time_updated, data) VALUES ('msg_orphan1', 'ses_gone', 1, 1, '{"role":"user","time":{"created":1}}')`,
		`INSERT INTO part(id, message_id, session_id, time_created, time_updated, data) VALUES ('prt_o1', 'msg_orphan1', 'ses_gone', 1, 1, '{"type":"text","text":"x"}')`,
		// parts whose message is gone
		`INSERT INTO part(id, message_id, session_id, time_created, time_updated, data) VALUES ('prt_o2', 'msg_gone', '` + sesA + `', 1, 1, '{"type":"text","text":"y"}')`,
		`INSERT INTO part(id, message_id, session_id, time_created, time_updated, data) VALUES ('prt_o3', 'msg_gone', '` + sesA + `', 1, 1, '{"type":"tool","tool":"write","callID":"c","state":{"status":"pending","input":{},"raw":""}}')`,
		// a part filed under the wrong session
		`INSERT INTO part(id, message_id, session_id, time_created, time_updated, data) SELECT 'prt_mix', id, '` + sesC + `', 1, 1, '{"type":"text","text":"z"}' FROM message WHERE session_id = '` + sesA + `' LIMIT 1`,
		// a child whose parent is gone, under a project that is gone
		`INSERT INTO session(id, project_id, parent_id, slug, directory, title, version, time_created, time_updated) VALUES ('ses_child', 'prj_gone', 'ses_parent_gone', 'c', '/work/x', 'Lost child (@general subagent)', '1.18.33', 5, 5)`,
		// a revert marker that names no message
		`UPDATE session SET revert = '{"messageID":"msg_nowhere"}' WHERE id = '` + sesB + `'`,
	}
	for _, q := range stmts {
		_, err := db.Exec(q)
		require.NoError(t, err, q)
	}
	return dir
}

func TestOrphanDBCheck(t *testing.T) {
	s, err := Open(orphanDB(t))
	require.NoError(t, err)
	defer s.Close()
	ps := s.Check()
	assert.Equal(t, map[string]int{
		CodeOrphanMessage:    1,
		CodeOrphanPart:       1, // msg_gone (msg_orphan1's part has its message)
		CodePartSession:      1,
		CodeParentMissing:    1,
		CodeProjectMissing:   1,
		CodeToolUnfinished:   2, // the running bash, and prt_o3 (pending, orphaned)
		CodeRevertPending:    1,
		CodeRevertTargetGone: 1,
	}, codes(ps), "%v", ps)
	p := findProblem(ps, CodeOrphanMessage, "ses_gone")
	require.NotNil(t, p)
	assert.Contains(t, p.Message, "1 message row(s)")
	p = findProblem(ps, CodeParentMissing, "ses_child")
	require.NotNil(t, p)
	assert.Contains(t, p.Message, "ses_parent_gone")
	assert.NotNil(t, findProblem(ps, CodeRevertTargetGone, sesB))
}

func TestOrphanPartCountsPerMessage(t *testing.T) {
	s, err := Open(orphanDB(t))
	require.NoError(t, err)
	defer s.Close()
	var msgs []string
	for _, p := range s.Check() {
		if p.Code == CodeOrphanPart {
			msgs = append(msgs, p.Message)
		}
	}
	sort.Strings(msgs)
	require.Len(t, msgs, 1)
	assert.Contains(t, strings.Join(msgs, "|"), "2 part row(s) for message msg_gone")
}

func TestJSONStore(t *testing.T) {
	dir := t.TempDir()
	copyTree(t, filepath.Join(testdata, "json-store"), dir)
	require.True(t, Detect(dir))
	s, err := Open(dir)
	require.NoError(t, err)
	defer s.Close()
	require.NotNil(t, s.JSON)
	require.Empty(t, s.DBs)
	all, probs := s.Sessions()
	var ids []string
	for _, ss := range all {
		ids = append(ids, ss.ID)
		assert.Equal(t, []string{"json"}, ss.Sources)
	}
	assert.ElementsMatch(t, []string{sesJ1, sesJ4, sesA}, ids)
	assert.Equal(t, map[string]int{CodeJSONEmpty: 1, CodeJSONNUL: 1}, codes(probs))

	tr := mustLoad(t, s, sesJ1)
	assert.Equal(t, "json", tr.Source)
	require.Len(t, tr.Messages, 2)
	assert.Equal(t, "List the files.", tr.Messages[0].Parts[0].Text)
	require.Len(t, tr.Messages[1].Parts, 1, "the torn part file is skipped")
	assert.Equal(t, 1, tr.Skipped)
	assert.Equal(t, "pending", tr.Messages[1].Parts[0].Status)

	ps := s.Check()
	assert.Equal(t, map[string]int{
		CodeJSONEmpty:      1,
		CodeJSONNUL:        1,
		CodeJSONInvalid:    1,
		CodeToolUnfinished: 1,
		CodeOrphanMessage:  1,
		CodeOrphanPart:     1,
		CodeProjectMissing: 1,
		CodeParentMissing:  1,
	}, codes(ps), "%v", ps)
	for _, p := range ps {
		if p.Code == CodeJSONEmpty || p.Code == CodeJSONNUL || p.Code == CodeJSONInvalid {
			assert.Equal(t, SevError, p.Severity)
		}
	}
	assert.NotNil(t, findProblem(ps, CodeProjectMissing, sesJ4))
}

// TestMixedGenerations: one data dir with JSON storage and a database that
// share an id. Metadata comes from the database; provenance lists both; JSON
// sessions no database holds are reported as not imported.
func TestMixedGenerations(t *testing.T) {
	dir := realDir(t)
	copyTree(t, filepath.Join(testdata, "json-store"), dir)
	s, err := Open(dir)
	require.NoError(t, err)
	defer s.Close()
	all, _ := s.Sessions()
	byID := map[string]Session{}
	for _, ss := range all {
		byID[ss.ID] = ss
	}
	require.Len(t, byID, 5)
	a := byID[sesA]
	assert.Equal(t, []string{"sqlite:opencode.db", "json"}, a.Sources)
	assert.Equal(t, "Fix the parser", a.Title)
	assert.Equal(t, 8, a.Messages)
	assert.Equal(t, []string{"json"}, byID[sesJ1].Sources)

	ps := s.Check()
	var notImported []string
	for _, p := range ps {
		if p.Code == CodeNotImported {
			notImported = append(notImported, p.ID)
		}
	}
	assert.ElementsMatch(t, []string{sesJ1, sesJ4}, notImported)
}

func TestOpenSingleDBAndErrors(t *testing.T) {
	dir := realDir(t)
	s, err := Open(filepath.Join(dir, "opencode.db"))
	require.NoError(t, err)
	all, _ := s.Sessions()
	assert.Len(t, all, 3)
	s.Close()

	_, err = Open(t.TempDir())
	assert.ErrorIs(t, err, ErrNotOpenCode)

	s, err = Open(dir)
	require.NoError(t, err)
	defer s.Close()
	_, err = s.Load("ses_nope")
	assert.ErrorIs(t, err, ErrSessionNotFound)
	_, err = s.Load("ses_7e5f") // A, B and C all start with it
	assert.ErrorIs(t, err, ErrAmbiguous)
	// Issue 15 item 3: the candidates are listed, as pi's and Claude's are.
	require.Error(t, err)
	for _, id := range []string{sesA, sesB, sesC} {
		assert.Contains(t, err.Error(), "\n  "+id)
	}

	// A second channel database is read too, after opencode.db.
	copyTree(t, filepath.Join(testdata, "real", "opencode.db"), filepath.Join(dir, "opencode-dev.db"))
	s2, err := Open(dir)
	require.NoError(t, err)
	defer s2.Close()
	require.Len(t, s2.DBs, 2)
	assert.Equal(t, "opencode.db", s2.DBs[0].Name)
	all, _ = s2.Sessions()
	byID := map[string]Session{}
	for _, ss := range all {
		byID[ss.ID] = ss
	}
	assert.Equal(t, []string{"sqlite:opencode.db", "sqlite:opencode-dev.db"}, byID[sesA].Sources)
}

func TestDefaultDataDir(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", "/x/data")
	assert.Equal(t, "/x/data/opencode", DefaultDataDir())
	t.Setenv("XDG_DATA_HOME", "")
	t.Setenv("HOME", "/home/u")
	assert.Equal(t, "/home/u/.local/share/opencode", DefaultDataDir())
}

func TestDSNEscapes(t *testing.T) {
	assert.Equal(t, "file:/a%3fb%23c%25d.db?mode=ro&_pragma=query_only(1)&_pragma=busy_timeout(5000)", dsn("/a?b#c%d.db", false))
	assert.Contains(t, dsn("/a.db", true), "immutable=1")
}

// TestV2Tables reads an OpenCode 2 session from session_v2/session_message.
func TestV2Tables(t *testing.T) {
	dir := realDir(t)
	db, err := sql.Open("sqlite", filepath.Join(dir, "opencode.db"))
	require.NoError(t, err)
	for _, q := range []string{
		`CREATE TABLE session_v2 (id text PRIMARY KEY, project_id text NOT NULL, parent_id text, slug text NOT NULL, directory text NOT NULL, title text, version text NOT NULL, cost real DEFAULT 0 NOT NULL, tokens_input integer DEFAULT 0 NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL)`,
		`INSERT INTO session_v2(id, project_id, slug, directory, title, version, cost, tokens_input, time_created, time_updated) VALUES ('ses_v2only', 'global', 'v2', '/work/v2', 'Made by OpenCode 2', '2.0.12', 0.5, 99, 1800000000000, 1800000001000)`,
		`INSERT INTO session_v2(id, project_id, slug, directory, title, version, time_created, time_updated) VALUES ('` + sesA + `', 'global', 'a', '/work/demo', 'Fix the parser (v2)', '2.0.12', 1767225600000, 1767225660000)`,
		`INSERT INTO session_message(id, session_id, type, seq, time_created, time_updated, data) VALUES
			('msg_v2a', 'ses_v2only', 'user', 1, 1800000000000, 1800000000000, '{"text":"hello v2"}'),
			('msg_v2b', 'ses_v2only', 'assistant', 2, 1800000000500, 1800000000500, '{"agent":"build","model":{"id":"gpt-5","providerID":"openai"},"content":[{"type":"reasoning","id":"r1","text":"think"},{"type":"tool","id":"call_9","name":"bash","state":{"status":"completed","input":{"command":"ls"},"content":[{"type":"text","text":"a.go"}]}},{"type":"text","text":"done"}],"finish":"stop"}')`,
	} {
		_, err := db.Exec(q)
		require.NoError(t, err, q)
	}
	db.Close()

	s, err := Open(dir)
	require.NoError(t, err)
	defer s.Close()
	all, _ := s.Sessions()
	byID := map[string]Session{}
	for _, ss := range all {
		byID[ss.ID] = ss
	}
	v2 := byID["ses_v2only"]
	assert.Equal(t, []string{"sqlite-v2:opencode.db"}, v2.Sources)
	assert.Equal(t, 2, v2.Messages)
	assert.Equal(t, int64(99), v2.Tokens.Input)
	assert.Equal(t, []string{"sqlite-v2:opencode.db", "sqlite:opencode.db"}, byID[sesA].Sources)
	assert.Equal(t, "Fix the parser (v2)", byID[sesA].Title)

	tr := mustLoad(t, s, "ses_v2only")
	assert.Equal(t, "sqlite-v2:opencode.db", tr.Source)
	require.Len(t, tr.Messages, 2)
	assert.Equal(t, "hello v2", tr.Messages[0].Parts[0].Text)
	m := tr.Messages[1]
	assert.Equal(t, "assistant", m.Role)
	assert.Equal(t, "gpt-5", m.ModelID)
	require.Len(t, m.Parts, 3)
	assert.Equal(t, "bash", m.Parts[1].Tool)
	assert.Equal(t, "call_9", m.Parts[1].CallID)
	assert.Equal(t, "a.go", m.Parts[1].Output)

	// A's v2 row has no session_message rows: messages come from the v1 tables.
	assert.Equal(t, "sqlite:opencode.db", mustLoad(t, s, sesA).Source)
}

func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{"role":"assistant","time":{"created":1},"parentID":"m","summary":true,"finish":"stop","error":{"name":"APIError","data":{"message":"x"}}}`,
		`{"type":"tool","tool":"bash","callID":"c","state":{"status":"completed","input":{"a":1},"output":"o","metadata":{"sessionId":"s"},"time":{"start":1,"end":2,"compacted":3}}}`,
		`{"type":"compaction","auto":true,"tail_start_id":"msg_1"}`,
		`{"type":"patch","files":"not-an-array"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := decodeMessage(data, "msg_x", "ses_x")
		if err == nil && (m.ID != "msg_x" || m.SessionID != "ses_x") {
			t.Fatal("row ids must win over the JSON")
		}
		p, err := decodePart(data, "prt_x", "msg_x", "ses_x")
		if err == nil {
			if p.ID != "prt_x" || p.MessageID != "msg_x" {
				t.Fatal("row ids must win over the JSON")
			}
			_ = partBlocks(&p)
			msgs := []Message{{ID: "msg_x", Role: "user", Parts: []Part{p}}, m}
			_ = FilterCompacted(msgs)
			_ = Compactions(msgs)
		}
	})
}
