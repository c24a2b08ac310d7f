package repair

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessctl/sessctl/internal/format/pi"
	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/sessctl/sessctl/internal/problem"
	"github.com/stretchr/testify/require"
)

// surrogateLines is a pi session (header and message entries given as
// id, parent id: raw JSON values).
func surrogateLines(entries ...[2]string) []byte {
	lines := []string{`{"type":"session","version":3,"id":"01a08c9d-0000-4000-8000-000000000002","timestamp":"2026-09-10T18:39:01.496Z","cwd":"/home/dev/x"}`}
	for n, e := range entries {
		lines = append(lines, fmt.Sprintf(`{"type":"message","id":%s,"parentId":%s,"timestamp":"2026-09-10T18:50:%02d.000Z","message":{"role":"user","content":"message %d","timestamp":%d}}`,
			e[0], e[1], n, n, 1789065616000+n))
	}
	return []byte(strings.Join(lines, "\n") + "\n")
}

// TestRepairSurrogateIDsApart: ids "\ud800" and "\ud801" are two entries
// to the agent (JSON.parse keeps lone surrogates), and "\ud800" is not the
// id spelled "\\ud800": repair finds nothing to fix and changes nothing.
func TestRepairSurrogateIDsApart(t *testing.T) {
	b := surrogateLines(
		[2]string{`"r0"`, `null`},
		[2]string{`"\ud800"`, `"r0"`},
		[2]string{`"\ud801"`, `"r0"`},
		[2]string{`"c1"`, `"\ud800"`},
		[2]string{`"c2"`, `"\ud801"`},
		[2]string{`"\\ud800"`, `"c2"`},
		[2]string{`"\ud83d\ude00"`, `"\\ud800"`},
		[2]string{`"c3"`, "\"\U0001F600\""},
		[2]string{`"\ud800\u0041"`, `"c3"`},
		[2]string{`"c4"`, `"\ud800A"`},
	)
	dir := t.TempDir()
	p := filepath.Join(dir, "s.jsonl")
	require.NoError(t, os.WriteFile(p, b, 0o600))
	for _, dry := range []bool{true, false} {
		res, err := Pi(p, Options{DryRun: dry})
		require.NoError(t, err)
		require.False(t, res.Changed, "dry run %v: %+v", dry, res.Fixes)
		require.Empty(t, res.Fixes, "dry run %v", dry)
		after, _ := os.ReadFile(p)
		require.Equal(t, b, after)
	}
	ents, _ := os.ReadDir(dir)
	require.Len(t, ents, 1, "no backup or sidecar for a file with nothing to repair")
}

// TestRepairSurrogateIDsWrittenBack: an id that holds a lone surrogate and
// is written into another line (the parent a self-parent is relinked to)
// is written as its escape, so that the agent reads the same id: the
// repaired file checks clean and the entry hangs under "\ud800", not under
// an id of three U+FFFD. A repeated "\ud800" is one id repeated (renamed).
func TestRepairSurrogateIDsWrittenBack(t *testing.T) {
	b := surrogateLines(
		[2]string{`"r0"`, `null`},
		[2]string{`"\ud800"`, `"r0"`},
		[2]string{`"\ud801"`, `"\ud801"`}, // its own parent
		[2]string{`"\ufffd\ufffd\ufffd"`, `"r0"`},
		[2]string{`"d1"`, `"r0"`},
		[2]string{`"\uDC00"`, `"d1"`},
		[2]string{`"\udc00"`, `"d1"`}, // the same id as the line before
	)
	dir := t.TempDir()
	p := filepath.Join(dir, "s.jsonl")
	require.NoError(t, os.WriteFile(p, b, 0o600))
	res, err := Pi(p, Options{NoBackup: true})
	require.NoError(t, err)
	require.True(t, res.Changed)
	actions := map[string]int{}
	for _, f := range res.Fixes {
		actions[f.Code]++
	}
	require.Equal(t, map[string]int{problem.SelfParent: 1, problem.DuplicateID: 1}, actions, "%+v", res.Fixes)

	after, err := os.ReadFile(p)
	require.NoError(t, err)
	lines := strings.Split(string(after), "\n")
	self, _ := jsonl.Field([]byte(lines[3]), "parentId")
	require.Equal(t, `"\ud800"`, string(self), "the self-parent's new parent, as JSON.stringify writes it")
	require.Contains(t, lines[7], `"id":"\udc00"`, "the last of the repeated ids keeps it")

	f, err := pi.Open(p, pi.Options{})
	require.NoError(t, err)
	for _, pr := range f.Check(pi.CheckOptions{}) {
		require.NotEqual(t, problem.Error, pr.Severity, "%+v", pr)
	}
	hi, _ := jsonl.KeyString([]byte(`"\ud800"`))
	lo, _ := jsonl.KeyString([]byte(`"\ud801"`))
	i, ok := f.Index.Lookup(lo)
	require.True(t, ok)
	j, ok := f.Index.Lookup(hi)
	require.True(t, ok)
	require.Equal(t, j, f.Index.Parent(i))
}
