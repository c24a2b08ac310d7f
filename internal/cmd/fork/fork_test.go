package fork_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/sessctl/sessctl/internal/cmd/fork"
	"github.com/sessctl/sessctl/internal/cmdutil"
	"github.com/sessctl/sessctl/internal/cmdutil/cmdtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func copyFixture(t *testing.T, name string, elem ...string) string {
	return cmdtest.Copy(t, t.TempDir(), name, elem...)
}

func execute(t *testing.T, jsonOut bool, runF func(*fork.Options) error, argv ...string) (string, string, error) {
	t.Helper()
	f, io := cmdtest.Factory(t, nil)
	f.JSON = jsonOut
	return cmdtest.Exec(fork.NewCmd(f, runF), io, argv...)
}

func TestNewCmdFlags(t *testing.T) {
	var got *fork.Options
	capture := func(o *fork.Options) error { got = o; return nil }
	_, _, err := execute(t, false, capture, "s.jsonl", "--at", "880a", "-o", "f.jsonl", "-n")
	require.NoError(t, err)
	require.NotNil(t, got)
	assert.Equal(t, "s.jsonl", got.Session)
	assert.Equal(t, "880a", got.Fork.At)
	assert.Equal(t, "f.jsonl", got.Fork.Output)
	assert.True(t, got.Fork.DryRun)
	assert.False(t, got.Fork.Full)

	for _, argv := range [][]string{
		{"s.jsonl", "--full", "--at", "x"}, // --full takes no --at
		{},                                 // a session is needed
		{"a", "b"},                         // one only
	} {
		got = nil
		_, _, err = execute(t, false, capture, argv...)
		require.Error(t, err, "%v", argv)
		assert.Equal(t, cmdutil.ExitUsage, cmdutil.ExitCode(err), "%v", argv)
		assert.Nil(t, got)
	}
}

// fork writes the branch to -o, prints its path on stdout, and never
// overwrites an existing file.
func TestRunForkPi(t *testing.T) {
	src := copyFixture(t, "s.jsonl", "pi", "parity", "sessions", "012-branch-simple.jsonl")
	before, err := os.ReadFile(src)
	require.NoError(t, err)
	dst := filepath.Join(filepath.Dir(src), "f.jsonl")

	out, errOut, err := execute(t, false, nil, src, "--at", "880a", "-o", dst)
	require.NoError(t, err)
	assert.Equal(t, dst+"\n", out)
	assert.Contains(t, errOut, "wrote 4 entries")
	assert.FileExists(t, dst)
	after, err := os.ReadFile(src)
	require.NoError(t, err)
	assert.Equal(t, before, after, "the source is never changed")

	_, _, err = execute(t, false, nil, src, "--at", "880a", "-o", dst)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "exists")

	// A dry run writes nothing; --json describes what would be written.
	dry := filepath.Join(filepath.Dir(src), "dry.jsonl")
	out, _, err = execute(t, true, nil, src, "--full", "-n", "-o", dry)
	require.NoError(t, err)
	var res struct {
		DryRun  bool `json:"dryRun"`
		Entries int  `json:"entries"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &res), out)
	assert.True(t, res.DryRun)
	assert.Positive(t, res.Entries)
	assert.NoFileExists(t, dry)
}

// Issue 15 item 4: a fork of an OpenClaw transcript says that no
// sessions.json names the new file (OpenClaw will not open it).
func TestRunForkOpenClawSaysUnindexed(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join("..", "..", "..", "testdata", "openclaw", "state", "agents", "main", "sessions")
	for _, name := range []string{"sessions.json", "a1b2c3d4-0000-4000-8000-000000000001.jsonl"} {
		b, err := os.ReadFile(filepath.Join(src, name))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), b, 0o644))
	}
	_, errOut, err := execute(t, false, nil, filepath.Join(dir, "a1b2c3d4-0000-4000-8000-000000000001.jsonl"), "-o", filepath.Join(dir, "f.jsonl"))
	require.NoError(t, err)
	assert.Contains(t, errOut, "no sessions.json entry names the new file")
	idx, err := os.ReadFile(filepath.Join(dir, "sessions.json"))
	require.NoError(t, err)
	orig, _ := os.ReadFile(filepath.Join(src, "sessions.json"))
	assert.Equal(t, orig, idx, "sessions.json is never rewritten")
}

// Issue 15 item 3: fork of an OpenCode "<db>#<id>" reference says it is
// not supported for this agent.
func TestRunStoreRefNotSupported(t *testing.T) {
	dir := t.TempDir()
	db := cmdtest.Copy(t, dir, "opencode.db", "opencode", "real", "opencode.db")
	_, _, err := execute(t, false, nil, db+"#ses_7e5f3a9b1c01Aa1Bb2Cc3Dd4Ee")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "not supported for this agent")
}
