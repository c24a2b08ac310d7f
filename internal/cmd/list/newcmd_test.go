package list_test

import (
	"testing"

	"github.com/sessctl/sessctl/internal/cmd/list"
	"github.com/sessctl/sessctl/internal/cmdutil"
	"github.com/sessctl/sessctl/internal/cmdutil/cmdtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Flags parse into Options through NewCmd(f, runF); bad values are usage
// errors and never reach the run.
func TestNewCmdFlags(t *testing.T) {
	f, io := cmdtest.Factory(t, nil)
	f.JSON = true
	var got *list.Options
	capture := func(o *list.Options) error { got = o; return nil }
	_, _, err := cmdtest.Exec(list.NewCmd(f, capture), io,
		"--agent", "pi", "--agent", "claude", "--project", ".", "--since", "7d", "--sort", "size",
		"--limit", "5", "--no-cache", "--all", "--root", "pi=/old")
	require.NoError(t, err)
	require.NotNil(t, got)
	assert.Equal(t, []string{"pi", "claude"}, got.Agents)
	assert.Equal(t, ".", got.Project)
	assert.Equal(t, "7d", got.Since)
	assert.Equal(t, "size", got.Sort)
	assert.Equal(t, 5, got.Limit)
	assert.True(t, got.NoCache)
	assert.True(t, got.All)
	assert.Equal(t, []string{"pi=/old"}, got.Roots)
	assert.True(t, got.JSON)

	for _, argv := range [][]string{
		{"--agent", "cursor"},
		{"--sort", "title"},
		{"--limit", "-1"},
		{"--since", "yesterday"},
		{"extra-arg"},
	} {
		got = nil
		f, io := cmdtest.Factory(t, nil)
		_, _, err := cmdtest.Exec(list.NewCmd(f, capture), io, argv...)
		require.Error(t, err, "%v", argv)
		assert.Equal(t, cmdutil.ExitUsage, cmdutil.ExitCode(err), "%v: %v", argv, err)
		assert.Nil(t, got, "%v", argv)
	}
}
