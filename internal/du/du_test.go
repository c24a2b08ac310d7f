package du

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessctl/sessctl/internal/sessfmt"
)

func write(t *testing.T, p string, n int) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(strings.Repeat("x", n)), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestSiblingsLinksAndSharedStores(t *testing.T) {
	d := t.TempDir()
	a := filepath.Join(d, "a.jsonl")
	write(t, a, 100)
	write(t, a+".rejected.jsonl", 10)                                            // sessctl sidecar
	write(t, filepath.Join(d, ".a.jsonl.rejected.jsonl.sessctl-1-x.journal"), 1) // its journal
	write(t, a+".bak", 7)                                                        // an agent's backup
	write(t, a+".bak-123-456", 3)                                                // OpenClaw's
	write(t, a+".sessctl-20260101T000000Z.bak", 50)                              // a sessctl backup copy
	if err := os.Link(a, a+".sessctl-20260102T000000Z.bak"); err != nil {        // a backup that is a link
		t.Fatal(err)
	}
	write(t, a+"x.jsonl", 1000)                    // another session, not a sibling
	write(t, filepath.Join(d, "a.jsonl.notes"), 5) // not a backup: not counted
	store := filepath.Join(d, "blobs")
	write(t, filepath.Join(store, "h1"), 30)
	write(t, filepath.Join(store, "h2"), 40)

	m := New(BySession)
	m.Add(Session{Agent: "omp", ID: "a", Project: "/p", Ref: a, Files: []sessfmt.FileUse{
		{Path: a, Kind: "transcript"},
		{Path: filepath.Join(store, "h1"), Kind: "blob", Bytes: 30, Shared: store},
	}})
	m.Add(Session{Agent: "omp", ID: "b", Project: "/p", Ref: a + "x.jsonl", Files: []sessfmt.FileUse{
		{Path: a + "x.jsonl", Kind: "transcript"},
		{Path: filepath.Join(store, "h1"), Kind: "blob", Bytes: 30, Shared: store},
	}})
	rows := m.Rows()
	if len(m.Errors) > 0 {
		t.Fatal(m.Errors)
	}
	byGroup := map[string]Row{}
	for _, r := range rows {
		byGroup[r.Group] = r
	}
	ra := byGroup["a"]
	want := map[string]int64{"transcript": 100, "sessctl-sidecar": 11, "agent-backup": 10, "sessctl-backup": 50}
	for k, v := range want {
		if ra.Kinds[k] != v {
			t.Errorf("a: %s = %d, want %d (%v)", k, ra.Kinds[k], v, ra.Kinds)
		}
	}
	if ra.Bytes != 171 || ra.Files != 6 || ra.SharedBytes != 30 {
		t.Errorf("a: %+v", ra)
	}
	if rb := byGroup["b"]; rb.Bytes != 1000 || rb.SharedBytes != 30 {
		t.Errorf("b: %+v", rb)
	}
	s := byGroup["(shared)"]
	if s.Bytes != 70 || s.Shared != store || s.Kinds["blob"] != 70 {
		t.Errorf("store row: %+v", s)
	}
	if tot := Sum(rows); tot.Bytes != 171+1000+70 {
		t.Errorf("total %d", tot.Bytes)
	}
	if rows[0].Group != "b" {
		t.Errorf("not largest first: %v", rows[0].Group)
	}

	// --by agent: the store is in its agent's row, once
	m = New(ByAgent)
	m.Add(Session{Agent: "omp", Ref: a, Files: []sessfmt.FileUse{{Path: a, Kind: "transcript"}, {Path: filepath.Join(store, "h1"), Bytes: 30, Shared: store}}})
	m.Add(Session{Agent: "omp", Ref: a + "x.jsonl", Files: []sessfmt.FileUse{{Path: filepath.Join(store, "h2"), Bytes: 40, Shared: store}}})
	rows = m.Rows()
	if len(rows) != 1 || rows[0].Bytes != 171+70 || rows[0].SharedBytes != 0 || rows[0].Sessions != 2 {
		t.Errorf("by agent: %+v", rows)
	}
}

func TestHuman(t *testing.T) {
	for n, want := range map[int64]string{0: "0 B", 1023: "1023 B", 1024: "1.0 KiB", 1536: "1.5 KiB", 5 << 20: "5.0 MiB", 3 << 30: "3.0 GiB", 2 << 40: "2.0 TiB"} {
		if got := Human(n); got != want {
			t.Errorf("Human(%d) = %q, want %q", n, got, want)
		}
	}
	if _, err := ParseGroup("day"); err == nil {
		t.Error("ParseGroup(day): no error")
	}
}
