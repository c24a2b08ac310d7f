package discover

import (
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func envOf(m map[string]string) Env { return Env{Getenv: func(k string) string { return m[k] }} }

func TestDefaultRoots(t *testing.T) {
	home := t.TempDir()
	data := filepath.Join(home, "data")
	e := envOf(map[string]string{"HOME": home, "XDG_DATA_HOME": data})
	paths := func(rs []Root) []string {
		var out []string
		for _, r := range rs {
			out = append(out, r.Agent+"="+r.Path)
		}
		return out
	}
	assert.Equal(t, []string{
		"pi=" + filepath.Join(home, ".pi/agent/sessions"),
		"omp=" + filepath.Join(home, ".omp/agent/sessions"),
		"xcsh=" + filepath.Join(home, ".xcsh/agent/sessions"),
		"claude=" + filepath.Join(home, ".claude/projects"),
		"openclaw=" + filepath.Join(home, ".openclaw/agents"),
		"agentcore=" + filepath.Join(home, ".pi/sessions"),
	}, paths(DefaultRoots(e, nil, nil)))

	require.NoError(t, os.MkdirAll(filepath.Join(data, "omp"), 0o755))
	e = envOf(map[string]string{"HOME": home, "XDG_DATA_HOME": data, "PI_CODING_AGENT_DIR": "~/x", "CLAUDE_CONFIG_DIR": "/c", "PI_CONFIG_DIR": ".ompx"})
	assert.Equal(t, []string{
		"pi=" + filepath.Join(home, "x/sessions"),
		"omp=" + filepath.Join(home, ".ompx/agent/sessions"),
		"omp=" + filepath.Join(data, "omp/sessions"),
		"claude=/c/projects",
	}, paths(DefaultRoots(e, []string{"pi", "OMP", "claude"}, nil)))

	e = envOf(map[string]string{"HOME": home, "PI_CODING_AGENT_SESSION_DIR": "/s"})
	assert.Equal(t, []string{"pi=/s", "pi=/extra"}, paths(DefaultRoots(e, []string{"pi"}, []Root{{Agent: "pi", Path: "/extra"}, {Agent: "omp", Path: "/not-this"}})))
}

func TestParseRootAndConfigRoots(t *testing.T) {
	e := envOf(map[string]string{"HOME": "/h"})
	r, err := ParseRoot("omp=~/old", e)
	require.NoError(t, err)
	assert.Equal(t, Root{Agent: "omp", Path: "/h/old", Source: "--root", Explicit: true}, r)
	for _, bad := range []string{"omp", "=x", "omp=", "cursor=/x"} {
		_, err := ParseRoot(bad, e)
		assert.Error(t, err, bad)
	}
	rs, err := ConfigRoots([]any{map[string]any{"agent": "xcsh", "path": "/a"}}, e)
	require.NoError(t, err)
	assert.Equal(t, []Root{{Agent: "xcsh", Path: "/a", Source: "config", Explicit: true}}, rs)
	for _, bad := range []any{"x", []any{"x"}, []any{map[string]any{"agent": "pi"}}, []any{map[string]any{"agent": "no", "path": "/a"}}} {
		_, err := ConfigRoots(bad, e)
		assert.Error(t, err, "%v", bad)
	}
	rs, err = ConfigRoots(nil, e)
	assert.NoError(t, err)
	assert.Nil(t, rs)
}

func TestWalkFollowsLinksOnce(t *testing.T) {
	root := t.TempDir()
	proj := filepath.Join(root, "--p--")
	require.NoError(t, os.MkdirAll(filepath.Join(proj, "sub"), 0o755))
	for _, f := range []string{"a.jsonl", "b.txt", "x.rejected.jsonl", "sub/c.jsonl"} {
		require.NoError(t, os.WriteFile(filepath.Join(proj, f), nil, 0o644))
	}
	require.NoError(t, os.Symlink("..", filepath.Join(proj, "sub", "loop")))      // a loop
	require.NoError(t, os.Symlink("a.jsonl", filepath.Join(proj, "alias.jsonl"))) // a file link
	require.NoError(t, os.Symlink("gone.jsonl", filepath.Join(proj, "dead.jsonl")))
	var warned []string
	got := walkJSONL(root, 6, func(p string, err error) { warned = append(warned, filepath.Base(p)) })
	for i := range got {
		got[i], _ = filepath.Rel(root, got[i])
	}
	sort.Strings(got)
	assert.Equal(t, []string{"--p--/a.jsonl", "--p--/alias.jsonl", "--p--/sub/c.jsonl"}, got)
	assert.Equal(t, []string{"dead.jsonl"}, warned)
}

func TestMatch(t *testing.T) {
	ss := []*Session{
		{ID: "019a-aaaa-1", Path: "/r/p/2026-01-01T00-00-00-000Z_019a-aaaa-1.jsonl"},
		{ID: "019a-aaaa-2", Path: "/r/p/2026-01-02T00-00-00-000Z_019a-aaaa-2.jsonl"},
		{ID: "019A-AAAA", Path: "/r/p/other.jsonl"},
		{ID: "renamed-in-header", Path: "/r/p/2026-01-03T00-00-00-000Z_fileid.jsonl"},
	}
	ids := func(ms []*Session) []string {
		var out []string
		for _, m := range ms {
			out = append(out, m.ID)
		}
		return out
	}
	assert.Equal(t, []string{"019A-AAAA"}, ids(Match(ss, "019a-aaaa")), "a full id (any case) wins over prefixes")
	assert.Equal(t, []string{"019a-aaaa-1", "019a-aaaa-2"}, ids(Match(ss, "019a-aaaa-")))
	assert.Equal(t, []string{"renamed-in-header"}, ids(Match(ss, "fileid")), "the id in the file name counts too")
	assert.Equal(t, []string{"renamed-in-header"}, ids(Match(ss, "2026-01-03")), "file name prefix, like oh-my-pi")
	assert.Empty(t, Match(ss, "zzz"))
}

func TestCacheRoundTripAndInvalidation(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "s.jsonl")
	require.NoError(t, os.WriteFile(f, []byte("x\n"), 0o644))
	st, err := os.Stat(f)
	require.NoError(t, err)
	prov, _ := Lookup("pi")
	path := filepath.Join(dir, "cache", "c.json")
	c := LoadCache(path)
	assert.Nil(t, c.Get(f, st, prov))
	c.Put(f, st, prov, &Session{ID: "one", Modified: time.Unix(5, 0).UTC()})
	c.Finish(map[string]bool{"pi": true})
	require.NoError(t, c.Save())

	c = LoadCache(path)
	s := c.Get(f, st, prov)
	require.NotNil(t, s)
	assert.Equal(t, "one", s.ID)
	s.ID = "changed"
	assert.Equal(t, "one", c.Get(f, st, prov).ID, "Get returns a copy")
	omp, _ := Lookup("omp")
	assert.Nil(t, c.Get(f, st, omp), "another agent's key")

	require.NoError(t, os.WriteFile(f, []byte("xy\n"), 0o644))
	st2, _ := os.Stat(f)
	assert.Nil(t, c.Get(f, st2, prov), "size changed")

	// entries of agents not scanned survive; unseen entries of scanned ones go
	c = LoadCache(path)
	c.Finish(map[string]bool{"omp": true})
	require.NoError(t, c.Save())
	assert.NotNil(t, LoadCache(path).Get(f, st, prov))
	c = LoadCache(path)
	c.Finish(map[string]bool{"pi": true})
	require.NoError(t, c.Save())
	assert.Nil(t, LoadCache(path).Get(f, st, prov))

	require.NoError(t, os.WriteFile(path, []byte(`{"format":99,"entries":{}}`), 0o644))
	assert.Empty(t, LoadCache(path).entries, "another format is ignored")
	left, _ := filepath.Glob(filepath.Join(dir, "cache", ".list-cache-*"))
	assert.Empty(t, left, "no temporary files left behind")
}

func TestIDFromFileName(t *testing.T) {
	assert.Equal(t, "019a-b", IDFromFileName("/x/2026-01-01T00-00-00-000Z_019a-b.jsonl"))
	assert.Equal(t, "7f3c", IDFromFileName("/x/7f3c.jsonl"))
	assert.Equal(t, "a_", IDFromFileName("/x/a_.jsonl"))
}

func TestShortIDs(t *testing.T) {
	a := &Session{ID: "019a0000-0000-7000-8000-00000000a001"}
	b := &Session{ID: "019a0000-0000-7000-8000-00000000a002"}
	c := &Session{ID: "019b1234-ffff"}
	d := &Session{ID: "0a1b2c3d4e5f6071"}
	e := &Session{ID: "junk"}
	f := &Session{ID: "019B1234-FFFF-0"} // differs from c only in case and length
	got := ShortIDs([]*Session{a, b, c, d, e, f}, 8)
	assert.Equal(t, "019a0000-0000-7000-8000-00000000a001", got[a])
	assert.Equal(t, "019a0000-0000-7000-8000-00000000a002", got[b])
	assert.Equal(t, "019b1234-ffff", got[c], "c is a prefix of f: whole id")
	assert.Equal(t, "019B1234-FFFF-", got[f])
	assert.Equal(t, "0a1b2c3d", got[d])
	assert.Equal(t, "junk", got[e])
	for s, p := range got {
		m := Match([]*Session{a, b, c, d, e, f}, p)
		require.NotEmpty(t, m)
		assert.Same(t, s, m[0], "the short id %q names its session", p)
	}
}
