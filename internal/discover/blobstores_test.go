package discover

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func mkdirs(t *testing.T, dirs ...string) {
	t.Helper()
	for _, d := range dirs {
		require.NoError(t, os.MkdirAll(d, 0o755))
	}
}

func TestBlobStoresDefault(t *testing.T) {
	home := t.TempDir()
	e := envOf(map[string]string{"HOME": home, "XDG_DATA_HOME": filepath.Join(home, "data")})
	assert.Empty(t, BlobStores(e, nil, nil), "no store exists yet")

	omp := filepath.Join(home, ".omp", "agent")
	xcsh := filepath.Join(home, ".xcsh", "agent")
	mkdirs(t, filepath.Join(omp, "blobs"), filepath.Join(xcsh, "blobs"))
	extra := []Root{{Agent: "omp", Path: "/cfg/omp"}, {Agent: "xcsh", Path: "/cfg/xcsh"}, {Agent: "claude", Path: "/cfg/claude"}}
	got := BlobStores(e, extra, []string{"/sd"})
	require.Len(t, got, 2)
	assert.Equal(t, BlobStore{Agent: "omp", Dir: filepath.Join(omp, "blobs"), Source: "default",
		Roots:         []string{filepath.Join(omp, "sessions"), "/cfg/omp", "/sd"},
		OptionalRoots: []string{filepath.Join(omp, "archive", "sessions")}}, got[0])
	// xcsh gets only its own roots: never oh-my-pi's or Claude's.
	assert.Equal(t, BlobStore{Agent: "xcsh", Dir: filepath.Join(xcsh, "blobs"), Source: "default",
		Roots:         []string{filepath.Join(xcsh, "sessions"), "/cfg/xcsh", "/sd"},
		OptionalRoots: []string{filepath.Join(xcsh, "archive", "sessions")}}, got[1])
}

func TestBlobStoresXDGAndAgentDir(t *testing.T) {
	home := t.TempDir()
	data := filepath.Join(home, "data")
	mkdirs(t, filepath.Join(data, "omp", "blobs"), filepath.Join(home, ".omp", "agent", "blobs"), filepath.Join(home, "custom", "blobs"))
	e := envOf(map[string]string{"HOME": home, "XDG_DATA_HOME": data, "PI_CODING_AGENT_DIR": "~/custom"})
	got := BlobStores(e, nil, nil)
	require.Len(t, got, 3)
	custom, xdg, def := filepath.Join(home, "custom"), filepath.Join(data, "omp"), filepath.Join(home, ".omp", "agent")
	// Each store requires its own sessions folder; the agent's other
	// folders are read when present (more marks only keep more).
	assert.Equal(t, BlobStore{Agent: "omp", Dir: filepath.Join(custom, "blobs"), Source: "$PI_CODING_AGENT_DIR",
		Roots: []string{filepath.Join(custom, "sessions")},
		OptionalRoots: []string{filepath.Join(xdg, "sessions"), filepath.Join(def, "sessions"),
			filepath.Join(custom, "archive", "sessions"), filepath.Join(xdg, "archive", "sessions"), filepath.Join(def, "archive", "sessions")}}, got[0])
	assert.Equal(t, "$XDG_DATA_HOME", got[1].Source)
	assert.Equal(t, filepath.Join(xdg, "blobs"), got[1].Dir)
	assert.Equal(t, []string{filepath.Join(xdg, "sessions")}, got[1].Roots)
	assert.Equal(t, "default", got[2].Source)
}

func TestBlobStoresSameFolderOnce(t *testing.T) {
	home := t.TempDir()
	real := filepath.Join(home, ".omp", "agent")
	mkdirs(t, filepath.Join(real, "blobs"))
	require.NoError(t, os.Symlink(real, filepath.Join(home, "link")))
	e := envOf(map[string]string{"HOME": home, "PI_CODING_AGENT_DIR": filepath.Join(home, "link")})
	got := BlobStores(e, nil, nil)
	require.Len(t, got, 1)
	assert.Equal(t, []string{filepath.Join(home, "link", "sessions"), filepath.Join(real, "sessions")}, got[0].Roots)
}

func TestStoreAt(t *testing.T) {
	home := t.TempDir()
	e := envOf(map[string]string{"HOME": home})
	_, err := StoreAt(e, filepath.Join(home, "nope"), nil, nil)
	assert.ErrorContains(t, err, "does not exist")

	omp := filepath.Join(home, ".omp", "agent")
	mkdirs(t, filepath.Join(omp, "blobs"))
	bs, err := StoreAt(e, "~/.omp/agent/blobs", nil, []string{"/sd"})
	require.NoError(t, err)
	assert.Equal(t, "omp", bs.Agent)
	assert.Equal(t, "--store", bs.Source)
	assert.Equal(t, []string{filepath.Join(omp, "sessions"), "/sd"}, bs.Roots)

	// A store outside the known places: its sibling sessions folder is required.
	other := filepath.Join(home, "backup", ".xcsh", "agent")
	mkdirs(t, filepath.Join(other, "blobs"))
	bs, err = StoreAt(e, filepath.Join(other, "blobs"), []Root{{Agent: "xcsh", Path: "/x"}, {Agent: "omp", Path: "/o"}}, nil)
	require.NoError(t, err)
	assert.Equal(t, "xcsh", bs.Agent)
	assert.Equal(t, []string{filepath.Join(other, "sessions"), "/x"}, bs.Roots)
	assert.Equal(t, []string{filepath.Join(other, "archive", "sessions")}, bs.OptionalRoots)
}

func TestBlobStoreFor(t *testing.T) {
	home := t.TempDir()
	omp := filepath.Join(home, ".omp", "agent")
	mkdirs(t, filepath.Join(omp, "blobs"))
	e := envOf(map[string]string{"HOME": home})
	dir, agent := BlobStoreFor(e, filepath.Join(omp, "sessions", "-p", "s.jsonl"), nil, nil)
	assert.Equal(t, filepath.Join(omp, "blobs"), dir)
	assert.Equal(t, "omp", agent)
	dir, _ = BlobStoreFor(e, filepath.Join(omp, "archive", "sessions", "-p", "s.jsonl.gz"), nil, nil)
	assert.Equal(t, filepath.Join(omp, "blobs"), dir)
	dir, _ = BlobStoreFor(e, "/elsewhere/s.jsonl", nil, []string{"/elsewhere"})
	assert.Equal(t, filepath.Join(omp, "blobs"), dir, "a --sessions-dir session resolves against the discovered store")
	dir, agent = BlobStoreFor(e, "/a/b/sessions/x/s.jsonl", nil, nil)
	assert.Equal(t, "/a/b/blobs", dir)
	assert.Equal(t, "", agent)
	dir, _ = BlobStoreFor(e, "/tmp/s.jsonl", nil, nil)
	assert.Equal(t, "", dir)
}

func TestConfigSessionsDirs(t *testing.T) {
	e := envOf(map[string]string{"HOME": "/h"})
	got, err := ConfigSessionsDirs([]any{"~/a", "/b"}, e)
	require.NoError(t, err)
	assert.Equal(t, []string{"/h/a", "/b"}, got)
	got, err = ConfigSessionsDirs("~/c", e)
	require.NoError(t, err)
	assert.Equal(t, []string{"/h/c"}, got)
	got, err = ConfigSessionsDirs(nil, e)
	require.NoError(t, err)
	assert.Empty(t, got)
	_, err = ConfigSessionsDirs([]any{1}, e)
	assert.Error(t, err)
	_, err = ConfigSessionsDirs(map[string]any{}, e)
	assert.Error(t, err)
}
