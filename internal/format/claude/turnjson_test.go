package claude

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// AppendJSON gives the same object as encoding/json on every fixture turn,
// and strings with control characters, bad UTF-8 and separators.
func TestTurnAppendJSON(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(shapes, "*.jsonl"))
	require.NoError(t, err)
	n := 0
	for _, p := range files {
		f, err := Open(p)
		require.NoError(t, err)
		for _, across := range []bool{false, true} {
			turns, _, err := f.Chain("", across)
			require.NoError(t, err)
			for _, tu := range turns {
				want, err := json.Marshal(&tu)
				require.NoError(t, err)
				got := tu.AppendJSON(nil)
				require.True(t, json.Valid(got), string(got))
				assert.JSONEq(t, string(want), string(got))
				n++
			}
		}
		f.Close()
	}
	assert.Greater(t, n, 50)
	tu := Turn{UUID: "a\"b\\c\n\x01\u2028<&>", Type: "user", Timestamp: "bad\xffutf8", Content: []json.RawMessage{}, Lines: []int{7}}
	var want bytes.Buffer
	enc := json.NewEncoder(&want)
	enc.SetEscapeHTML(false)
	require.NoError(t, enc.Encode(&tu))
	got := tu.AppendJSON(nil)
	assert.Equal(t, bytes.TrimSpace(want.Bytes()), got)
}
