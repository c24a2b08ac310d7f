package relocate

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestUnderMap(t *testing.T) {
	require.True(t, Under("/a/b", "/a/b"))
	require.True(t, Under("/a/b/c", "/a/b"))
	require.False(t, Under("/a/bc", "/a/b"))
	require.False(t, Under("/a", "/a/b"))
	require.True(t, Under("/x", "/"))
	m, ok := Map("/a/b/c/d", "/a/b", "/z")
	require.True(t, ok)
	require.Equal(t, "/z/c/d", m)
	m, ok = Map("/a/bc", "/a/b", "/z")
	require.False(t, ok)
	require.Equal(t, "/a/bc", m)
}

// TestFolders: the project folder names each agent derives from a cwd
// (reference: pi-format.md §1.2, claude-code-format.md §1.3).
func TestFolders(t *testing.T) {
	require.Equal(t, "--home-u-proj--", piFolder("/home/u/proj"))
	require.Equal(t, "--C--Users-x--", piFolder(`C:\Users\x`))
	require.Equal(t, "-proj-sub", ompFolder("/home/u/proj/sub", "/home/u", "/tmp"))
	require.Equal(t, "-", ompFolder("/home/u", "/home/u", "/tmp"))
	require.Equal(t, "-tmp-x", ompFolder("/tmp/x", "/home/u", "/tmp"))
	require.Equal(t, "-tmp", ompFolder("/tmp", "/home/u", "/tmp"))
	require.Equal(t, "--srv-a--", ompFolder("/srv/a", "/home/u", "/tmp"))
	require.Equal(t, "--home-uv--", ompFolder("/home/uv", "/home/u", "/tmp"), "a sibling of home is not inside it")
	p := &planner{home: "/home/u", tmp: "/tmp"}
	require.Equal(t, []string{"-Users-foo-my-proj-v2"}, p.folders("claude", "/Users/foo/my_proj.v2"))
	require.Equal(t, []string{"-p", "--home-u-p--"}, p.folders("omp", "/home/u/p"))
	require.Nil(t, p.folders("opencode", "/x"))
}
