package prune

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/sessctl/sessctl/internal/cmdutil"
	"github.com/sessctl/sessctl/internal/cmdutil/cmdtest"
	"github.com/stretchr/testify/require"
)

func TestParse(t *testing.T) {
	for in, want := range map[string]int64{"100": 100, "1K": 1024, "1.5M": 1572864, "2GiB": 2 << 30, "3kb": 3072} {
		got, err := ParseSize(in)
		require.NoError(t, err, in)
		require.Equal(t, want, got, in)
	}
	for _, bad := range []string{"", "x", "-1", "1Q"} {
		_, err := ParseSize(bad)
		require.Error(t, err, bad)
	}
	for in, want := range map[string]time.Duration{"90d": 90 * 24 * time.Hour, "2w": 14 * 24 * time.Hour, "1h30m": 90 * time.Minute} {
		got, err := ParseDuration(in)
		require.NoError(t, err, in)
		require.Equal(t, want, got, in)
	}
	_, err := ParseDuration("soon")
	require.Error(t, err)
}

func TestFlags(t *testing.T) {
	var got *Options
	f, s := cmdtest.Factory(t, nil)
	_, _, err := cmdtest.Exec(NewCmd(f, func(o *Options) error { got = o; return nil }), s, "--older-than", "30d", "--agent", "claude", "--apply")
	require.NoError(t, err)
	require.Equal(t, "30d", got.OlderThan)
	require.Equal(t, -1, got.Keep, "--keep unset")
	require.True(t, got.Apply)
	require.Equal(t, "1h", got.Grace)

	f, s = cmdtest.Factory(t, nil)
	_, _, err = cmdtest.Exec(NewCmd(f, nil), s, "--agent", "nosuch", "--empty")
	require.Equal(t, cmdutil.ExitUsage, cmdutil.ExitCode(err))
	f, s = cmdtest.Factory(t, nil)
	_, _, err = cmdtest.Exec(NewCmd(f, nil), s)
	require.Equal(t, cmdutil.ExitUsage, cmdutil.ExitCode(err))
	require.ErrorContains(t, err, "say what to prune")
	f, s = cmdtest.Factory(t, nil)
	_, _, err = cmdtest.Exec(NewCmd(f, nil), s, "--keep", "-2")
	require.Equal(t, cmdutil.ExitUsage, cmdutil.ExitCode(err))
}

// TestRunJSON: a dry run on a fake home lists the old session as
// would-archive (exit 3), the recent one not at all, and changes nothing.
func TestRunJSON(t *testing.T) {
	home := t.TempDir()
	dir := filepath.Join(home, ".pi", "agent", "sessions", "--w--")
	require.NoError(t, os.MkdirAll(dir, 0o700))
	old := filepath.Join(dir, "2025-01-01T00-00-00-000Z_0199aaaa-0000-7000-8000-000000000001.jsonl")
	require.NoError(t, os.WriteFile(old, []byte(`{"type":"session","version":3,"id":"0199aaaa-0000-7000-8000-000000000001","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/w"}`+"\n"), 0o600))
	past := time.Now().Add(-400 * 24 * time.Hour)
	require.NoError(t, os.Chtimes(old, past, past))
	f, s := cmdtest.Factory(t, map[string]string{"HOME": home, "XDG_DATA_HOME": filepath.Join(home, "data")})
	f.JSON = true
	out, _, err := cmdtest.Exec(NewCmd(f, nil), s, "--older-than", "30d", "--no-cache")
	require.Equal(t, cmdutil.ExitProblems, cmdutil.ExitCode(err))
	var rep Report
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	require.True(t, rep.DryRun)
	require.Len(t, rep.Sessions, 1)
	require.Equal(t, "would-archive", rep.Sessions[0].Status)
	require.Equal(t, filepath.Join(home, "data", "sessctl", "archive"), rep.ArchiveRoot)
	require.FileExists(t, old)
	require.NoDirExists(t, filepath.Join(home, "data", "sessctl"))
}
