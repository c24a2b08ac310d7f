package archive

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sessctl/sessctl/internal/safewrite"
	"github.com/stretchr/testify/require"
)

func files(t *testing.T) (string, []string, map[string][]byte) {
	dir := t.TempDir()
	content := map[string][]byte{
		filepath.Join(dir, "p", "s.jsonl"):                   []byte("{\"type\":\"session\"}\n{\"x\":\"\u2028\"}\r\nno newline"),
		filepath.Join(dir, "p", "s", "subagents", "a.jsonl"): {0, 1, 2, 0xff, '\n'},
		filepath.Join(dir, "p", "s", "empty.txt"):            {},
	}
	var list []string
	mt := time.Date(2025, 3, 4, 5, 6, 7, 800, time.UTC)
	for p, b := range content {
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, b, 0o640))
		require.NoError(t, os.Chmod(p, 0o640))
		require.NoError(t, os.Chtimes(p, mt, mt))
		list = append(list, p)
	}
	return dir, list, content
}

// TestRoundTrip: archive, remove the originals, restore: the same bytes,
// mode and mtime; the archive is complete and listed.
func TestRoundTrip(t *testing.T) {
	_, list, content := files(t)
	root := filepath.Join(t.TempDir(), "archive")
	dir, m, err := Create(root, Manifest{Agent: "pi", ID: "id/1", Cwd: "/w"}, list, time.Unix(1700000000, 0))
	require.NoError(t, err)
	require.True(t, strings.HasSuffix(dir, "-pi-id_1"), dir)
	require.Len(t, m.Entries, 3)
	got, err := List(root)
	require.NoError(t, err)
	require.Len(t, got, 1)
	for i, e := range got[0].Manifest.Entries {
		require.Equal(t, m.Entries[i].Path, e.Path)
		require.Equal(t, m.Entries[i].SHA256, e.SHA256)
		require.True(t, m.Entries[i].MTime.Equal(e.MTime))
	}
	for _, e := range m.Entries {
		require.True(t, Unchanged(e))
		require.NoError(t, os.Remove(e.Path))
	}
	res, err := Restore(dir, true)
	require.NoError(t, err)
	for _, r := range res {
		require.Equal(t, "would-restore", r.Action)
		require.NoFileExists(t, r.Path)
	}
	res, err = Restore(dir, false)
	require.NoError(t, err)
	require.Len(t, res, 3)
	for p, b := range content {
		got, err := os.ReadFile(p)
		require.NoError(t, err)
		require.Equal(t, b, got, p)
		st, err := os.Stat(p)
		require.NoError(t, err)
		require.Equal(t, fs.FileMode(0o640), st.Mode().Perm())
		require.True(t, st.ModTime().Equal(time.Date(2025, 3, 4, 5, 6, 7, 800, time.UTC)), st.ModTime())
	}
	// A second restore finds everything present.
	res, err = Restore(dir, false)
	require.NoError(t, err)
	for _, r := range res {
		require.Equal(t, "present", r.Action)
	}
}

// TestRestoreRefusesOverwrite: one original with other bytes refuses the
// whole restore before anything is written.
func TestRestoreRefusesOverwrite(t *testing.T) {
	_, list, _ := files(t)
	root := t.TempDir()
	dir, m, err := Create(root, Manifest{Agent: "pi", ID: "x"}, list, time.Now())
	require.NoError(t, err)
	for _, e := range m.Entries {
		require.NoError(t, os.Remove(e.Path))
	}
	require.NoError(t, os.WriteFile(m.Entries[1].Path, []byte("other"), 0o600))
	_, err = Restore(dir, false)
	var ce *ConflictError
	require.ErrorAs(t, err, &ce)
	require.Equal(t, []string{m.Entries[1].Path}, ce.Paths)
	require.NoFileExists(t, m.Entries[0].Path)
	require.NoFileExists(t, m.Entries[2].Path)
	b, _ := os.ReadFile(m.Entries[1].Path)
	require.Equal(t, "other", string(b))
}

// TestRestoreRefusesSymlinkAndTamper: a symbolic link at an original's
// name is not followed, and an archived copy whose hash does not match is
// not restored.
func TestRestoreRefusesSymlinkAndTamper(t *testing.T) {
	_, list, _ := files(t)
	root := t.TempDir()
	dir, m, err := Create(root, Manifest{Agent: "pi", ID: "x"}, list, time.Now())
	require.NoError(t, err)
	for _, e := range m.Entries {
		require.NoError(t, os.Remove(e.Path))
	}
	victim := filepath.Join(t.TempDir(), "victim")
	require.NoError(t, os.WriteFile(victim, []byte("keep"), 0o600))
	require.NoError(t, os.Symlink(victim, m.Entries[0].Path))
	_, err = Restore(dir, false)
	require.Error(t, err) // the link is an existing name with other content
	b, _ := os.ReadFile(victim)
	require.Equal(t, "keep", string(b))
	require.NoError(t, os.Remove(m.Entries[0].Path))

	// a stored copy replaced by a link is refused
	stored := filepath.Join(dir, m.Entries[0].Stored)
	require.NoError(t, os.Rename(stored, stored+".orig"))
	require.NoError(t, os.Symlink(stored+".orig", stored))
	_, err = Restore(dir, false)
	require.ErrorIs(t, err, safewrite.ErrSymlink)
	require.NoError(t, os.Remove(stored))
	// a stored copy with other content is refused
	other := filepath.Join(t.TempDir(), "o")
	require.NoError(t, os.WriteFile(other, []byte("x"), 0o600))
	_, m2, err := Create(t.TempDir(), Manifest{Agent: "pi", ID: "y"}, []string{other}, time.Now())
	require.NoError(t, err)
	_ = m2
	b, err = os.ReadFile(filepath.Join(filepath.Dir(filepath.Dir(stored)), "files", "0002.gz"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(stored, b, 0o600))
	_, err = Restore(dir, false)
	require.ErrorContains(t, err, "does not match its hash")
	for _, e := range m.Entries {
		_, err := os.Lstat(e.Path)
		require.True(t, errors.Is(err, fs.ErrNotExist), e.Path)
	}
}

// TestManifestPathsChecked: a manifest naming a relative path or a stored
// name sessctl does not write is refused.
func TestManifestPathsChecked(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, ManifestName), []byte(`{"entries":[{"path":"/a/../b","stored":"files/0001.gz"}]}`), 0o600))
	_, err := Open(dir)
	require.ErrorContains(t, err, "not a clean absolute path")
	require.NoError(t, os.WriteFile(filepath.Join(dir, ManifestName), []byte(`{"entries":[{"path":"/a","stored":"../x.gz"}]}`), 0o600))
	_, err = Open(dir)
	require.ErrorContains(t, err, "stored name")
}
