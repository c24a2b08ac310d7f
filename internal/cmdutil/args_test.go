package cmdutil_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/sessctl/sessctl/internal/cmdutil"
	"github.com/sessctl/sessctl/internal/cmdutil/cmdtest"
	"github.com/sessctl/sessctl/internal/sessfmt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestExpandArgs(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "p")
	require.NoError(t, os.MkdirAll(sub, 0o755))
	for _, n := range []string{"a.jsonl", "a.jsonl.rejected.jsonl", "notes.txt"} {
		require.NoError(t, os.WriteFile(filepath.Join(sub, n), []byte("{}\n"), 0o644))
	}
	store := filepath.Join(dir, "store")
	require.NoError(t, os.MkdirAll(store, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(store, "x.jsonl"), []byte("{}\n"), 0o644))

	f, _ := cmdtest.Factory(t, nil)
	f.AllSessions = func() ([]string, error) { return []string{"/all/one.jsonl"}, nil }
	isStore := func(p string) bool { return p == store }
	got, err := f.ExpandArgs([]string{dir, store, filepath.Join(dir, "missing.jsonl")}, true, isStore)
	require.NoError(t, err)
	assert.Equal(t, []string{
		"/all/one.jsonl",                    // --all first
		filepath.Join(sub, "a.jsonl"),       // found in the folder, sidecar and non-session skipped
		filepath.Join(store, "x.jsonl"),     // (the folder search also walks into it)
		store,                               // a store is kept whole
		filepath.Join(dir, "missing.jsonl"), // kept, to be reported as unreadable
	}, got)
}

// An id prefix two sessions share is a usage error (exit 2); one naming a
// single session becomes its reference; one naming none is kept.
func TestExpandArgsResolvesIDs(t *testing.T) {
	f, _ := cmdtest.Factory(t, nil)
	f.Registry.Lookup = func(id string) ([]sessfmt.Ref, error) {
		switch id {
		case "abcd":
			return []sessfmt.Ref{{Format: "pi", Path: "/s/a.jsonl"}, {Format: "pi", Path: "/s/b.jsonl"}}, nil
		case "abcd0001":
			return []sessfmt.Ref{{Format: "opencode", Path: "/d/opencode.db", ID: "abcd0001"}}, nil
		}
		return nil, nil
	}
	_, err := f.ExpandArgs([]string{"abcd"}, false, nil)
	var ue *cmdutil.UsageError
	require.True(t, errors.As(err, &ue), "%v", err)
	assert.Equal(t, cmdutil.ExitUsage, cmdutil.ExitCode(err))
	assert.Contains(t, err.Error(), "/s/b.jsonl", "the candidates are listed")

	got, err := f.ExpandArgs([]string{"abcd0001", "nothing"}, false, nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"/d/opencode.db#abcd0001", "nothing"}, got)
}
