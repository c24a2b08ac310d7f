package fork

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessctl/sessctl/internal/format/pi"
	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/sessctl/sessctl/internal/problem"
	"github.com/sessctl/sessctl/internal/tree"
	"github.com/stretchr/testify/require"
)

// TestForkSurrogateIDs: ids that hold a lone surrogate ("\ud800", which
// JSON.parse keeps and "\ud801" is another id) are written into the fork
// as JSON.stringify writes them: the child re-chained past a dropped label
// and the re-added label's target name "\ud800", not three U+FFFD, so the
// fork's context is the source's.
func TestForkSurrogateIDs(t *testing.T) {
	usage := `"usage":{"input":1,"output":1,"cacheRead":0,"cacheWrite":0,"totalTokens":2,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}}`
	lines := []string{
		`{"type":"session","version":3,"id":"01a08c9d-0000-4000-8000-000000000003","timestamp":"2026-09-10T18:39:01.496Z","cwd":"/home/dev/x"}`,
		`{"type":"message","id":"r0","parentId":null,"timestamp":"2026-09-10T18:50:01.000Z","message":{"role":"user","content":"q","timestamp":1789065616001}}`,
		`{"type":"message","id":"\ud800","parentId":"r0","timestamp":"2026-09-10T18:50:02.000Z","message":{"role":"assistant","content":[{"type":"text","text":"a"}],"api":"anthropic-messages","provider":"anthropic","model":"m",` + usage + `,"stopReason":"stop","timestamp":1789065616002}}`,
		`{"type":"message","id":"\ud801","parentId":"r0","timestamp":"2026-09-10T18:50:03.000Z","message":{"role":"assistant","content":[{"type":"text","text":"b"}],"api":"anthropic-messages","provider":"anthropic","model":"m",` + usage + `,"stopReason":"stop","timestamp":1789065616003}}`,
		`{"type":"label","id":"l1","parentId":"\ud800","timestamp":"2026-09-10T18:50:04.000Z","targetId":"\ud800","label":"mark"}`,
		`{"type":"message","id":"c1","parentId":"l1","timestamp":"2026-09-10T18:50:05.000Z","message":{"role":"user","content":"under a","timestamp":1789065616005}}`,
	}
	src := filepath.Join(t.TempDir(), "s.jsonl")
	require.NoError(t, os.WriteFile(src, []byte(strings.Join(lines, "\n")+"\n"), 0o600))
	f, err := pi.Open(src, pi.Options{})
	require.NoError(t, err)
	c1, ok := f.Index.Lookup("c1")
	require.True(t, ok)
	want, err := f.BuildContext(c1)
	require.NoError(t, err)

	out := filepath.Join(t.TempDir(), "fork.jsonl")
	res, err := Pi(src, Options{At: "c1", Output: out})
	require.NoError(t, err)
	require.Equal(t, 1, res.Relinked)
	require.Equal(t, 1, res.LabelsKept)
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	require.Contains(t, string(b), `"id":"c1","parentId":"\ud800"`)
	require.Contains(t, string(b), `"targetId":"\ud800"`)
	require.NotContains(t, string(b), `\ufffd`)

	g, err := pi.Open(out, pi.Options{})
	require.NoError(t, err)
	for _, p := range g.Check(pi.CheckOptions{}) {
		require.NotEqual(t, problem.Error, p.Severity, "%s", p)
	}
	got, err := g.BuildContext(tree.None)
	require.NoError(t, err)
	require.Equal(t, contextJSON(want), contextJSON(got))
	hi, _ := jsonl.KeyString([]byte(`"\ud800"`))
	require.Equal(t, "mark", g.Labels[hi])
}
