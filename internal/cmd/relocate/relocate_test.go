package relocate

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/sessctl/sessctl/internal/cmdutil"
	"github.com/sessctl/sessctl/internal/cmdutil/cmdtest"
	"github.com/sessctl/sessctl/internal/relocate"
	"github.com/stretchr/testify/require"
)

func TestArgs(t *testing.T) {
	for _, argv := range [][]string{{"/a"}, {"/a", "/a"}, {"/a", "/a/b"}, {"/a/b", "/a"}, {"/a", "/b", "/c"}} {
		f, s := cmdtest.Factory(t, nil)
		_, _, err := cmdtest.Exec(NewCmd(f, func(*Options) error { return nil }), s, argv...)
		require.Equal(t, cmdutil.ExitUsage, cmdutil.ExitCode(err), "%v", argv)
	}
	var got *Options
	f, s := cmdtest.Factory(t, nil)
	_, _, err := cmdtest.Exec(NewCmd(f, func(o *Options) error { got = o; return nil }), s, "/a/b/", "/a/c", "--apply")
	require.NoError(t, err)
	require.Equal(t, "/a/b", got.Old)
	require.Equal(t, "/a/c", got.New)
	require.True(t, got.Apply)
	require.Nil(t, got.Checkpoint)
}

// TestRun: dry run (exit 3, nothing moved), --apply, then a second run
// with nothing to do, on a fake home with one pi session.
func TestRun(t *testing.T) {
	home := t.TempDir()
	dir := filepath.Join(home, ".pi", "agent", "sessions", "--w-old--")
	require.NoError(t, os.MkdirAll(dir, 0o700))
	name := "2025-01-01T00-00-00-000Z_0199aaaa-0000-7000-8000-000000000001.jsonl"
	head := `{"type":"session","version":3,"id":"0199aaaa-0000-7000-8000-000000000001","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/w/old"}` + "\n"
	body := `{"type":"message","id":"a1","parentId":null,"timestamp":"2025-01-01T00:00:01.000Z","message":{"role":"user","content":"in /w/old","timestamp":1735689601000}}` + "\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(head+body), 0o600))
	env := map[string]string{"HOME": home}
	run := func(args ...string) (*relocate.Plan, error) {
		f, s := cmdtest.Factory(t, env)
		f.JSON = true
		out, _, err := cmdtest.Exec(NewCmd(f, nil), s, args...)
		var p relocate.Plan
		require.NoError(t, json.Unmarshal([]byte(out), &p), out)
		return &p, err
	}
	p, err := run("/w/old", "/w/new")
	require.Equal(t, cmdutil.ExitProblems, cmdutil.ExitCode(err))
	require.Len(t, p.Steps, 3) // move, rewrite, remove-dir
	require.FileExists(t, filepath.Join(dir, name))
	p, err = run("/w/old", "/w/new", "--apply", "--no-backup")
	require.NoError(t, err)
	for _, st := range p.Steps {
		require.Equal(t, "done", st.Status, "%+v", st)
	}
	b, err := os.ReadFile(filepath.Join(home, ".pi", "agent", "sessions", "--w-new--", name))
	require.NoError(t, err)
	require.Equal(t, `{"type":"session","version":3,"id":"0199aaaa-0000-7000-8000-000000000001","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/w/new"}`+"\n"+body, string(b))
	p, err = run("/w/old", "/w/new", "--apply")
	require.NoError(t, err)
	require.Empty(t, p.Steps)
}
