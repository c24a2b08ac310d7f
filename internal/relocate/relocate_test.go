package relocate

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/sessctl/sessctl/internal/discover"
	"github.com/sessctl/sessctl/internal/model"
	"github.com/sessctl/sessctl/internal/sessfmt"
	"github.com/sessctl/sessctl/internal/sessfmt/formats"
	"github.com/stretchr/testify/require"
)

const (
	oldDir = "/work/demo"
	newDir = "/work/demo2" // a sibling whose name starts like OLD's
)

func write(t *testing.T, p, s string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, []byte(s), 0o640))
}

func piSession(id, cwd, text string) string {
	return `{"type":"session","version":3,"id":"` + id + `","timestamp":"2026-01-01T00:00:00.000Z","cwd":"` + cwd + `"}` + "\n" +
		`{"type":"message","id":"a1","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"` + text + `","timestamp":1}}` + "\n" +
		`{"type":"message","id":"a2","parentId":"a1","timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"assistant","content":[{"type":"text","text":"ok"}],"timestamp":2}}` + "\n"
}

func claudeLine(parent, uuid, cwd, typ, text string, side bool) string {
	p := "null"
	if parent != "" {
		p = `"` + parent + `"`
	}
	role := "user"
	content := `"` + text + `"`
	if typ == "assistant" {
		role = "assistant"
		content = `[{"type":"text","text":"` + text + `"}]`
	}
	return fmt.Sprintf(`{"parentUuid":%s,"isSidechain":%v,"userType":"external","cwd":"%s","sessionId":"S","version":"2.1.0","gitBranch":"","type":"%s","message":{"role":"%s","content":%s},"uuid":"%s","timestamp":"2026-01-01T00:00:0%s.000Z"}`+"\n",
		p, side, cwd, typ, role, content, uuid, uuid[1:])
}

// home builds a home with every agent: pi (NEW's folder exists: merge),
// oh-my-pi, Claude Code (subagent, tool results, memory/, a session of
// another project sharing the lossy folder name, cwd changes inside a
// transcript), OpenClaw and an OpenCode JSON store.
func home(t *testing.T) (string, func(string) string) {
	t.Helper()
	h := t.TempDir()
	env := map[string]string{"HOME": h, "XDG_DATA_HOME": filepath.Join(h, "data"), "XDG_CACHE_HOME": filepath.Join(h, "cache")}
	pi := filepath.Join(h, ".pi", "agent", "sessions")
	write(t, filepath.Join(pi, "--work-demo--", "2026-01-01T00-00-00-000Z_0199aaaa-0000-7000-8000-000000000001.jsonl"),
		piSession("0199aaaa-0000-7000-8000-000000000001", oldDir, "pi in /work/demo"))
	write(t, filepath.Join(pi, "--work-demo--", "2026-01-02T00-00-00-000Z_0199aaaa-0000-7000-8000-000000000002.jsonl"),
		piSession("0199aaaa-0000-7000-8000-000000000002", oldDir+"/sub", "pi in a subfolder"))
	write(t, filepath.Join(pi, "--work-demo2--", "2026-01-03T00-00-00-000Z_0199aaaa-0000-7000-8000-000000000003.jsonl"),
		piSession("0199aaaa-0000-7000-8000-000000000003", newDir, "already in NEW"))
	omp := filepath.Join(h, ".omp", "agent", "sessions")
	write(t, filepath.Join(omp, "--work-demo--", "2026-01-04T00-00-00-000Z_0199bbbb-0000-7000-8000-000000000001.jsonl"),
		piSession("0199bbbb-0000-7000-8000-000000000001", oldDir, "omp"))
	write(t, filepath.Join(omp, "--work-demo--", "2026-01-04T00-00-00-000Z_0199bbbb-0000-7000-8000-000000000001", "0-task.jsonl"),
		piSession("0199bbbb-0000-7000-8000-000000000009", oldDir, "omp subagent"))
	cl := filepath.Join(h, ".claude", "projects", "-work-demo")
	id := "aaaaaaaa-0000-4000-8000-000000000001"
	write(t, filepath.Join(cl, id+".jsonl"),
		claudeLine("", "u1", oldDir, "user", "hello", false)+
			claudeLine("u1", "u2", oldDir+"/sub", "assistant", "hi "+oldDir, false)+
			claudeLine("u2", "u3", "/work/demonstration", "user", "elsewhere", false)+
			claudeLine("u3", "u4", oldDir, "assistant", "done", false))
	write(t, filepath.Join(cl, id, "subagents", "agent-x1.jsonl"), claudeLine("", "s1", oldDir, "user", "sub", true))
	write(t, filepath.Join(cl, id, "tool-results", "r1.txt"), "tool output\n")
	write(t, filepath.Join(cl, "memory", "MEMORY.md"), "notes\n")
	// /work-demo encodes to the same folder name: it stays.
	write(t, filepath.Join(cl, "bbbbbbbb-0000-4000-8000-000000000002.jsonl"), claudeLine("", "u1", "/work-demo", "user", "other project", false))
	write(t, filepath.Join(h, ".claude.json"), `{"projects":{"/work/demo":{},"/work/demo2x":{}}}`)
	write(t, filepath.Join(h, ".claude", "history.jsonl"), `{"display":"a","project":"/work/demo"}`+"\n"+`{"display":"b","project":"/work/other"}`+"\n")
	// OpenClaw: the fixture agent "work" with its workspace in OLD.
	oc := filepath.Join(h, ".openclaw", "agents", "work", "sessions")
	for _, n := range []string{"sessions.json", "b0000000-0000-4000-8000-000000000001.jsonl"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "openclaw", "state", "agents", "work", "sessions", n))
		require.NoError(t, err)
		write(t, filepath.Join(oc, n), strings.ReplaceAll(string(b), "/home/claw/.openclaw/workspace", oldDir))
	}
	// OpenCode: the JSON store fixture (one session in /work/demo).
	src := filepath.Join("..", "..", "testdata", "opencode", "json-store")
	require.NoError(t, filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		write(t, filepath.Join(h, "data", "opencode", rel), string(b))
		return nil
	}))
	return h, func(k string) string { return env[k] }
}

func scan(t *testing.T, getenv func(string) string) ([]*discover.Session, []discover.Root) {
	t.Helper()
	opts, err := discover.OptionsFrom(getenv, nil)
	require.NoError(t, err)
	opts.Cache = ""
	res := discover.Scan(opts)
	stored, _ := discover.ListStores(opts)
	return append(res.Sessions, stored...), res.Roots
}

func plan(t *testing.T, getenv func(string) string) *Plan {
	t.Helper()
	ss, roots := scan(t, getenv)
	p, err := Make(Input{Old: oldDir, New: newDir, Sessions: ss, Env: discover.Env{Getenv: getenv}, Roots: roots})
	require.NoError(t, err)
	return p
}

type row struct{ Agent, ID, Cwd, Title string }

// listing is what `list --project DIR` shows, by agent and id.
func listing(t *testing.T, getenv func(string) string, dir string) []row {
	ss, _ := scan(t, getenv)
	var out []row
	for _, s := range ss {
		if Under(s.Cwd, dir) && s.SubagentOf == "" {
			out = append(out, row{s.Agent, s.ID, s.Cwd, s.Title})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Agent+out[i].ID < out[j].Agent+out[j].ID })
	return out
}

type sink struct{ msgs []string }

func (s *sink) Header([]string) error { return nil }
func (s *sink) Message(m *model.Message) error {
	b, err := json.Marshal(m)
	s.msgs = append(s.msgs, string(b))
	return err
}

// contexts is what `show` gives for every file session of the project.
func contexts(t *testing.T, getenv func(string) string, dir string) map[string][]string {
	reg := formats.New(getenv)
	out := map[string][]string{}
	ss, _ := scan(t, getenv)
	for _, s := range ss {
		if !Under(s.Cwd, dir) || strings.Contains(s.Path, "#") || s.Agent == "opencode" {
			continue
		}
		sess, err := reg.Open(s.Path, sessfmt.OpenOptions{})
		require.NoError(t, err, s.Path)
		c, ok := sess.(sessfmt.Contexter)
		require.True(t, ok)
		var k sink
		require.NoError(t, c.Transcript(sessfmt.ContextOptions{}, &k))
		sess.Close()
		out[s.Agent+"/"+s.ID] = k.msgs
	}
	return out
}

func moveProject(rows []row) []row {
	out := append([]row(nil), rows...)
	for i := range out {
		out[i].Cwd, _ = Map(out[i].Cwd, oldDir, newDir)
	}
	return out
}

func TestRelocateAllAgents(t *testing.T) {
	h, getenv := home(t)
	before := listing(t, getenv, oldDir)
	require.Len(t, before, 6, "%v", before) // pi×2, omp, claude×1 (+ the /work-demo one is not under OLD), openclaw, opencode
	already := listing(t, getenv, newDir)
	ctxBefore := contexts(t, getenv, oldDir)

	p := plan(t, getenv)
	require.NotEmpty(t, p.Steps)
	var notes []string
	for _, r := range p.Reports {
		notes = append(notes, r.Agent+" "+r.What)
	}
	joined := strings.Join(notes, "\n")
	require.Contains(t, joined, "opencode session ses_7e5f3a9b1c01Aa1Bb2Cc3Dd4Ee has directory /work/demo")
	require.Contains(t, joined, "openclaw session b0000000-0000-4000-8000-000000000001")
	require.Contains(t, joined, "claude project entries /work/demo (")
	require.Contains(t, joined, "claude 1 prompt-history lines")
	require.Zero(t, Apply(p, Options{}), "%+v", p.Steps)

	// list --project NEW shows every file session list --project OLD
	// showed (OpenCode and OpenClaw are reported, not moved), plus what
	// was there already.
	after := listing(t, getenv, newDir)
	var want []row
	for _, r := range moveProject(before) {
		if r.Agent != "opencode" && r.Agent != "openclaw" {
			want = append(want, r)
		}
	}
	want = append(want, already...)
	sort.Slice(want, func(i, j int) bool { return want[i].Agent+want[i].ID < want[j].Agent+want[j].ID })
	require.Equal(t, want, after)
	// contexts equal
	ctxAfter := contexts(t, getenv, newDir)
	for k, v := range ctxBefore {
		if strings.HasPrefix(k, "openclaw/") {
			continue
		}
		require.Equal(t, v, ctxAfter[k], k)
	}
	// layout: merged, never nested; the other project stays; memory moved
	cl := filepath.Join(h, ".claude", "projects")
	require.FileExists(t, filepath.Join(cl, "-work-demo2", "aaaaaaaa-0000-4000-8000-000000000001", "tool-results", "r1.txt"))
	// memory/ stays with the other project that shares the folder name
	require.FileExists(t, filepath.Join(cl, "-work-demo", "memory", "MEMORY.md"))
	require.FileExists(t, filepath.Join(cl, "-work-demo", "bbbbbbbb-0000-4000-8000-000000000002.jsonl"))
	require.NoDirExists(t, filepath.Join(cl, "-work-demo2", "-work-demo"))
	require.NoDirExists(t, filepath.Join(h, ".pi", "agent", "sessions", "--work-demo--"))
	b, err := os.ReadFile(filepath.Join(cl, "-work-demo2", "aaaaaaaa-0000-4000-8000-000000000001.jsonl"))
	require.NoError(t, err)
	wantClaude := claudeLine("", "u1", newDir, "user", "hello", false) +
		claudeLine("u1", "u2", newDir+"/sub", "assistant", "hi "+oldDir, false) +
		claudeLine("u2", "u3", "/work/demonstration", "user", "elsewhere", false) +
		claudeLine("u3", "u4", newDir, "assistant", "done", false)
	require.Equal(t, wantClaude, string(b), "only cwd at path boundaries changes")
	// mode kept
	st, err := os.Stat(filepath.Join(cl, "-work-demo2", "aaaaaaaa-0000-4000-8000-000000000001.jsonl"))
	require.NoError(t, err)
	require.Equal(t, fs.FileMode(0o640), st.Mode().Perm())

	// a second run is a no-op
	p2 := plan(t, getenv)
	require.Empty(t, p2.Steps, "%+v", p2.Steps)
}

// snapshotTree maps every regular file below dir (but sessctl backups) to
// its content.
func snapshotTree(t *testing.T, dir string) map[string]string {
	out := map[string]string{}
	require.NoError(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() && !strings.Contains(d.Name(), ".sessctl-") && !strings.HasPrefix(d.Name(), ".") {
			b, err := os.ReadFile(p)
			require.NoError(t, err)
			rel, _ := filepath.Rel(dir, p)
			out[rel] = string(b)
		}
		return nil
	}))
	return out
}

type stop struct{}

// TestRelocateInterrupted stops a run at every checkpoint in turn (as a
// SIGKILL would: nothing after it runs, temp files stay) and checks that a
// second run completes it to the same state as an uninterrupted run.
func TestRelocateInterrupted(t *testing.T) {
	h, getenv := home(t)
	require.Zero(t, Apply(plan(t, getenv), Options{NoBackup: true}))
	want := snapshotTree(t, h)
	var points []string
	h2, getenv2 := home(t)
	Apply(plan(t, getenv2), Options{NoBackup: true, Checkpoint: func(s string) { points = append(points, s) }})
	_ = h2
	require.Greater(t, len(points), 10)
	for _, at := range points {
		t.Run(at, func(t *testing.T) {
			h, getenv := home(t)
			func() {
				defer func() {
					if r := recover(); r != nil && r != (stop{}) {
						panic(r)
					}
				}()
				Apply(plan(t, getenv), Options{NoBackup: true, Checkpoint: func(s string) {
					if s == at {
						panic(stop{})
					}
				}})
			}()
			p := plan(t, getenv)
			require.Zero(t, Apply(p, Options{NoBackup: true}), "%+v", p.Steps)
			require.Equal(t, want, snapshotTree(t, h))
			require.Empty(t, plan(t, getenv).Steps)
		})
	}
}

// TestRelocateConflict: a transcript of the same name with other bytes in
// NEW's folder is never replaced, and the rewrite that depended on the
// move is skipped (it would have edited the other file).
func TestRelocateConflict(t *testing.T) {
	h, getenv := home(t)
	id := "aaaaaaaa-0000-4000-8000-000000000001"
	other := filepath.Join(h, ".claude", "projects", "-work-demo2", id+".jsonl")
	write(t, other, claudeLine("", "z1", "/elsewhere", "user", "a different file", false))
	p := plan(t, getenv)
	require.NotZero(t, Apply(p, Options{NoBackup: true}))
	var moveFailed, skipped bool
	for _, st := range p.Steps {
		if st.Action == ActMove && st.Status == "failed" && strings.HasSuffix(st.Path, id+".jsonl") {
			moveFailed = true
			require.Contains(t, st.Error, "exists with other content")
		}
		if st.Action == ActRewrite && st.Path == other {
			require.Equal(t, "skipped", st.Status)
			skipped = true
		}
	}
	require.True(t, moveFailed && skipped, "%+v", p.Steps)
	b, err := os.ReadFile(other)
	require.NoError(t, err)
	require.Equal(t, claudeLine("", "z1", "/elsewhere", "user", "a different file", false), string(b))
	require.FileExists(t, filepath.Join(h, ".claude", "projects", "-work-demo", id+".jsonl"))
}
