package repair_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessctl/sessctl/internal/cmd/repair"
	"github.com/sessctl/sessctl/internal/cmdutil"
	"github.com/sessctl/sessctl/internal/cmdutil/cmdtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// copyFixture copies testdata/<elem...> into a temporary folder.
func copyFixture(t *testing.T, elem ...string) string {
	return cmdtest.Copy(t, t.TempDir(), "s.jsonl", elem...)
}

// execute runs repair with argv on fake IO.
func execute(t *testing.T, jsonOut bool, runF func(*repair.Options) error, argv ...string) (string, string, error) {
	t.Helper()
	f, io := cmdtest.Factory(t, nil)
	f.JSON = jsonOut
	return cmdtest.Exec(repair.NewCmd(f, runF), io, argv...)
}

func TestNewCmdFlags(t *testing.T) {
	var got *repair.Options
	capture := func(o *repair.Options) error { got = o; return nil }
	_, _, err := execute(t, true, capture, "-n", "--no-backup", "--rebuild-header", "--close-tool-calls", "a.jsonl", "b")
	require.NoError(t, err)
	require.NotNil(t, got)
	assert.Equal(t, []string{"a.jsonl", "b"}, got.Sessions)
	assert.True(t, got.Repair.DryRun)
	assert.True(t, got.Repair.NoBackup)
	assert.True(t, got.Repair.RebuildHeader)
	assert.True(t, got.Repair.CloseToolCalls)
	assert.True(t, got.JSON)

	got = nil
	_, _, err = execute(t, false, capture)
	require.Error(t, err, "repair needs a session")
	assert.Equal(t, cmdutil.ExitUsage, cmdutil.ExitCode(err))
	assert.Nil(t, got)
}

// A dry run changes nothing and exits 3; the real run fixes the torn line,
// keeps a backup and a sidecar; a second run has nothing to do.
func TestRunDryRunThenRepair(t *testing.T) {
	p := copyFixture(t, "pi", "parity", "damaged", "torn-last-line.jsonl")
	orig, err := os.ReadFile(p)
	require.NoError(t, err)

	out, _, err := execute(t, false, nil, "--dry-run", p)
	assert.ErrorIs(t, err, cmdutil.ErrProblems)
	assert.Contains(t, out, "would make 1 fix (dry run, nothing changed):")
	now, err := os.ReadFile(p)
	require.NoError(t, err)
	assert.Equal(t, orig, now, "a dry run changes nothing")
	assert.NoFileExists(t, p+".rejected.jsonl")

	out, _, err = execute(t, true, nil, p)
	require.NoError(t, err)
	var res []struct {
		Path    string `json:"path"`
		Changed bool   `json:"changed"`
		Backup  string `json:"backup"`
		Sidecar string `json:"sidecar"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &res), out)
	require.Len(t, res, 1)
	assert.True(t, res[0].Changed)
	assert.FileExists(t, res[0].Backup)
	assert.FileExists(t, p+".rejected.jsonl")

	out, _, err = execute(t, false, nil, p)
	require.NoError(t, err)
	assert.Contains(t, out, "nothing to repair")
}

// A file that does not exist is reported on stderr and exits 1; the other
// arguments are still repaired.
func TestRunUnreadableArgument(t *testing.T) {
	p := copyFixture(t, "pi", "parity", "sessions", "001-linear-minimal.jsonl")
	out, errOut, err := execute(t, false, nil, filepath.Join(filepath.Dir(p), "missing.jsonl"), p)
	assert.True(t, errors.Is(err, cmdutil.SilentError), "%v", err)
	assert.Contains(t, errOut, "missing.jsonl")
	assert.True(t, strings.Contains(out, "nothing to repair"), out)
}

// Issue 15 item 3: a reference list prints for an OpenCode session is
// accepted, and repair answers that it is not supported for this agent
// (not "no such file or directory").
func TestRunStoreRefNotSupported(t *testing.T) {
	dir := t.TempDir()
	db := cmdtest.Copy(t, dir, "opencode.db", "opencode", "real", "opencode.db")
	_, errOut, err := execute(t, false, nil, db+"#ses_7e5f3a9b1c01Aa1Bb2Cc3Dd4Ee")
	assert.ErrorIs(t, err, cmdutil.SilentError)
	assert.Contains(t, errOut, "not supported for this agent")
	assert.NotContains(t, errOut, "no such file")
}

// An unmigrated v1 pi file with no damage: check reports only the version
// notice, so repair changes nothing, exits 0 and says that `sessctl migrate`
// upgrades the file.
func TestRunLegacyVersionAlone(t *testing.T) {
	p := copyFixture(t, "pi", "migrate", "v1-stray-ids.jsonl")
	orig, err := os.ReadFile(p)
	require.NoError(t, err)
	for _, argv := range [][]string{{"--dry-run", p}, {p}} {
		out, _, err := execute(t, false, nil, argv...)
		require.NoError(t, err, "%v", argv)
		assert.Contains(t, out, "nothing to repair", argv)
		assert.Contains(t, out, "sessctl migrate "+p, argv)
		assert.NotContains(t, out, "missing-id", argv)
		now, err := os.ReadFile(p)
		require.NoError(t, err)
		assert.Equal(t, orig, now, "the version is migrate's to change")
	}
}
