package discover

import (
	"path/filepath"
	"testing"

	"github.com/sessctl/sessctl/internal/sessfmt"
	"github.com/stretchr/testify/require"
)

// TestOpenClawDBRowsHaveTheVerdict: a session kept in an OpenClaw agent
// database is listed with the message count and problems show and check
// give it (one verdict), not the database's count of events (13 events
// against 6 messages for s-comp of the real 2026.9.6 state).
func TestOpenClawDBRowsHaveTheVerdict(t *testing.T) {
	for _, state := range []string{"real-2026.9.6/state", "sqlite-state"} {
		dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", "openclaw", state))
		require.NoError(t, err)
		env := envOf(map[string]string{"HOME": t.TempDir()})
		rows, warns := ListStores(Options{Env: env, Agents: []string{"openclaw"},
			Extra: []Root{{Agent: "openclaw", Path: filepath.Join(dir, "agents"), Source: "--root", Explicit: true}}})
		require.Empty(t, warns)
		require.NotEmpty(t, rows, state)
		reg := newRegistry(env)
		for _, r := range rows {
			sess, err := reg.Open(r.Path, sessfmt.OpenOptions{Check: true})
			require.NoError(t, err, r.Path)
			v := sessfmt.VerdictOf(sess, sessfmt.CheckOptions{})
			sess.Close()
			require.True(t, v.Counted, r.Path)
			require.Equal(t, v.Messages, r.Messages, "%s: messages", r.Path)
			require.Equal(t, v.Problems, r.Problems, "%s: problems", r.Path)
		}
	}
}
