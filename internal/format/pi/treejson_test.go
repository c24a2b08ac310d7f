package pi

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/sessctl/sessctl/internal/render"
	"github.com/sessctl/sessctl/internal/tree"
	"github.com/stretchr/testify/require"
)

// The streaming writer and the model-based renderer give the same JSON.
func TestWriteTreeJSONMatchesModel(t *testing.T) {
	files, _ := filepath.Glob("../../../testdata/pi/parity/*/*.jsonl")
	require.NotEmpty(t, files)
	for _, p := range files {
		f, err := Open(p, Options{})
		require.NoError(t, err)
		if f.HeaderErr != nil {
			continue
		}
		var got bytes.Buffer
		require.NoError(t, f.WriteTreeJSON(&got, tree.None))
		var want bytes.Buffer
		require.NoError(t, render.JSON(&want, render.TreeJSONOf(f.TreeModel(tree.None), "pi", string(f.Dialect), p), false))
		var a, b any
		require.NoError(t, json.Unmarshal(got.Bytes(), &a), "%s", got.String())
		require.NoError(t, json.Unmarshal(want.Bytes(), &b))
		require.Equal(t, b, a, p)
	}
}

// EachLine hands out lines as stored: a CRLF file keeps its '\r'.
func TestEachLineKeepsCR(t *testing.T) {
	f, err := Open("../../../testdata/pi/parity/damaged/crlf.jsonl", Options{})
	require.NoError(t, err)
	var got [][]byte
	require.NoError(t, f.EachLine([]int{0, 1}, func(_ int, l []byte) error {
		got = append(got, append([]byte(nil), l...))
		return nil
	}))
	require.Len(t, got, 2)
	for _, l := range got {
		require.True(t, bytes.HasSuffix(l, []byte("}\r")), "%q", l[len(l)-4:])
	}
}
