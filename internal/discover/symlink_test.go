package discover

import (
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Issue 16 (pi 1.5.2 lists sessions in symlinked session folders): the
// pi-family roots list the sessions of a symlinked project folder, once,
// and a session also reachable directly is listed at its direct path, not
// through a link that happens to sort before it.
func TestScanSymlinkedProjectFolders(t *testing.T) {
	home := t.TempDir()
	elsewhere := filepath.Join(home, "elsewhere")
	header := func(id string) string {
		return `{"type":"session","version":3,"id":"` + id + `","timestamp":"2026-03-01T00:00:00.000Z","cwd":"/p"}` + "\n"
	}
	write := func(p, id string) {
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(header(id)), 0o644))
	}
	link := func(target, p string) {
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.Symlink(target, p))
	}
	want := map[string]string{} // id -> path relative to home
	for _, agent := range []string{"pi", "omp", "xcsh"} {
		root := filepath.Join(home, "."+agent, "agent", "sessions")
		// a project folder kept elsewhere, linked in twice
		id := agent + "-linked"
		write(filepath.Join(elsewhere, agent, "2026-03-01T00-00-00-000Z_"+id+".jsonl"), id)
		link(filepath.Join(elsewhere, agent), filepath.Join(root, "--linked--"))
		link(filepath.Join(elsewhere, agent), filepath.Join(root, "--linked-again--"))
		want[id] = filepath.Join("."+agent, "agent", "sessions", "--linked--", "2026-03-01T00-00-00-000Z_"+id+".jsonl")
		// a real project folder, also reachable through a link sorting first
		id = agent + "-direct"
		write(filepath.Join(root, "--proj--", "2026-03-01T00-00-00-000Z_"+id+".jsonl"), id)
		link("--proj--", filepath.Join(root, "--a-link--"))
		want[id] = filepath.Join("."+agent, "agent", "sessions", "--proj--", "2026-03-01T00-00-00-000Z_"+id+".jsonl")
	}

	res := Scan(Options{Env: envOf(map[string]string{"HOME": home}), Agents: []string{"pi", "omp", "xcsh"}, Workers: 1})
	assert.Empty(t, res.Warnings)
	var got, wantIDs []string
	for _, s := range res.Sessions {
		got = append(got, s.ID)
		rel, err := filepath.Rel(home, s.Path)
		require.NoError(t, err)
		assert.Equal(t, want[s.ID], rel, s.ID)
	}
	for id := range want {
		wantIDs = append(wantIDs, id)
	}
	sort.Strings(got)
	sort.Strings(wantIDs)
	assert.Equal(t, wantIDs, got, "every session once")
}
