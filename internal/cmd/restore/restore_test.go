package restore

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/sessctl/sessctl/internal/archive"
	"github.com/sessctl/sessctl/internal/cmdutil"
	"github.com/sessctl/sessctl/internal/cmdutil/cmdtest"
	"github.com/stretchr/testify/require"
)

func TestRestore(t *testing.T) {
	home := t.TempDir()
	data := filepath.Join(home, "data")
	env := map[string]string{"HOME": home, "XDG_DATA_HOME": data}
	orig := filepath.Join(home, "s", "x.jsonl")
	require.NoError(t, os.MkdirAll(filepath.Dir(orig), 0o700))
	require.NoError(t, os.WriteFile(orig, []byte("line\n"), 0o600))
	root := Root(func(k string) string { return env[k] })
	require.Equal(t, filepath.Join(data, "sessctl", "archive"), root)
	dir, _, err := archive.Create(root, archive.Manifest{Agent: "pi", ID: "0199abcd"}, []string{orig}, time.Now())
	require.NoError(t, err)
	require.NoError(t, os.Remove(orig))

	// usage: nothing named; no such archive
	f, s := cmdtest.Factory(t, env)
	_, _, err = cmdtest.Exec(NewCmd(f, nil), s)
	require.Equal(t, cmdutil.ExitUsage, cmdutil.ExitCode(err))
	f, s = cmdtest.Factory(t, env)
	_, _, err = cmdtest.Exec(NewCmd(f, nil), s, "ffff")
	require.Equal(t, cmdutil.ExitUsage, cmdutil.ExitCode(err))

	f, s = cmdtest.Factory(t, env)
	out, _, err := cmdtest.Exec(NewCmd(f, nil), s, "--list")
	require.NoError(t, err)
	require.Contains(t, out, filepath.Base(dir)+"  pi  0199abcd  1 files  5 bytes")

	f, s = cmdtest.Factory(t, env)
	out, _, err = cmdtest.Exec(NewCmd(f, nil), s, "-n", "0199")
	require.NoError(t, err)
	require.Contains(t, out, "would-restore")
	require.NoFileExists(t, orig)

	f, s = cmdtest.Factory(t, env)
	out, _, err = cmdtest.Exec(NewCmd(f, nil), s, "0199")
	require.NoError(t, err)
	require.Contains(t, out, "restored      "+orig)
	b, err := os.ReadFile(orig)
	require.NoError(t, err)
	require.Equal(t, "line\n", string(b))
	require.NoDirExists(t, dir)
}
