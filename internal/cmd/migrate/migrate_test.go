package migrate_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/sessctl/sessctl/internal/cmd/migrate"
	"github.com/sessctl/sessctl/internal/cmdutil"
	"github.com/sessctl/sessctl/internal/cmdutil/cmdtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func copyFixture(t *testing.T, dir, name string, elem ...string) string {
	return cmdtest.Copy(t, dir, name, elem...)
}

// execute runs migrate on a test factory; set adjusts the factory first.
func execute(t *testing.T, set func(*cmdutil.Factory), runF func(*migrate.Options) error, argv ...string) (string, string, error) {
	t.Helper()
	f, io := cmdtest.Factory(t, nil)
	if set != nil {
		set(f)
	}
	return cmdtest.Exec(migrate.NewCmd(f, runF), io, argv...)
}

func TestNewCmdFlags(t *testing.T) {
	var got *migrate.Options
	capture := func(o *migrate.Options) error { got = o; return nil }
	_, _, err := execute(t, func(f *cmdutil.Factory) { f.JSON = true }, capture, "--check", "-n", "--no-backup", "a.jsonl", "dir")
	require.NoError(t, err)
	require.NotNil(t, got)
	assert.Equal(t, []string{"a.jsonl", "dir"}, got.Args)
	assert.True(t, got.Check)
	assert.True(t, got.DryRun)
	assert.True(t, got.NoBackup)
	assert.True(t, got.JSON)

	got = nil
	_, _, err = execute(t, nil, capture, "--all")
	require.NoError(t, err)
	assert.True(t, got.All)

	got = nil
	_, _, err = execute(t, nil, capture)
	require.Error(t, err)
	assert.Equal(t, cmdutil.ExitUsage, cmdutil.ExitCode(err))
	assert.Nil(t, got)
}

// --check exits 3 and changes nothing; migrate then brings v1 and v2 files
// to v3 with a backup; a second run finds them current. Files of other
// agents are skipped.
func TestRunCheckThenMigrate(t *testing.T) {
	dir := t.TempDir()
	a := copyFixture(t, dir, "a.jsonl", "pi", "migrate", "v2-hookmessage.jsonl")
	copyFixture(t, dir, "b.jsonl", "pi", "migrate", "v1-compaction-index-2.jsonl")
	orig, err := os.ReadFile(a)
	require.NoError(t, err)

	out, _, err := execute(t, nil, nil, "--check", dir)
	assert.ErrorIs(t, err, cmdutil.ErrProblems)
	assert.Contains(t, out, "2 files: 0 migrated, 2 would migrate")
	now, _ := os.ReadFile(a)
	assert.Equal(t, orig, now, "--check changes nothing")

	out, _, err = execute(t, func(f *cmdutil.Factory) { f.JSON = true }, nil, dir)
	require.NoError(t, err)
	var rep struct {
		Files []struct {
			Path, Status, Backup string
			FromVersion          int `json:"fromVersion"`
		} `json:"files"`
		Summary map[string]int `json:"summary"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rep), out)
	assert.Equal(t, 2, rep.Summary["migrated"])
	for _, f := range rep.Files {
		assert.Equal(t, "migrated", f.Status)
		assert.FileExists(t, f.Backup)
	}

	out, _, err = execute(t, nil, nil, dir)
	require.NoError(t, err)
	assert.Contains(t, out, "2 current")
}

// --all takes the discovered set from the factory (no global).
func TestRunAllUsesFactory(t *testing.T) {
	dir := t.TempDir()
	a := copyFixture(t, dir, "a.jsonl", "pi", "migrate", "v2-hookmessage.jsonl")
	all := func(f *cmdutil.Factory) { f.AllSessions = func() ([]string, error) { return []string{a}, nil } }
	out, _, err := execute(t, all, nil, "--all", "--check")
	assert.ErrorIs(t, err, cmdutil.ErrProblems)
	assert.Contains(t, out, "a.jsonl: would-migrate")
	assert.Contains(t, out, "1 file:", "one file, in the singular")
}

// A session of an agent whose files have no versions is skipped with the
// reason, through the registry (no format test in the command).
func TestRunSkipsOtherAgents(t *testing.T) {
	dir := t.TempDir()
	c := copyFixture(t, dir, "c.jsonl", "claude", "shapes", "compact.jsonl")
	out, _, err := execute(t, nil, nil, c)
	require.NoError(t, err)
	assert.Contains(t, out, "c.jsonl: skipped: claude session, not pi-family (migrate is not supported for this agent)")
}

// Issue 15 item 3: migrate takes an OpenCode "<db>#<id>" reference and
// skips it as not supported for this agent (not "no such file").
func TestRunStoreRefSkipped(t *testing.T) {
	dir := t.TempDir()
	db := copyFixture(t, dir, "opencode.db", "opencode", "real", "opencode.db")
	out, _, err := execute(t, nil, nil, db+"#ses_7e5f3a9b1c01Aa1Bb2Cc3Dd4Ee")
	require.NoError(t, err)
	assert.Contains(t, out, "skipped: opencode session, not pi-family (migrate is not supported for this agent)")
}
