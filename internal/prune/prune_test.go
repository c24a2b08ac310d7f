package prune

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/sessctl/sessctl/internal/discover"
	"github.com/stretchr/testify/require"
)

var now = time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)

func sess(t *testing.T, dir, agent, id, cwd string, age time.Duration, msgs int, size int) *discover.Session {
	p := filepath.Join(dir, id+".jsonl")
	require.NoError(t, os.WriteFile(p, make([]byte, size), 0o600))
	old := now.Add(-48 * time.Hour)
	require.NoError(t, os.Chtimes(p, old, old))
	return &discover.Session{Agent: agent, ID: id, Path: p, Root: filepath.Dir(dir), Cwd: cwd, Modified: now.Add(-age), Messages: msgs, Bytes: int64(size)}
}

func ids(cs []*Candidate) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.ID)
	}
	return out
}

func TestSelect(t *testing.T) {
	dir := t.TempDir()
	ss := []*discover.Session{
		sess(t, dir, "pi", "a1", "/a", 1*time.Hour, 3, 10),
		sess(t, dir, "pi", "a2", "/a", 2*time.Hour, 3, 5000),
		sess(t, dir, "pi", "a3", "/a", 100*24*time.Hour, 0, 10),
		sess(t, dir, "claude", "b1", "/b", 100*24*time.Hour, 3, 10),
	}
	sub := sess(t, dir, "pi", "a4", "/a", 200*24*time.Hour, 1, 10)
	sub.SubagentOf = "x"
	ss = append(ss, sub)
	c := Criteria{Keep: -1}
	c.OlderThan = 30 * 24 * time.Hour
	require.Equal(t, []string{"a3", "b1"}, ids(Select(ss, c, now)))
	c = Criteria{Keep: 1}
	require.Equal(t, []string{"a2", "a3"}, ids(Select(ss, c, now)))
	c = Criteria{Keep: -1, LargerThan: 1000}
	require.Equal(t, []string{"a2"}, ids(Select(ss, c, now)))
	c = Criteria{Keep: -1, Empty: true}
	require.Equal(t, []string{"a3"}, ids(Select(ss, c, now)))
	c = Criteria{Keep: 1, OlderThan: 30 * 24 * time.Hour}
	require.Equal(t, []string{"a3"}, ids(Select(ss, c, now)))
	require.False(t, Criteria{Keep: -1}.Any())
}

func TestGuard(t *testing.T) {
	dir := t.TempDir()
	parent := sess(t, dir, "pi", "p", "/a", 100*24*time.Hour, 1, 10)
	child := sess(t, dir, "pi", "c", "/a", time.Hour, 1, 10)
	pp := parent.Path
	child.ParentSession = &pp
	fresh := sess(t, dir, "pi", "f", "/a", 100*24*time.Hour, 1, 10)
	require.NoError(t, os.Chtimes(fresh.Path, now.Add(-time.Minute), now.Add(-time.Minute)))
	oc := &discover.Session{Agent: "opencode", ID: "ses_1", Path: "/x/opencode.db#ses_1", Cwd: "/a", Modified: now.Add(-100 * 24 * time.Hour)}
	all := []*discover.Session{parent, child, fresh, oc}
	cands := Select(all, Criteria{Keep: -1, OlderThan: 24 * time.Hour}, now)
	live := &Live{open: map[string][]int{}, claude: map[string]int{}, Grace: time.Hour, Now: now}
	Guard(cands, all, live, false, false)
	st := map[string]*Candidate{}
	for _, c := range cands {
		st[c.ID] = c
	}
	require.Equal(t, "refused", st["p"].Status)
	require.Contains(t, st["p"].Why, "lineage: parent of c")
	require.Equal(t, "refused", st["f"].Status)
	require.Contains(t, st["f"].Why, "within the grace period")
	require.Equal(t, "report-only", st["ses_1"].Status)
	require.Equal(t, "opencode session delete ses_1", st["ses_1"].Command)

	cands = Select(all, Criteria{Keep: -1, OlderThan: 24 * time.Hour}, now)
	Guard(cands, all, live, true, true)
	for _, c := range cands {
		if c.ID == "p" {
			require.Equal(t, "would-delete", c.Status)
			require.Contains(t, c.Why, "lineage broken (--force)")
		}
	}
	// an open file makes a session live
	live.open[parent.Path] = []int{4242}
	cands = Select(all, Criteria{Keep: -1, OlderThan: 24 * time.Hour}, now)
	Guard(cands, all, live, true, false)
	for _, c := range cands {
		if c.ID == "p" {
			require.Equal(t, "refused", c.Status)
			require.Contains(t, c.Why, "process 4242 has")
		}
	}
}

func TestBelongsClaude(t *testing.T) {
	cfg := t.TempDir()
	root := filepath.Join(cfg, "projects")
	id := "cccccccc-0000-4000-8000-000000000001"
	p := filepath.Join(root, "-w", id+".jsonl")
	for _, f := range []string{p, p + ".rejected.jsonl", p + ".sessctl-20260101T000000Z.bak",
		filepath.Join(root, "-w", id, "subagents", "agent-a.jsonl"), filepath.Join(root, "-w", id, "tool-results", "t.txt"),
		filepath.Join(cfg, "file-history", id, "f@v1"), filepath.Join(cfg, "todos", id+"-agent-"+id+".json"),
		filepath.Join(cfg, "debug", id+".txt"), filepath.Join(root, "-w", "other.jsonl")} {
		require.NoError(t, os.MkdirAll(filepath.Dir(f), 0o700))
		require.NoError(t, os.WriteFile(f, []byte("12345"), 0o600))
	}
	b := belongs("claude", p, id, root, nil)
	require.Len(t, b.Files, 8)
	require.Equal(t, p, b.Files[0])
	require.Equal(t, int64(40), b.Bytes)
	require.NotContains(t, b.Files, filepath.Join(root, "-w", "other.jsonl"))
}
