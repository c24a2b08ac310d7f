package fork

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sessctl/sessctl/internal/format/pi"
	"github.com/sessctl/sessctl/internal/problem"
	"github.com/sessctl/sessctl/internal/tree"
	"github.com/stretchr/testify/require"
)

// Forking at any entry gives a session whose default context equals the
// source's context at that entry, with no orphans, for every fixture.
func TestForkGivesTheSourceContext(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/pi/parity/sessions/*.jsonl")
	if len(files) == 0 {
		t.Skip("fixtures missing")
	}
	forks, relinked := 0, 0
	for _, src := range files {
		f, err := pi.Open(src, pi.Options{})
		require.NoError(t, err)
		step := 1 + f.Index.Len()/12
		for i := 0; i < f.Index.Len(); i += step {
			if _, cyc := f.Index.Path(i); cyc {
				continue
			}
			want, err := f.BuildContext(i)
			require.NoError(t, err)
			out := filepath.Join(t.TempDir(), "fork.jsonl")
			res, err := Pi(src, Options{At: f.DisplayID(i), Output: out})
			require.NoError(t, err, "%s at %s", src, f.DisplayID(i))
			relinked += res.Relinked
			g, err := pi.Open(out, pi.Options{})
			require.NoError(t, err)
			require.NoError(t, g.HeaderErr)
			got, err := g.BuildContext(tree.None)
			require.NoError(t, err)
			require.Equal(t, contextJSON(want), contextJSON(got), "%s forked at %s", filepath.Base(src), f.DisplayID(i))
			for _, p := range g.Check(pi.CheckOptions{}) {
				require.NotEqual(t, problem.Error, p.Severity, "%s forked at %s: %s", filepath.Base(src), f.DisplayID(i), p)
			}
			abs, _ := filepath.Abs(src)
			require.Equal(t, abs, g.Header.ParentSession)
			forks++
		}
	}
	t.Logf("%d forks compared, %d children re-chained past dropped labels", forks, relinked)
	require.Greater(t, relinked, 0, "the fixtures must exercise label re-chaining")
}

func contextJSON(c *pi.Context) string {
	s := "["
	for _, m := range c.Messages {
		s += string(m) + ","
	}
	s += "]"
	for _, f := range c.Fields {
		s += f.Key + "=" + string(f.Value) + ";"
	}
	return s
}

func TestForkFullCopiesEveryEntryAndRefusesToOverwrite(t *testing.T) {
	src := "../../testdata/pi/parity/sessions/041-labels-across-branches.jsonl"
	if _, err := os.Stat(src); err != nil {
		t.Skip("fixtures missing")
	}
	out := filepath.Join(t.TempDir(), "full.jsonl")
	res, err := Pi(src, Options{Full: true, Output: out})
	require.NoError(t, err)
	f, _ := pi.Open(src, pi.Options{})
	require.Equal(t, f.Index.Len(), res.Entries)
	g, err := pi.Open(out, pi.Options{})
	require.NoError(t, err)
	require.Equal(t, f.Index.Len(), g.Index.Len())
	_, err = Pi(src, Options{Full: true, Output: out})
	require.Error(t, err, "an existing file must never be overwritten")
}
