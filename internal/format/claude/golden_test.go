package claude

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessctl/sessctl/internal/model"
	"github.com/sessctl/sessctl/internal/render"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/claude/golden")

const golden = "../../../testdata/claude/golden"

// drawTree renders the human tree as the tree command does (no colour, no
// terminal), with subagents when the session has any.
func drawTree(t *testing.T, path string, mode LeafMode) string {
	f, err := Open(path)
	require.NoError(t, err)
	defer f.Close()
	tr, err := f.Tree(mode)
	require.NoError(t, err)
	files, err := FindSubagents(path)
	require.NoError(t, err)
	v := f.View(tr, f.LinkSubagents(files))
	defer v.Close()
	var b bytes.Buffer
	o := render.TreeOptions{Full: true, Styles: render.Plain(), ShortIDs: 8, FlatLast: true}
	draw := func(mt *model.Tree) {
		rows := render.TreeRows(mt, o)
		var nodes []int
		for _, r := range rows {
			if r.Node >= 0 {
				nodes = append(nodes, r.Node)
			}
		}
		v.FillText(mt, nodes)
		require.NoError(t, render.DrawTree(&b, mt, rows, o))
	}
	draw(v.Tree)
	for _, g := range v.Groups {
		fmt.Fprintln(&b, "\n"+g.Title)
		draw(g.Tree)
	}
	render.TreeFooter(&b, v.Tree, render.Plain())
	lm := f.LeafModes()
	fmt.Fprintln(&b, "\n"+lm.Summary())
	return b.String()
}

func drawShow(t *testing.T, path string, mode LeafMode, across bool) string {
	f, err := Open(path)
	require.NoError(t, err)
	defer f.Close()
	leaf, err := f.Leaf(mode)
	require.NoError(t, err)
	p, err := f.Walk(leaf, across)
	require.NoError(t, err)
	b := f.NewTranscript(p.Leaf, mode, across)
	require.NoError(t, f.EachTurn(p, func(tu *Turn) error { b.Add(tu); return nil }))
	var out bytes.Buffer
	require.NoError(t, render.DrawTranscript(&out, &b.T, render.TranscriptOptions{Styles: render.Plain(), ShowIDs: true, ShortIDLen: 8}))
	for _, w := range p.Warnings {
		fmt.Fprintf(&out, "warning: line %d: %s [%s]\n", w.Line, w.Msg, w.Code)
	}
	return out.String()
}

func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	p := filepath.Join(golden, name)
	if *update {
		require.NoError(t, os.MkdirAll(golden, 0o755))
		require.NoError(t, os.WriteFile(p, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(p)
	require.NoError(t, err, "run go test ./internal/format/claude -run Golden -update")
	assert.Equal(t, string(want), got, name)
}

func TestGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(shapes, "*.jsonl"))
	require.NoError(t, err)
	files = append(files,
		filepath.Join(shopDir(), "dddddddd-0000-4000-8000-000000000001.jsonl"),
		filepath.Join(shopDir(), "dddddddd-0000-4000-8000-000000000002.jsonl"),
		filepath.Join(shopDir(), "cccccccc-0000-4000-8000-00000000000a.jsonl"))
	for _, p := range files {
		name := strings.TrimSuffix(filepath.Base(p), ".jsonl")
		t.Run(name, func(t *testing.T) {
			checkGolden(t, "tree-"+name+".txt", drawTree(t, p, LeafLastPrompt))
			checkGolden(t, "show-"+name+".txt", drawShow(t, p, LeafLastPrompt, false))
		})
	}
	// the modes and the whole history on the shapes where they matter
	checkGolden(t, "show-api-error-late.resume.txt", drawShow(t, filepath.Join(shapes, "api-error-late.jsonl"), LeafResume, false))
	checkGolden(t, "tree-api-error-late.resume.txt", drawTree(t, filepath.Join(shapes, "api-error-late.jsonl"), LeafResume))
	checkGolden(t, "show-compact.across.txt", drawShow(t, filepath.Join(shapes, "compact.jsonl"), LeafLastPrompt, true))
	checkGolden(t, "show-compact-preserved.across.txt", drawShow(t, filepath.Join(shapes, "compact-preserved.jsonl"), LeafLastPrompt, true))
}
