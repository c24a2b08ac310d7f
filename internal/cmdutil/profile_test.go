package cmdutil

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestStartProfileWritesAProfile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cpu.prof")
	t.Setenv(ProfileEnv, path)
	stop := StartProfile()
	x := 0
	for i := 0; i < 1e6; i++ {
		x += i
	}
	_ = x
	stop()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	// A pprof profile is gzip-compressed protobuf.
	require.True(t, len(b) > 2 && b[0] == 0x1f && b[1] == 0x8b, "not a gzip'd profile: %d bytes", len(b))
}

func TestStartProfileUnsetDoesNothing(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(ProfileEnv, "")
	StartProfile()()
	ents, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Empty(t, ents)
}
