package list_test

import (
	"encoding/json"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/sessctl/sessctl/internal/app"
	"github.com/sessctl/sessctl/internal/cmd/list"
	"github.com/sessctl/sessctl/internal/cmdutil"
	"github.com/sessctl/sessctl/internal/iostreams"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fixedMTime is given to every fixture file, so that files without any
// timestamp inside (empty, junk) sort deterministically.
var fixedMTime = time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)

// copyHome copies testdata/home (symlinks kept as symlinks) to a temporary
// HOME and returns it.
func copyHome(t *testing.T) string {
	t.Helper()
	src, err := filepath.Abs(filepath.Join("..", "..", "..", "testdata", "home"))
	require.NoError(t, err)
	dst := filepath.Join(t.TempDir(), "home")
	err = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		to := filepath.Join(dst, rel)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			l, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(l, to)
		case d.IsDir():
			return os.MkdirAll(to, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.WriteFile(to, b, 0o644); err != nil {
			return err
		}
		return os.Chtimes(to, fixedMTime, fixedMTime)
	})
	require.NoError(t, err)
	return dst
}

type env map[string]string

func (e env) get(k string) string { return e[k] }

func newEnv(home string) env {
	base := filepath.Dir(home)
	return env{
		"HOME":            home,
		"XDG_CACHE_HOME":  filepath.Join(base, "cache"),
		"XDG_CONFIG_HOME": filepath.Join(base, "config"),
		"XDG_DATA_HOME":   filepath.Join(base, "data"),
	}
}

type result struct {
	code     int
	out, err string
}

func run(t *testing.T, e env, tty bool, args ...string) result {
	t.Helper()
	ios, _, out, errOut := iostreams.Test()
	ios.SetStdoutTTY(tty)
	ios.SetWidth(120)
	f := &cmdutil.Factory{IO: ios, Getenv: e.get}
	code := app.Run(f, args)
	return result{code, out.String(), errOut.String()}
}

type row struct {
	Agent         string         `json:"agent"`
	Format        string         `json:"format"`
	Dialect       string         `json:"dialect"`
	ID            string         `json:"id"`
	Path          string         `json:"path"`
	Cwd           string         `json:"cwd"`
	Title         string         `json:"title"`
	FirstMessage  string         `json:"firstMessage"`
	Messages      int            `json:"messages"`
	Entries       int            `json:"entries"`
	Bytes         int64          `json:"bytes"`
	Created       *time.Time     `json:"created"`
	Modified      time.Time      `json:"modified"`
	ParentSession *string        `json:"parentSession"`
	SubagentOf    string         `json:"subagentOf"`
	Problems      int            `json:"problems"`
	ProblemCodes  map[string]int `json:"problemCodes"`
}

func listJSON(t *testing.T, e env, args ...string) ([]row, result) {
	t.Helper()
	r := run(t, e, false, append([]string{"list", "--json"}, args...)...)
	require.Equal(t, 0, r.code, "stderr: %s", r.err)
	var rows []row
	require.NoError(t, json.Unmarshal([]byte(r.out), &rows), r.out)
	// every row has every required key
	var raw []map[string]any
	require.NoError(t, json.Unmarshal([]byte(r.out), &raw))
	for _, m := range raw {
		for _, k := range []string{"agent", "id", "path", "cwd", "title", "firstMessage", "messages", "entries", "bytes", "created", "modified", "parentSession", "problems"} {
			assert.Contains(t, m, k)
		}
	}
	return rows, r
}

func ts(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		panic(err)
	}
	return t
}

// want is one expected row, written from the fixture files' contents
// (testdata/home/README.md describes them).
type want struct {
	agent, dialect, id, rel, cwd, title, first string
	messages, entries                          int
	created, modified                          string
	parent, subagentOf                         string
	problems                                   map[string]int
}

var fixtureRows = []want{
	// files without timestamps inside: modified = file mtime (fixedMTime), newest first
	// An empty file: check notes its missing header as information only
	// (pi starts a new session in it), so list says ok (issue 11.11).
	{"pi", "pi", "empty000-0000-7000-8000-000000000000", ".pi/agent/sessions/--home-u-bad--/2026-01-01T00-00-00-000Z_empty000-0000-7000-8000-000000000000.jsonl", "", "", "", 0, 0, "", "2026-06-01T00:00:00Z", "", "", nil},
	{"pi", "pi", "junk", ".pi/agent/sessions/--home-u-bad--/junk.jsonl", "", "", "", 0, 0, "", "2026-06-01T00:00:00Z", "", "", map[string]int{"missing-header": 1, "nul-run": 4, "torn-tail": 1}},
	{"omp", "omp", "019b0000-0000-7000-8000-00000000d001", ".omp/agent/sessions/home-proj-d-6d1f0c3e9a7b2d4c8e5f1a0b3c6d9e2f4a7b0c1d2e3f4a5b6c7d8e9f0a1b2c3d/2026-05-01T00-00-00-000Z_019b0000-0000-7000-8000-00000000d001.jsonl", "/home/u/proj-d", "renamed by title_change", "hashed folder name", 1, 2, "2026-05-01T00:00:00Z", "2026-05-01T00:00:05Z", "", "", nil},
	{"omp", "omp", "019b0000-0000-7000-8000-00000000c001", ".omp/agent/sessions/-proj-c/2026-04-01T12-00-00-000Z_019b0000-0000-7000-8000-00000000c001.jsonl", "/home/u/proj-c", "omp slot title", "explore the repo", 2, 3, "2026-04-01T12:00:00Z", "2026-04-01T12:20:00Z", "", "", nil},
	{"omp", "omp", "019b0000-0000-7000-8000-00000000c0a1", ".omp/agent/sessions/-proj-c/2026-04-01T12-00-00-000Z_019b0000-0000-7000-8000-00000000c001/0-Explore.jsonl", "/home/u/proj-c", "list files", "list files", 2, 3, "2026-04-01T12:00:20Z", "2026-04-01T12:00:30Z", "", ".omp/agent/sessions/-proj-c/2026-04-01T12-00-00-000Z_019b0000-0000-7000-8000-00000000c001.jsonl", nil},
	{"claude", "", "7f3c1a2b-1111-4222-8333-444455556666", ".claude/projects/-home-u-proj-a/7f3c1a2b-1111-4222-8333-444455556666.jsonl", "/home/u/proj-a", "claude titled", "Explain the claude listing", 3, 4, "2026-03-05T10:00:00Z", "2026-03-05T10:00:09Z", "", "", nil},
	{"pi", "pi", "019a0000-0000-7000-8000-00000000f001", ".pi/agent/sessions/--home-u-proj-f--/2026-03-04T00-00-00-000Z_019a0000-0000-7000-8000-00000000f001.jsonl", "/home/u/proj-f", "behind a symlink", "behind a symlink", 1, 1, "2026-03-04T00:00:00Z", "2026-03-04T00:00:05Z", "", "", nil},
	{"pi", "pi", "019a0000-0000-7000-8000-00000000b001", ".pi/agent/sessions/--home-u-proj-b--/2026-03-03T08-00-00-000Z_019a0000-0000-7000-8000-00000000b001.jsonl", "/home/u/proj-b", "Refactor the parser please", "Refactor the parser please", 3, 3, "2026-03-03T08:00:00Z", "2026-03-03T08:10:00Z", "/home/u/.pi/agent/sessions/--home-u-proj-a--/2026-03-01T10-00-00-000Z_019a0000-0000-7000-8000-00000000a001.jsonl", "", nil},
	{"pi", "pi", "019a0000-0000-7000-8000-00000000a002", ".pi/agent/sessions/--home-u-proj-a-sub--/2026-03-02T09-00-00-000Z_019a0000-0000-7000-8000-00000000a002.jsonl", "/home/u/proj-a/sub", "fix the", "fix the\nbuild on linux", 2, 2, "2026-03-02T09:00:00Z", "2026-03-02T09:05:00Z", "", "", nil},
	{"pi", "pi", "019a0000-0000-7000-8000-00000000a001", ".pi/agent/sessions/--home-u-proj-a--/2026-03-01T10-00-00-000Z_019a0000-0000-7000-8000-00000000a001.jsonl", "/home/u/proj-a", "refactor parser", "Refactor the parser please", 4, 6, "2026-03-01T10:00:00Z", "2026-03-01T10:03:00Z", "", "", nil},
	{"xcsh", "xcsh", "0b1b2c3d4e5f6073", ".xcsh/agent/sessions/-proj-e/2026-02-10T00-00-00-000Z_0b1b2c3d4e5f6073.jsonl", "/home/u/proj-e", "xcsh session", "deploy", 2, 3, "2026-02-10T00:00:00Z", "2026-02-10T00:01:00Z", "", "", nil},
	{"omp", "omp", "0a1b2c3d4e5f6071", ".omp/agent/sessions/-tmp-scratch/2026-02-01T00-00-00-000Z_0a1b2c3d4e5f6071.jsonl", "/tmp/scratch", "tmp work", "try something", 1, 2, "2026-02-01T00:00:00Z", "2026-02-01T00:00:05Z", "", "", nil},
	{"omp", "omp", "0a1b2c3d4e5f6072", ".omp/agent/sessions/--opt-x--/2026-01-15T00-00-00-000Z_0a1b2c3d4e5f6072.jsonl", "/opt/x", "legacy absolute folder", "  \n  legacy absolute folder\nsecond line", 1, 1, "2026-01-15T00:00:00Z", "2026-01-15T00:00:05Z", "", "", nil},
	// show prints 1 message: the orphaned reply's parent is gone, so the
	// first message is not in its context (issue 11.11: list counts what
	// show shows).
	{"pi", "pi", "torn0000-0000-7000-8000-000000000000", ".pi/agent/sessions/--home-u-bad--/2026-01-04T00-00-00-000Z_torn0000-0000-7000-8000-000000000000.jsonl", "/home/u/bad", "torn tail next", "torn tail next", 1, 2, "2026-01-04T00:00:00Z", "2026-01-04T00:00:06Z", "", "", map[string]int{"malformed-line": 1, "orphaned-parent": 1, "torn-tail": 1}},
	// show refuses a file without a valid header: no message (11.11).
	{"pi", "pi", "nohdr000-0000-7000-8000-000000000000", ".pi/agent/sessions/--home-u-bad--/2026-01-03T00-00-00-000Z_nohdr000-0000-7000-8000-000000000000.jsonl", "", "no header here", "no header here", 0, 2, "", "2026-01-03T00:00:06Z", "", "", map[string]int{"missing-header": 1}},
	{"pi", "pi", "hdronly0-0000-7000-8000-000000000000", ".pi/agent/sessions/--home-u-bad--/2026-01-02T00-00-00-000Z_hdronly0-0000-7000-8000-000000000000.jsonl", "/home/u/bad", "", "", 0, 0, "2026-01-02T00:00:00Z", "2026-01-02T00:00:00Z", "", "", nil},
}

func checkRows(t *testing.T, home string, got []row, wants []want) {
	t.Helper()
	require.Len(t, got, len(wants))
	for i, w := range wants {
		g := got[i]
		assert.Equal(t, w.agent, g.Agent, "row %d", i)
		assert.Equal(t, w.id, g.ID, "row %d", i)
		assert.Equal(t, filepath.Join(home, w.rel), g.Path, "row %d", i)
		st, err := os.Stat(g.Path)
		require.NoError(t, err)
		assert.Equal(t, st.Size(), g.Bytes, "row %d", i)
		if w.agent == "claude" {
			assert.Equal(t, "claude", g.Format)
		} else {
			assert.Equal(t, "pi", g.Format)
			assert.Equal(t, w.dialect, g.Dialect, "row %d", i)
		}
		assert.Equal(t, w.cwd, g.Cwd, "row %d", i)
		assert.Equal(t, w.title, g.Title, "row %d", i)
		assert.Equal(t, w.first, g.FirstMessage, "row %d", i)
		assert.Equal(t, w.messages, g.Messages, "row %d", i)
		assert.Equal(t, w.entries, g.Entries, "row %d", i)
		if w.created == "" {
			assert.Nil(t, g.Created, "row %d", i)
		} else if assert.NotNil(t, g.Created, "row %d", i) {
			assert.True(t, ts(w.created).Equal(*g.Created), "row %d created %v", i, g.Created)
		}
		assert.True(t, ts(w.modified).Equal(g.Modified), "row %d modified %v", i, g.Modified)
		if w.parent == "" {
			assert.Nil(t, g.ParentSession, "row %d", i)
		} else if assert.NotNil(t, g.ParentSession) {
			assert.Equal(t, w.parent, *g.ParentSession)
		}
		if w.subagentOf != "" {
			assert.Equal(t, filepath.Join(home, w.subagentOf), g.SubagentOf)
		} else {
			assert.Empty(t, g.SubagentOf)
		}
		n := 0
		for _, c := range w.problems {
			n += c
		}
		assert.Equal(t, n, g.Problems, "row %d", i)
		assert.Equal(t, w.problems, g.ProblemCodes, "row %d", i)
	}
}

func TestListFixtureHomeJSON(t *testing.T) {
	home := copyHome(t)
	e := newEnv(home)
	rows, r := listJSON(t, e, "--no-cache")
	assert.Empty(t, r.err)
	checkRows(t, home, rows, fixtureRows)
}

func TestListEnvRoots(t *testing.T) {
	home := copyHome(t)
	e := newEnv(home)
	// Move pi's agent dir and point PI_CODING_AGENT_DIR at it; Claude via CLAUDE_CONFIG_DIR.
	alt := filepath.Join(filepath.Dir(home), "alt-pi")
	require.NoError(t, os.Rename(filepath.Join(home, ".pi", "agent"), alt))
	altClaude := filepath.Join(filepath.Dir(home), "alt-claude")
	require.NoError(t, os.Rename(filepath.Join(home, ".claude"), altClaude))
	rows, _ := listJSON(t, e, "--no-cache", "--agent", "pi", "--agent", "claude")
	assert.Empty(t, rows, "the default roots are gone")
	e["PI_CODING_AGENT_DIR"] = alt
	e["CLAUDE_CONFIG_DIR"] = altClaude
	rows, _ = listJSON(t, e, "--no-cache", "--agent", "pi", "--agent", "claude")
	var piN, clN int
	for _, r := range rows {
		switch r.Agent {
		case "pi":
			piN++
			assert.True(t, strings.HasPrefix(r.Path, alt+string(filepath.Separator)), r.Path)
		case "claude":
			clN++
			assert.True(t, strings.HasPrefix(r.Path, altClaude+string(filepath.Separator)), r.Path)
		}
	}
	assert.Equal(t, 8, piN, "9 pi files, less the one behind a relative folder link that now points nowhere")
	assert.Equal(t, 1, clN)

	// $XDG_DATA_HOME/omp/sessions is used when $XDG_DATA_HOME/omp exists.
	xdg := filepath.Join(e["XDG_DATA_HOME"], "omp", "sessions", "-proj-g")
	require.NoError(t, os.MkdirAll(xdg, 0o755))
	b, err := os.ReadFile(filepath.Join(home, ".omp/agent/sessions/-tmp-scratch/2026-02-01T00-00-00-000Z_0a1b2c3d4e5f6071.jsonl"))
	require.NoError(t, err)
	b = []byte(strings.ReplaceAll(string(b), "0a1b2c3d4e5f6071", "0a1b2c3d4e5f6099"))
	require.NoError(t, os.WriteFile(filepath.Join(xdg, "2026-02-01T00-00-00-000Z_0a1b2c3d4e5f6099.jsonl"), b, 0o644))
	rows, _ = listJSON(t, e, "--no-cache", "--agent", "omp")
	ids := map[string]bool{}
	for _, r := range rows {
		ids[r.ID] = true
	}
	assert.True(t, ids["0a1b2c3d4e5f6099"], "XDG omp session listed")
	assert.True(t, ids["0a1b2c3d4e5f6071"], "~/.omp session still listed")
	assert.Len(t, rows, 6)
}

func TestListFilters(t *testing.T) {
	home := copyHome(t)
	e := newEnv(home)
	ids := func(rows []row) []string {
		var out []string
		for _, r := range rows {
			out = append(out, r.ID)
		}
		return out
	}
	rows, _ := listJSON(t, e, "--agent", "xcsh")
	assert.Equal(t, []string{"0b1b2c3d4e5f6073"}, ids(rows))

	rows, _ = listJSON(t, e, "--project", "/home/u/proj-a")
	assert.Equal(t, []string{"7f3c1a2b-1111-4222-8333-444455556666", "019a0000-0000-7000-8000-00000000a002", "019a0000-0000-7000-8000-00000000a001"}, ids(rows))

	rows, _ = listJSON(t, e, "--since", "2026-03-04", "--agent", "pi", "--agent", "omp", "--agent", "claude")
	for _, r := range rows {
		assert.False(t, r.Modified.Before(time.Date(2026, 3, 4, 0, 0, 0, 0, time.Local)), r.ID)
	}
	assert.Len(t, rows, 7) // empty and junk (file mtime), d001, c001, c0a1, claude, f001

	rows, _ = listJSON(t, e, "--sort", "messages", "--limit", "2")
	require.Len(t, rows, 2)
	assert.Equal(t, "019a0000-0000-7000-8000-00000000a001", rows[0].ID) // 4 messages
	assert.Equal(t, 3, rows[1].Messages)

	rows, _ = listJSON(t, e, "--sort", "size", "--limit", "1")
	assert.Equal(t, "019a0000-0000-7000-8000-00000000a001", rows[0].ID) // 1366 bytes

	rows, _ = listJSON(t, e, "--sort", "created", "--agent", "omp")
	assert.Equal(t, []string{"019b0000-0000-7000-8000-00000000d001", "019b0000-0000-7000-8000-00000000c0a1", "019b0000-0000-7000-8000-00000000c001", "0a1b2c3d4e5f6071", "0a1b2c3d4e5f6072"}, ids(rows))

	for _, bad := range [][]string{{"--agent", "nope"}, {"--sort", "name"}, {"--since", "yesterday"}, {"--limit", "-1"}, {"--root", "pi"}, {"--root", "nope=/x"}} {
		r := run(t, e, false, append([]string{"list"}, bad...)...)
		assert.Equal(t, 2, r.code, "%v: %s", bad, r.err)
	}
}

func TestListTSVAndTable(t *testing.T) {
	home := copyHome(t)
	e := newEnv(home)
	r := run(t, e, false, "list")
	require.Equal(t, 0, r.code)
	lines := strings.Split(strings.TrimSuffix(r.out, "\n"), "\n")
	require.Len(t, lines, len(fixtureRows))
	for i, l := range lines {
		f := strings.Split(l, "\t")
		require.Len(t, f, 9, l)
		w := fixtureRows[i]
		assert.Equal(t, w.agent, f[0])
		assert.Equal(t, w.id, f[1])
		assert.Equal(t, w.title, f[2])
		assert.Equal(t, w.cwd, f[3])
		assert.Equal(t, ts(w.modified).UTC().Format(time.RFC3339), f[6])
		assert.Equal(t, filepath.Join(home, w.rel), f[8])
		if len(w.problems) == 0 {
			assert.Equal(t, "ok", f[7])
		} else {
			assert.NotEqual(t, "ok", f[7])
		}
	}

	r = run(t, e, true, "list", "--agent", "pi", "--limit", "3")
	require.Equal(t, 0, r.code)
	out := r.out
	assert.Contains(t, out, "AGENT")
	assert.Contains(t, out, "STATUS")
	assert.Contains(t, out, "6 problems")
	r = run(t, e, true, "list", "--agent", "pi")
	require.Equal(t, 0, r.code)
	assert.Regexp(t, `[^0-9]1 problem[^s]`, r.out, "the header-less file: one problem, in the singular")
	// short ids: 8 characters, longer where sessions share a prefix (git-like)
	assert.Contains(t, out, " empty000 ")
	assert.Contains(t, out, " 019a0000-0000-7000-8000-00000000f ")
	assert.NotContains(t, out, "019a0000-0000-7000-8000-00000000f001")
	assert.Contains(t, out, "ago")
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		visible := regexp.MustCompile("\x1b\\[[0-9;]*m").ReplaceAllString(l, "")
		assert.LessOrEqual(t, len([]rune(visible)), 120, l)
	}
}

func TestListBadInput(t *testing.T) {
	home := copyHome(t)
	e := newEnv(home)
	bad := filepath.Join(home, ".pi/agent/sessions/--home-u-bad--")
	require.NoError(t, os.Symlink("does-not-exist.jsonl", filepath.Join(bad, "dangling.jsonl")))
	notDir := filepath.Join(home, "a-file")
	require.NoError(t, os.WriteFile(notDir, []byte("x"), 0o644))
	rows, r := listJSON(t, e, "--no-cache", "--root", "omp="+notDir, "--root", "pi="+filepath.Join(home, "missing"))
	assert.Len(t, rows, len(fixtureRows))
	assert.Contains(t, r.err, "dangling.jsonl")
	assert.Contains(t, r.err, "a-file: omp root (from --root) is not a folder")
	assert.Contains(t, r.err, "missing: pi root (from --root) does not exist")

	if os.Geteuid() != 0 {
		locked := filepath.Join(bad, "locked.jsonl")
		require.NoError(t, os.WriteFile(locked, []byte("{}\n"), 0o000))
		rows, r = listJSON(t, e, "--no-cache")
		assert.Len(t, rows, len(fixtureRows))
		assert.Contains(t, r.err, "locked.jsonl")
		assert.Contains(t, r.err, "permission denied")
	}

	// a default root that is missing is skipped silently
	require.NoError(t, os.RemoveAll(filepath.Join(home, ".xcsh")))
	_, r = listJSON(t, e, "--no-cache", "--agent", "xcsh")
	assert.Empty(t, r.err)
}

func TestListConfigRoots(t *testing.T) {
	home := copyHome(t)
	e := newEnv(home)
	extra := filepath.Join(filepath.Dir(home), "extra-pi")
	require.NoError(t, os.Rename(filepath.Join(home, ".pi/agent/sessions/--home-u-proj-b--"), extra))
	cfg := filepath.Join(e["XDG_CONFIG_HOME"], "sessctl", "config.yaml")
	require.NoError(t, os.MkdirAll(filepath.Dir(cfg), 0o755))
	require.NoError(t, os.WriteFile(cfg, []byte("roots:\n  - agent: pi\n    path: "+filepath.Dir(extra)+"\n"), 0o644))
	rows, _ := listJSON(t, e, "--agent", "pi", "--no-cache")
	found := false
	for _, r := range rows {
		if r.ID == "019a0000-0000-7000-8000-00000000b001" {
			found = true
			assert.Equal(t, filepath.Join(extra, "2026-03-03T08-00-00-000Z_019a0000-0000-7000-8000-00000000b001.jsonl"), r.Path)
		}
	}
	assert.True(t, found, "session under the config root is listed")

	require.NoError(t, os.WriteFile(cfg, []byte("roots:\n  - agent: nope\n    path: /x\n"), 0o644))
	r := run(t, e, false, "list")
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.err, "unknown agent kind")
}

func TestListCache(t *testing.T) {
	home := copyHome(t)
	e := newEnv(home)
	cache := filepath.Join(e["XDG_CACHE_HOME"], "sessctl", "list-cache.json")
	first, _ := listJSON(t, e)
	_, err := os.Stat(cache)
	require.NoError(t, err, "the first run writes the cache")
	second, _ := listJSON(t, e)
	assert.Equal(t, first, second)

	// The cache answers without reading: make it lie for one file whose
	// size and mtime still match, and see the lie (proves it is used).
	b, err := os.ReadFile(cache)
	require.NoError(t, err)
	require.Contains(t, string(b), `"title":"xcsh session"`)
	require.NoError(t, os.WriteFile(cache, []byte(strings.Replace(string(b), `"title":"xcsh session"`, `"title":"from the cache"`, 1)), 0o644))
	rows, _ := listJSON(t, e, "--agent", "xcsh")
	assert.Equal(t, "from the cache", rows[0].Title)
	rows, _ = listJSON(t, e, "--agent", "xcsh", "--no-cache")
	assert.Equal(t, "xcsh session", rows[0].Title, "--no-cache reads the file")

	// A changed file is read again.
	p := filepath.Join(home, fixtureRows[9].rel) // a001
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = io.WriteString(f, `{"type":"session_info","id":"e0000007","parentId":"e0000006","timestamp":"2026-03-01T10:04:00.000Z","name":"renamed"}`+"\n")
	require.NoError(t, err)
	require.NoError(t, f.Close())
	rows, _ = listJSON(t, e, "--agent", "pi", "--project", "/home/u/proj-a")
	require.Len(t, rows, 2)
	assert.Equal(t, "renamed", rows[1].Title)

	// A vanished file disappears from the list and from the cache.
	require.NoError(t, os.Remove(p))
	rows, _ = listJSON(t, e, "--agent", "pi", "--project", "/home/u/proj-a")
	require.Len(t, rows, 1)
	b, err = os.ReadFile(cache)
	require.NoError(t, err)
	assert.NotContains(t, string(b), `"`+p+`"`)
	assert.Contains(t, string(b), "0b1b2c3d4e5f6073", "other agents' entries are kept")

	// A corrupt cache is ignored and rebuilt.
	require.NoError(t, os.WriteFile(cache, []byte("{not json"), 0o644))
	rows, r := listJSON(t, e)
	assert.Len(t, rows, len(fixtureRows)-1)
	assert.Empty(t, r.err)
	b, err = os.ReadFile(cache)
	require.NoError(t, err)
	assert.True(t, json.Valid(b))
}

func TestSessionArguments(t *testing.T) {
	home := copyHome(t)
	e := newEnv(home)
	// unique prefix
	r := run(t, e, false, "show", "019a0000-0000-7000-8000-00000000b")
	assert.Equal(t, 0, r.code, r.err)
	assert.Contains(t, r.out, "now in project b")
	// full id, through a symlinked folder
	r = run(t, e, false, "tree", "019a0000-0000-7000-8000-00000000f001")
	assert.Equal(t, 0, r.code, r.err)
	assert.Contains(t, r.out, "behind a symlink")
	// an oh-my-pi session in a hashed 17.2.x folder
	r = run(t, e, false, "tree", "019b0000-0000-7000-8000-00000000d")
	assert.Equal(t, 0, r.code, r.err)
	assert.Contains(t, r.out, "hashed folder name")
	// ambiguous prefix: exit 2, candidates listed
	r = run(t, e, false, "show", "019a0000-0000-7000-8000-00000000a00")
	assert.Equal(t, 2, r.code)
	assert.Contains(t, r.err, "ambiguous")
	assert.Contains(t, r.err, "_019a0000-0000-7000-8000-00000000a001.jsonl")
	assert.Contains(t, r.err, "_019a0000-0000-7000-8000-00000000a002.jsonl")
	// nothing matches
	r = run(t, e, false, "show", "ffffffff")
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.err, "no session")
}

func TestParseSinceAndRelative(t *testing.T) {
	now := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	for in, want := range map[string]time.Time{
		"90m":                  now.Add(-90 * time.Minute),
		"7d":                   now.Add(-7 * 24 * time.Hour),
		"2w":                   now.Add(-14 * 24 * time.Hour),
		"1.5d":                 now.Add(-36 * time.Hour),
		"2026-05-01T00:00:00Z": time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC),
	} {
		got, err := list.ParseSince(in, now)
		require.NoError(t, err, in)
		assert.True(t, want.Equal(got), "%s: %v", in, got)
	}
	got, err := list.ParseSince("2026-05-01", now)
	require.NoError(t, err)
	assert.True(t, time.Date(2026, 5, 1, 0, 0, 0, 0, time.Local).Equal(got))
	_, err = list.ParseSince("-3d", now)
	assert.Error(t, err)

	assert.Equal(t, "just now", list.Relative(now, now.Add(-10*time.Second)))
	assert.Equal(t, "1 minute ago", list.Relative(now, now.Add(-time.Minute)))
	assert.Equal(t, "3 hours ago", list.Relative(now, now.Add(-3*time.Hour-time.Minute)))
	assert.Equal(t, "2 days ago", list.Relative(now, now.Add(-50*time.Hour)))
	assert.Equal(t, "2 months ago", list.Relative(now, now.Add(-65*24*time.Hour)))
}

func TestListSymlinkedRoot(t *testing.T) {
	home := copyHome(t)
	e := newEnv(home)
	real := filepath.Join(filepath.Dir(home), "real-xcsh")
	require.NoError(t, os.Rename(filepath.Join(home, ".xcsh"), real))
	require.NoError(t, os.Symlink(real, filepath.Join(home, ".xcsh")))
	rows, r := listJSON(t, e, "--agent", "xcsh", "--no-cache")
	assert.Empty(t, r.err)
	require.Len(t, rows, 1)
	assert.Equal(t, filepath.Join(home, ".xcsh/agent/sessions/-proj-e/2026-02-10T00-00-00-000Z_0b1b2c3d4e5f6073.jsonl"), rows[0].Path)

	// The same folder named twice (default root and --root through a link) is listed once.
	link := filepath.Join(filepath.Dir(home), "pi-link")
	require.NoError(t, os.Symlink(filepath.Join(home, ".pi/agent/sessions"), link))
	rows, _ = listJSON(t, e, "--agent", "pi", "--root", "pi="+link, "--no-cache")
	assert.Len(t, rows, 9)

	// A file reachable under two names (a hard link, a file symlink) is listed once.
	src := filepath.Join(home, fixtureRows[9].rel)
	require.NoError(t, os.Link(src, filepath.Join(home, ".pi/agent/sessions/--home-u-proj-b--/hardlink.jsonl")))
	require.NoError(t, os.Symlink(src, filepath.Join(home, ".pi/agent/sessions/--home-u-proj-b--/symlink.jsonl")))
	rows, _ = listJSON(t, e, "--agent", "pi", "--no-cache")
	assert.Len(t, rows, 9)
}
