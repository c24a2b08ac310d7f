package cmdutil

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCheckAgentsAndSince(t *testing.T) {
	assert.NoError(t, CheckAgents([]string{"pi", "claude"}))
	err := CheckAgents([]string{"pi", "nosuch"})
	require.Error(t, err)
	assert.Equal(t, ExitUsage, ExitCode(err))
	assert.Contains(t, err.Error(), `unknown --agent "nosuch"`)

	now := time.Date(2026, 1, 31, 12, 0, 0, 0, time.UTC)
	assert.NoError(t, CheckSince("", now))
	assert.NoError(t, CheckSince("7d", now))
	err = CheckSince("yesterday", now)
	require.Error(t, err)
	assert.Equal(t, ExitUsage, ExitCode(err))

	assert.NoError(t, CheckFilters([]string{"pi"}, "7d", now))
	err = CheckFilters([]string{"nosuch"}, "7d", now)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `unknown --agent "nosuch"`)
	err = CheckFilters([]string{"pi"}, "yesterday", now)
	require.Error(t, err)
	assert.Equal(t, ExitUsage, ExitCode(err))
}

func TestDiscoverOptions(t *testing.T) {
	home := t.TempDir()
	env := map[string]string{"HOME": home}
	f := &Factory{Getenv: func(k string) string { return env[k] }}
	extra := filepath.Join(home, "old")
	o, err := f.DiscoverOptions([]string{"pi=" + extra}, false)
	require.NoError(t, err)
	require.Len(t, o.Extra, 1)
	assert.Equal(t, "pi", o.Extra[0].Agent)
	assert.Equal(t, extra, o.Extra[0].Path)
	assert.NotEmpty(t, o.Cache, "the list cache is used unless --no-cache")

	o, err = f.DiscoverOptions(nil, true)
	require.NoError(t, err)
	assert.Empty(t, o.Extra)
	assert.Empty(t, o.Cache)

	_, err = f.DiscoverOptions([]string{"nosuch=/x"}, false)
	require.Error(t, err)
	assert.Equal(t, ExitUsage, ExitCode(err))
}
