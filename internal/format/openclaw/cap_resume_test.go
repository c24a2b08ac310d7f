package openclaw

import (
	"path/filepath"
	"testing"

	"github.com/sessctl/sessctl/internal/sessfmt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestResumeCommand(t *testing.T) {
	var f Format
	cases := []struct {
		keys []string
		want string
	}{
		{[]string{"agent:main:main"}, "openclaw tui --session agent:main:main"},
		{[]string{"agent:main:direct:bob", "agent:main:main"}, "openclaw tui --session agent:main:main"},
		{[]string{"agent:x:telegram:group:-1:topic:4"}, "openclaw tui --session agent:x:telegram:group:-1:topic:4"},
	}
	for _, c := range cases {
		got, ok := f.ResumeCommand(sessfmt.ResumeInfo{Agent: "openclaw", Keys: c.keys, Cwd: "/w"})
		require.True(t, ok, c.keys)
		assert.Equal(t, c.want, got.String())
		assert.Empty(t, got.Dir, "openclaw tui runs from anywhere")
	}
	_, ok := f.ResumeCommand(sessfmt.ResumeInfo{Agent: "openclaw", Path: "/x.jsonl", Keys: []string{}})
	assert.False(t, ok, "known to have no key")
	_, ok = f.ResumeCommand(sessfmt.ResumeInfo{Agent: "openclaw", Path: filepath.Join(t.TempDir(), "x.jsonl")})
	assert.False(t, ok, "not in an agent's sessions folder")
}

// TestResumeLooksUpKeys: with Keys nil, the keys come from the agent's
// sessions.json (a transcript file) or from its database (a "<db>#<id>"
// session), as list shows them.
func TestResumeLooksUpKeys(t *testing.T) {
	dir := copyState(t)
	var f Format
	p := filepath.Join(dir, "agents", "main", "sessions", sid(1)+".jsonl")
	row, ok := Lookup(p)
	require.True(t, ok)
	require.Contains(t, row.Keys(), "agent:main:main")
	got, ok := f.ResumeCommand(sessfmt.ResumeInfo{Agent: "openclaw", Path: p, Cwd: "/w"})
	require.True(t, ok)
	assert.Equal(t, "openclaw tui --session agent:main:main", got.String())

	db := agentDB(t, dir)
	got, ok = f.ResumeCommand(sessfmt.ResumeInfo{Agent: "openclaw", ID: "c1", Path: db + "#c1"})
	require.True(t, ok)
	assert.Equal(t, "openclaw tui --session agent:ops:main", got.String())
	_, ok = f.ResumeCommand(sessfmt.ResumeInfo{Agent: "openclaw", ID: "nope", Path: db + "#nope"})
	assert.False(t, ok)
}
