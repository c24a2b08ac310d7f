//go:build unix

package repair

import (
	"io/fs"
	"math/rand"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestDerivedFilesTakeSessionOwner (issue 11.4): root repairing another
// user's session makes the sidecar, the journal, the backup and the new
// session file that user's, with the session's mode.
func TestDerivedFilesTakeSessionOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to chown")
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "s.jsonl")
	orig := genDamaged(rand.New(rand.NewSource(2)), 20, 10)
	require.NoError(t, os.WriteFile(p, orig, 0o640))
	require.NoError(t, os.Chmod(p, 0o640))
	require.NoError(t, os.Chown(p, 1234, 5678))
	owned := func(name string) {
		t.Helper()
		fi, err := os.Lstat(name)
		require.NoError(t, err)
		st := fi.Sys().(*syscall.Stat_t)
		require.Equal(t, [2]uint32{1234, 5678}, [2]uint32{st.Uid, st.Gid}, "owner of %s", filepath.Base(name))
		require.Equal(t, fs.FileMode(0o640), fi.Mode().Perm(), "mode of %s", filepath.Base(name))
	}
	sawJournal := false
	checkpoint = func(step string) {
		if step == "journal-written" {
			for _, j := range journals(t, p) {
				owned(j)
				sawJournal = true
			}
		}
	}
	defer func() { checkpoint = nil }()
	res, err := Pi(p, Options{})
	require.NoError(t, err)
	require.True(t, sawJournal, "no journal seen")
	require.NotEmpty(t, res.Backup)
	owned(p)
	owned(SidecarPath(p))
	owned(res.Backup)
	requireExactlyOnce(t, orig, p, "after repair")
}
