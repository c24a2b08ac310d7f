package repair

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"testing"

	"github.com/sessctl/sessctl/internal/format/pi"
	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/sessctl/sessctl/internal/problem"
	"github.com/stretchr/testify/require"
)

var fixtures = []string{"012-branch-simple", "041-labels-across-branches", "058-everything", "022-compaction-multiple"}

func load(t *testing.T, name string) []byte {
	b, err := os.ReadFile(filepath.Join("../../testdata/pi/parity/sessions", name+".jsonl"))
	if err != nil {
		t.Skip("fixtures missing")
	}
	return b
}

func splitLines(b []byte) [][]byte {
	lines := bytes.Split(b, []byte("\n"))
	if len(lines) > 0 && len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	return lines
}

func join(lines [][]byte) []byte { return append(bytes.Join(lines, []byte("\n")), '\n') }

func decode(b []byte) (map[string]any, bool) {
	var m map[string]any
	if json.Unmarshal(b, &m) != nil || m == nil {
		return nil, false
	}
	return m, true
}

// idFields are the only fields repair may change in a line it keeps.
var idFields = []string{"id", "parentId", "targetId", "firstKeptEntryId", "fromId"}

func withoutIDs(m map[string]any) map[string]any {
	c := map[string]any{}
	for k, v := range m {
		c[k] = v
	}
	for _, k := range idFields {
		delete(c, k)
	}
	return c
}

func TestRepairTruncatedLastLine(t *testing.T) {
	for _, fx := range fixtures {
		fx := fx
		b := load(t, fx)
		t.Run(fx, func(t *testing.T) {
			t.Parallel()
			truncations(t, fx, b)
		})
	}
}

// truncations cuts the last line at every byte (every 17th with -short).
func truncations(t *testing.T, fx string, b []byte) {
	{
		lines := splitLines(b)
		last := lines[len(lines)-1]
		head := join(lines[:len(lines)-1])
		step := 1
		if testing.Short() {
			step = 17
		}
		for cut := 1; cut < len(last); cut += step {
			content := append(append([]byte(nil), head...), last[:cut]...)
			repairAndVerify(t, fmt.Sprintf("%s cut at %d", fx, cut), content)
		}
	}
}

func TestRepairCorruptionCorpus(t *testing.T) {
	n := 60
	if testing.Short() {
		n = 10
	}
	for k, fx := range fixtures {
		fx := fx
		rng := rand.New(rand.NewSource(int64(42 + k)))
		b := load(t, fx)
		t.Run(fx, func(t *testing.T) {
			t.Parallel()
			corrupt(t, fx, b, rng, n)
		})
	}
}

func corrupt(t *testing.T, fx string, b []byte, rng *rand.Rand, n int) {
	{
		base := splitLines(b)
		for i := 0; i < n; i++ {
			lines := append([][]byte(nil), base...)
			kind := i % 6
			at := 1 + rng.Intn(len(lines)-1) // never the header
			switch kind {
			case 0: // garbage line
				lines = append(lines[:at], append([][]byte{[]byte("garbage {not json")}, lines[at:]...)...)
			case 1: // NUL run line, or NULs before an entry
				if rng.Intn(2) == 0 {
					lines = append(lines[:at], append([][]byte{bytes.Repeat([]byte{0}, 100+rng.Intn(400))}, lines[at:]...)...)
				} else {
					lines[at] = append(bytes.Repeat([]byte{0}, 1+rng.Intn(50)), lines[at]...)
				}
			case 2: // duplicated line (a duplicate id)
				dup := append([]byte(nil), lines[at]...)
				to := at + 1 + rng.Intn(len(lines)-at)
				lines = append(lines[:to], append([][]byte{dup}, lines[to:]...)...)
			case 3: // deleted line (orphans below it)
				lines = append(lines[:at], lines[at+1:]...)
			case 4: // re-parent an entry under a later one (a cycle when it is its ancestor)
				later := at + rng.Intn(len(lines)-at)
				id, _ := jsonl.Field(lines[later], "id")
				if id != nil {
					var m map[string]json.RawMessage
					if json.Unmarshal(lines[at], &m) == nil {
						m["parentId"] = id
						lines[at], _ = json.Marshal(m)
					}
				}
			case 5: // two lines glued together, and a BOM
				if at+1 < len(lines) {
					lines[at] = append(lines[at], lines[at+1]...)
					lines = append(lines[:at+1], lines[at+2:]...)
				}
				lines[0] = append(append([]byte(nil), jsonl.BOM...), lines[0]...)
			}
			repairAndVerify(t, fmt.Sprintf("%s case %d kind %d", fx, i, kind), join(lines))
		}
	}
}

func TestRepairCleanFileUnchanged(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/pi/parity/sessions/*.jsonl")
	if len(files) == 0 {
		t.Skip("fixtures missing")
	}
	for _, src := range files {
		b, _ := os.ReadFile(src)
		dir := t.TempDir()
		p := filepath.Join(dir, filepath.Base(src))
		require.NoError(t, os.WriteFile(p, b, 0o600))
		res, err := Pi(p, Options{})
		require.NoError(t, err)
		require.False(t, res.Changed, "%s: %+v", src, res.Fixes)
		after, _ := os.ReadFile(p)
		require.Equal(t, b, after)
		ents, _ := os.ReadDir(dir)
		require.Len(t, ents, 1, "no backup or sidecar for a file with nothing to repair")
	}
}

func TestRepairDryRunChangesNothing(t *testing.T) {
	b := load(t, "012-branch-simple")
	lines := splitLines(b)
	content := append(join(lines[:len(lines)-1]), lines[len(lines)-1][:20]...)
	dir := t.TempDir()
	p := filepath.Join(dir, "s.jsonl")
	require.NoError(t, os.WriteFile(p, content, 0o600))
	st1, _ := os.Stat(p)
	res, err := Pi(p, Options{DryRun: true})
	require.NoError(t, err)
	require.True(t, res.Changed)
	require.NotEmpty(t, res.Fixes)
	after, _ := os.ReadFile(p)
	require.Equal(t, content, after)
	st2, _ := os.Stat(p)
	require.Equal(t, st1.ModTime(), st2.ModTime())
	ents, _ := os.ReadDir(dir)
	require.Len(t, ents, 1, "dry run created files")
}

func TestRepairKeepsModeAndBackup(t *testing.T) {
	b := load(t, "012-branch-simple")
	dir := t.TempDir()
	p := filepath.Join(dir, "s.jsonl")
	content := append([]byte(nil), b...)
	content = append(content, []byte(`{"type":"mess`)...)
	require.NoError(t, os.WriteFile(p, content, 0o640))
	require.NoError(t, os.Chmod(p, 0o640))
	res, err := Pi(p, Options{})
	require.NoError(t, err)
	require.NotEmpty(t, res.Backup)
	bak, err := os.ReadFile(res.Backup)
	require.NoError(t, err)
	require.Equal(t, content, bak, "the backup holds the old bytes")
	st, _ := os.Stat(p)
	require.Equal(t, os.FileMode(0o640), st.Mode().Perm())
	out, _ := os.ReadFile(p)
	require.Equal(t, b, out, "only the torn tail was removed")
}

var piKind = repairKind{repair: Pi, withoutIDs: withoutIDs, errors: func(t *testing.T, path string) []string {
	f, err := pi.Open(path, pi.Options{})
	require.NoError(t, err)
	var out []string
	for _, p := range f.Check(pi.CheckOptions{}) {
		if p.Severity == problem.Error {
			out = append(out, p.String())
		}
	}
	return out
}}

func repairAndVerify(t *testing.T, name string, content []byte) {
	t.Helper()
	verifyRepair(t, piKind, name, content)
}
