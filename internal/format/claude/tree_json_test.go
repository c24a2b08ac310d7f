package claude

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The streamed JSON equals the built one.
func TestTreeWriteJSONMatches(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(shapes, "*.jsonl"))
	require.NoError(t, err)
	files = append(files, filepath.Join(shopDir(), "dddddddd-0000-4000-8000-000000000001.jsonl"))
	for _, p := range files {
		f, err := Open(p)
		require.NoError(t, err)
		tr, err := f.Tree("")
		require.NoError(t, err)
		files, err := FindSubagents(p)
		require.NoError(t, err)
		subs := f.LinkSubagents(files)
		want, err := json.Marshal(tr.JSON(p, LeafLastPrompt, f.LeafModes(), subs))
		require.NoError(t, err)
		var direct bytes.Buffer
		require.NoError(t, f.WriteTreeJSON(&direct, p, LeafLastPrompt, "", subs))
		assert.JSONEq(t, string(want), direct.String())
		f.Close()
	}
}
