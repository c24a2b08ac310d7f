package opencode

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// Benchmark sizes (issue 7): 5,000 sessions and 500,000 parts.
const (
	benchSessions = 5000
	benchMsgs     = 20 // per session → 100,000 messages
	benchParts    = 5  // per message → 500,000 parts
)

// benchDataDir returns $SESSCTL_BENCH_OPENCODE (default
// /tmp/sessctl-opencode-bench), generating data/opencode/opencode.db there
// once. Generated inputs never go into the repository.
func benchDataDir(b *testing.B) string {
	b.Helper()
	root := os.Getenv("SESSCTL_BENCH_OPENCODE")
	if root == "" {
		root = filepath.Join(os.TempDir(), "sessctl-opencode-bench")
	}
	data := filepath.Join(root, "data", "opencode")
	db := filepath.Join(data, "opencode.db")
	if _, err := os.Stat(db); err == nil {
		return data
	}
	b.Logf("generating %s (%d sessions, %d parts)", db, benchSessions, benchSessions*benchMsgs*benchParts)
	if err := GenerateBenchDB(db, filepath.Join(root, "work"), benchSessions, benchMsgs, benchParts); err != nil {
		b.Fatal(err)
	}
	return data
}

// GenerateBenchDB writes an OpenCode database at path with the schema of the
// opencode-ai fixture and n sessions of msgs messages of parts parts each,
// all filed under project "global" in directory dir. Exported for the bench
// script through the test binary only (it lives in a _test file).
func GenerateBenchDB(path, dir string, n, msgs, parts int) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp := path + ".tmp"
	os.Remove(tmp)
	src, err := os.ReadFile(filepath.Join(testdata, "real", "opencode.db"))
	if err != nil {
		return err
	}
	if err := os.WriteFile(tmp, src, 0o644); err != nil {
		return err
	}
	db, err := sql.Open("sqlite", tmp+"?_pragma=journal_mode(delete)&_pragma=synchronous(off)")
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	for _, q := range []string{"DELETE FROM part", "DELETE FROM message", "DELETE FROM session"} {
		if _, err := tx.Exec(q); err != nil {
			return err
		}
	}
	insS, err := tx.Prepare(`INSERT INTO session(id, project_id, parent_id, slug, directory, title, version, cost, tokens_input, tokens_output, time_created, time_updated) VALUES (?, 'global', ?, ?, ?, ?, '1.18.33', ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	insM, err := tx.Prepare(`INSERT INTO message(id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	insP, err := tx.Prepare(`INSERT INTO part(id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	base := int64(1767225600000)
	for s := 0; s < n; s++ {
		sid := fmt.Sprintf("ses_%012x%014d", 0xffffffffffff-s, s)
		t0 := base + int64(s)*60000
		parent := any(nil)
		if s%10 == 9 { // every tenth session is a task child of the one before
			parent = fmt.Sprintf("ses_%012x%014d", 0xffffffffffff-(s-1), s-1)
		}
		if _, err := insS.Exec(sid, parent, "s"+strconv.Itoa(s), dir, fmt.Sprintf("Benchmark session %d", s), 0.01*float64(s%7), 1000*s%9000, 100*s%900, t0, t0+int64(msgs)*1000); err != nil {
			return err
		}
		for m := 0; m < msgs; m++ {
			mid := fmt.Sprintf("msg_%012x%06d%08d", t0+int64(m), s, m)
			data := `{"role":"user","time":{"created":` + strconv.FormatInt(t0+int64(m)*1000, 10) + `},"agent":"build","model":{"providerID":"anthropic","modelID":"claude-sonnet-4"}}`
			if m%2 == 1 {
				data = `{"role":"assistant","time":{"created":` + strconv.FormatInt(t0+int64(m)*1000, 10) + `,"completed":` + strconv.FormatInt(t0+int64(m)*1000+500, 10) + `},"parentID":"` + fmt.Sprintf("msg_%012x%06d%08d", t0+int64(m-1), s, m-1) + `","modelID":"claude-sonnet-4","providerID":"anthropic","mode":"build","agent":"build","path":{"cwd":"/w","root":"/w"},"cost":0.001,"tokens":{"input":100,"output":20,"reasoning":0,"cache":{"read":0,"write":0}},"finish":"stop"}`
			}
			if _, err := insM.Exec(mid, sid, t0+int64(m)*1000, t0+int64(m)*1000, data); err != nil {
				return err
			}
			for p := 0; p < parts; p++ {
				pid := fmt.Sprintf("prt_%012x%06d%04d%04d", t0+int64(m), s, m, p)
				pdata := `{"type":"text","text":"Part ` + strconv.Itoa(p) + ` of message ` + strconv.Itoa(m) + ` in session ` + strconv.Itoa(s) + `: lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor."}`
				if p == parts-1 && m%2 == 1 {
					pdata = `{"type":"tool","callID":"call_` + pid + `","tool":"read","state":{"status":"completed","input":{"filePath":"/w/a.go"},"output":"package a","title":"a.go","metadata":{},"time":{"start":1,"end":2}}}`
				}
				if _, err := insP.Exec(pid, mid, sid, t0+int64(m)*1000, t0+int64(m)*1000, pdata); err != nil {
					return err
				}
			}
		}
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	if err := db.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// BenchmarkList measures what `sessctl list` needs from OpenCode: every
// session merged with message and part counts.
func BenchmarkList(b *testing.B) {
	data := benchDataDir(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s, err := Open(data)
		if err != nil {
			b.Fatal(err)
		}
		all, probs := s.Sessions()
		if len(all) != benchSessions || len(probs) != 0 {
			b.Fatalf("got %d sessions, %v", len(all), probs)
		}
		s.Close()
	}
}

// BenchmarkLoad measures show's read of one session (20 messages, 100 parts).
func BenchmarkLoad(b *testing.B) {
	data := benchDataDir(b)
	s, err := Open(data)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	id := fmt.Sprintf("ses_%012x%014d", 0xffffffffffff-2500, 2500)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t, err := s.Load(id)
		if err != nil || len(t.Messages) != benchMsgs {
			b.Fatal(err, len(t.Messages))
		}
	}
}

// BenchmarkCheck measures check over the whole database.
func BenchmarkCheck(b *testing.B) {
	data := benchDataDir(b)
	for i := 0; i < b.N; i++ {
		s, err := Open(data)
		if err != nil {
			b.Fatal(err)
		}
		if ps := s.Check(); len(ps) != 0 {
			b.Fatalf("unexpected problems: %v", ps[:1])
		}
		s.Close()
	}
}
