package pi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
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

// The nodes rendered in blocks by several goroutines give the same bytes
// as one block on one goroutine, for any block size.
func TestWriteTreeJSONBlocks(t *testing.T) {
	files, _ := filepath.Glob("../../../testdata/pi/*/*/*.jsonl")
	more, _ := filepath.Glob("../../../testdata/pi/*/*.jsonl")
	files = append(files, more...)
	require.NotEmpty(t, files)
	defer func(b, w int) { treeBlock, treeWorkers = b, w }(treeBlock, treeWorkers)
	n := 0
	for _, p := range files {
		f, err := Open(p, Options{})
		if err != nil || f.HeaderErr != nil {
			continue
		}
		treeBlock, treeWorkers = 1<<30, 1
		var want bytes.Buffer
		require.NoError(t, f.WriteTreeJSON(&want, tree.None))
		require.True(t, json.Valid(want.Bytes()), p)
		for _, bw := range [][2]int{{1, 2}, {2, 3}, {3, 2}, {7, 1}, {64, 2}} {
			treeBlock, treeWorkers = bw[0], bw[1]
			var got bytes.Buffer
			require.NoError(t, f.WriteTreeJSON(&got, tree.None))
			require.Equal(t, want.String(), got.String(), "%s block %d workers %d", p, bw[0], bw[1])
		}
		n++
	}
	require.Greater(t, n, 10)
}

// appendJSONString writes a string as is between quotes exactly when
// jsonSafe accepts it, else as encoding/json does, after any prefix.
func TestAppendJSONString(t *testing.T) {
	var cases []string
	for c := 0; c < 256; c++ {
		cases = append(cases, string([]byte{byte(c)}), "ab"+string([]byte{byte(c)})+"cd")
	}
	cases = append(cases, "", "884263e0", "日本語", "a<b>&c", "\x00no-id", "x\u2028y", "bad\xffutf8")
	for _, s := range cases {
		want := `"` + s + `"`
		if !jsonSafe(s) {
			m, _ := json.Marshal(s)
			want = string(m)
		}
		if got := string(appendJSONString([]byte("pre,"), s)); got != "pre,"+want {
			t.Fatalf("%q: got %s, want pre,%s", s, got, want)
		}
	}
}

// sizeWriter records the largest write.
type sizeWriter struct {
	bytes.Buffer
	largest int
}

func (w *sizeWriter) Write(p []byte) (int, error) {
	w.largest = max(w.largest, len(p))
	return w.Buffer.Write(p)
}

// A file of many roots: the roots list (here about 2 MB) goes out in
// pieces of about 1 MiB, not held whole, and is complete and in order.
func TestWriteTreeJSONManyRoots(t *testing.T) {
	var in bytes.Buffer
	in.WriteString(`{"type":"session","version":3,"id":"s","timestamp":"t","cwd":"/"}` + "\n")
	const n = 120_000
	for i := range n {
		fmt.Fprintf(&in, `{"type":"message","id":"root-%07d","message":{"role":"user"}}`+"\n", i)
	}
	p := filepath.Join(t.TempDir(), "roots.jsonl")
	require.NoError(t, os.WriteFile(p, in.Bytes(), 0o644))
	f, err := Open(p, Options{})
	require.NoError(t, err)
	var w sizeWriter
	require.NoError(t, f.WriteTreeJSON(&w, tree.None))
	var got struct {
		Roots []string          `json:"roots"`
		Nodes []json.RawMessage `json:"nodes"`
	}
	require.NoError(t, json.Unmarshal(w.Bytes(), &got))
	require.Len(t, got.Roots, n)
	require.Len(t, got.Nodes, n)
	for i, r := range got.Roots {
		if r != fmt.Sprintf("root-%07d", i) {
			t.Fatalf("root %d is %q", i, r)
		}
	}
	require.Less(t, w.largest, 1<<20+64, "a write of %d bytes", w.largest)
}
