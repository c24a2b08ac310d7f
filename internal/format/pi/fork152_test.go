package pi_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/sessctl/sessctl/internal/fork"
	"github.com/sessctl/sessctl/internal/format/pi"
	"github.com/sessctl/sessctl/internal/tree"
	"github.com/stretchr/testify/require"
)

// sessctl fork of a pi 1.5.2 session (labels on the path, a compaction
// keeping a label entry, context edits, system messages) gives the source's
// context at the fork point, as 1.5.2's own createBranchedSession does
// (v152/sessions/124-labels-forked is 1.5.2's fork of 112).
func TestForkKeepsContext152(t *testing.T) {
	dir := "../../../testdata/pi/parity/v152/sessions"
	files, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if len(files) == 0 {
		t.Skip("no 1.5.2 sessions")
	}
	n := 0
	for _, src := range files {
		f, err := pi.Open(src, pi.Options{})
		require.NoError(t, err)
		// The default leaf and every branch tip.
		leaves := append([]int{f.Index.Last()}, f.Index.Leaves()...)
		for _, leaf := range leaves {
			want, err := f.BuildContext(leaf)
			require.NoError(t, err)
			tmp := t.TempDir()
			cp := filepath.Join(tmp, "src.jsonl")
			b, err := os.ReadFile(src)
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(cp, b, 0o600))
			out := filepath.Join(tmp, "fork.jsonl")
			_, err = fork.Pi(cp, fork.Options{At: f.DisplayID(leaf), Output: out})
			require.NoError(t, err)
			g, err := pi.Open(out, pi.Options{})
			require.NoError(t, err)
			got, err := g.BuildContext(tree.None)
			require.NoError(t, err)
			require.Equal(t, decode(t, want), decode(t, got), "%s at %s", filepath.Base(src), f.DisplayID(leaf))
			n++
		}
	}
	t.Logf("%d forks keep their source's context", n)
}

func decode(t *testing.T, c *pi.Context) any {
	var b bytes.Buffer
	b.WriteString(`[`)
	for i, m := range c.Messages {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(m)
	}
	b.WriteString(`]`)
	var v any
	require.NoError(t, json.Unmarshal(b.Bytes(), &v))
	return v
}
