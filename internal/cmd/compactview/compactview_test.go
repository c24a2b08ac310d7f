package compactview_test

import (
	"encoding/json"
	"testing"

	"github.com/sessctl/sessctl/internal/cmd/compactview"
	"github.com/sessctl/sessctl/internal/cmdutil"
	"github.com/sessctl/sessctl/internal/cmdutil/cmdtest"
	"github.com/sessctl/sessctl/internal/sessfmt"
	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func testdata(t *testing.T, elem ...string) string { return cmdtest.Testdata(t, elem...) }

func factory(t *testing.T) *cmdutil.Factory {
	f, _ := cmdtest.Factory(t, nil)
	return f
}

// run runs compact-view with argv, --json when jsonOut.
func run(t *testing.T, jsonOut bool, argv ...string) (string, string, error) {
	if jsonOut {
		argv = append([]string{"--json"}, argv...)
	}
	return cmdtest.Run(t, func(f *cmdutil.Factory) *cobra.Command { return compactview.NewCmd(f, nil) }, false, argv...)
}

func TestNewCmdFlags(t *testing.T) {
	var got *compactview.Options
	cmd := compactview.NewCmd(factory(t), func(o *compactview.Options) error { got = o; return nil })
	cmd.SetArgs([]string{"--leaf", "ab", "--full", "s.jsonl"})
	require.NoError(t, cmd.Execute())
	got.IO, got.Factory = nil, nil
	assert.Equal(t, compactview.Options{Session: "s.jsonl", Leaf: "ab", Full: true}, *got)

	cmd = compactview.NewCmd(factory(t), func(*compactview.Options) error { return nil })
	cmd.SetArgs([]string{"--dialect", "pi", "s"})
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	assert.ErrorContains(t, cmd.Execute(), "unknown flag: --dialect")
}

func TestRunPi(t *testing.T) {
	p := testdata(t, "pi", "parity", "sessions", "021-compaction-simple.jsonl")
	out, _, err := run(t, true, p)
	require.NoError(t, err)
	var cv struct {
		Format      string `json:"format"`
		Path        string `json:"path"`
		Compactions []struct {
			TokensBefore int  `json:"tokensBefore"`
			InEffect     bool `json:"inEffect"`
		} `json:"compactions"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &cv))
	assert.Equal(t, "pi", cv.Format)
	assert.Equal(t, p, cv.Path)
	require.Len(t, cv.Compactions, 1)
	assert.Equal(t, 12345, cv.Compactions[0].TokensBefore)
	assert.True(t, cv.Compactions[0].InEffect)

	human, _, err := run(t, false, p)
	require.NoError(t, err)
	assert.Contains(t, human, "12345 tokens before")
}

func TestRunClaudeAndOpenCode(t *testing.T) {
	out, _, err := run(t, false, testdata(t, "claude", "shapes", "compact-preserved.jsonl"))
	require.NoError(t, err)
	assert.Contains(t, out, "hides 4 entries (4 messages)")

	out, _, err = run(t, true, testdata(t, "opencode", "real", "opencode.db")+"#ses_7e5f3a9b1c01")
	require.NoError(t, err)
	assert.Contains(t, out, `"format":"opencode"`)
}

func TestRunUnsupportedAndLeaf(t *testing.T) {
	_, _, err := run(t, false, testdata(t, "agentcore", "branched.jsonl"))
	require.Error(t, err)
	assert.ErrorIs(t, err, sessfmt.ErrUnsupported)
	assert.Contains(t, err.Error(), "compact-view")

	_, _, err = run(t, false, "--leaf", "nosuch", testdata(t, "pi", "parity", "sessions", "021-compaction-simple.jsonl"))
	require.Error(t, err)
	assert.Equal(t, cmdutil.ExitUsage, cmdutil.ExitCode(err))
}
