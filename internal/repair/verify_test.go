package repair

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/stretchr/testify/require"
)

// repairKind is what differs between formats in repairAndVerify.
type repairKind struct {
	repair func(path string, opts Options) (*Result, error)
	// withoutIDs drops the fields repair may change in a kept line.
	withoutIDs func(map[string]any) map[string]any
	// errors lists the errors check still finds in the file.
	errors func(t *testing.T, path string) []string
}

// verifyRepair repairs content and checks every promise repair makes:
// every valid input line is kept byte for byte, changed only in id fields,
// or moved to the sidecar; check then finds no error; a second repair
// changes nothing.
func verifyRepair(t *testing.T, k repairKind, name string, content []byte) *Result {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "s.jsonl")
	require.NoError(t, os.WriteFile(path, content, 0o640))
	res, err := k.repair(path, Options{NoBackup: true})
	require.NoError(t, err, "%s: repair failed", name)
	out, err := os.ReadFile(path)
	require.NoError(t, err)
	var side [][]byte
	if sb, err := os.ReadFile(SidecarPath(path)); err == nil {
		for _, l := range splitLines(sb) {
			var r rejectedLine
			require.NoError(t, json.Unmarshal(l, &r))
			raw := []byte(r.Text)
			if r.Base64 != "" {
				raw, _ = base64.StdEncoding.DecodeString(r.Base64)
			}
			side = append(side, raw)
		}
	}
	outLines := splitLines(out)
	for i, l := range splitLines(content) {
		l = bytes.TrimPrefix(l, jsonl.BOM)
		m, ok := decode(l)
		if !ok {
			continue
		}
		found := false
		for _, o := range outLines {
			if bytes.Equal(o, l) {
				found = true
				break
			}
		}
		for _, o := range outLines {
			if found {
				break
			}
			if om, ok := decode(o); ok && reflect.DeepEqual(k.withoutIDs(om), k.withoutIDs(m)) {
				found = true
			}
		}
		for _, s := range side {
			if found {
				break
			}
			found = bytes.Contains(s, l)
		}
		require.True(t, found, "%s: valid input line %d is lost: %s", name, i+1, l)
	}
	require.Empty(t, k.errors(t, path), "%s: errors left after repair\n%s", name, out)
	again, err := k.repair(path, Options{NoBackup: true})
	require.NoError(t, err)
	require.False(t, again.Changed, "%s: second repair made changes: %+v", name, again.Fixes)
	return res
}
