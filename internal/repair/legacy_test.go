package repair

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/sessctl/sessctl/internal/format/pi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func legacyCopy(t *testing.T, name string, extra string) (string, []byte) {
	b, err := os.ReadFile(filepath.Join("../../testdata/pi/migrate", name+".jsonl"))
	if err != nil {
		t.Skip("fixtures missing")
	}
	b = append(b, extra...)
	p := filepath.Join(t.TempDir(), "2025-10-01T10-00-00-000Z_"+name+".jsonl")
	require.NoError(t, os.WriteFile(p, b, 0o644))
	return p, b
}

// checkCodes counts the codes check reports for the file at path.
func checkCodes(t *testing.T, path string) map[string]int {
	f, err := pi.Open(path, pi.Options{})
	require.NoError(t, err)
	out := map[string]int{}
	for _, pr := range f.Check(pi.CheckOptions{}) {
		out[pr.Code]++
	}
	return out
}

func codes(r *Result) map[string]int {
	out := map[string]int{}
	for _, p := range r.Remaining {
		out[p.Code]++
	}
	return out
}

// An unmigrated v1/v2 pi file: check reports only the version notice (the
// file is read as pi migrates it in memory), so repair plans nothing for
// the version alone, writes nothing and leaves the notice (whose fix is
// `sessctl migrate`) as the one remaining problem.
func TestRepairLegacyVersionAlone(t *testing.T) {
	for _, name := range []string{"v1-explicit-version-1", "v1-stray-ids", "v1-two-compactions", "v2-hookmessage", "v2-branches-unknown-fields"} {
		p, orig := legacyCopy(t, name, "")
		want := checkCodes(t, p)
		require.Contains(t, want, pi.CodeOutdatedVersion, name)
		res, err := Pi(p, Options{})
		require.NoError(t, err, name)
		assert.Empty(t, res.Fixes, name)
		assert.False(t, res.Changed, name)
		assert.Equal(t, want, codes(res), name, "repair leaves what check reports")
		for _, pr := range res.Remaining {
			if pr.Code == pi.CodeOutdatedVersion {
				assert.Equal(t, "sessctl migrate "+p, pr.Fix, name)
			}
		}
		got, err := os.ReadFile(p)
		require.NoError(t, err)
		assert.Equal(t, orig, got, name)
		_, err = os.Stat(SidecarPath(p))
		assert.True(t, os.IsNotExist(err), name)
	}
}

// Real damage in a v1/v2 file is still repaired, and the version is left
// as it is: the header line is kept byte for byte, and what remains is what
// check says about the repaired file (the version notice).
func TestRepairLegacyTornTail(t *testing.T) {
	for _, name := range []string{"v1-linear", "v2-hookmessage"} {
		p, orig := legacyCopy(t, name, `{"type":"message","timestamp":"2025-10-01T10:09`)
		res, err := Pi(p, Options{NoBackup: true})
		require.NoError(t, err, name)
		require.Len(t, res.Fixes, 1, name)
		assert.Equal(t, "rejected", res.Fixes[0].Action, name)
		assert.True(t, res.Changed, name)
		assert.Equal(t, map[string]int{pi.CodeOutdatedVersion: 1}, codes(res), name)
		got, err := os.ReadFile(p)
		require.NoError(t, err)
		want := orig[:bytes.LastIndexByte(orig, '\n')+1]
		assert.Equal(t, string(want), string(got), name)
		f, err := pi.Open(p, pi.Options{})
		require.NoError(t, err)
		require.NotNil(t, f.Legacy, name)
		var after []string
		for _, pr := range f.Check(pi.CheckOptions{}) {
			after = append(after, pr.Code)
		}
		assert.Equal(t, []string{pi.CodeOutdatedVersion}, after, name)
	}
}
