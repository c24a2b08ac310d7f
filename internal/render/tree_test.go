package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/sessctl/sessctl/internal/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// forkTree is a rewind: root r, answer a with two children; the first
// branch (b1, b2) was left, the second (c1, c2) leads to the leaf c2. Below
// the abandoned b1 there is a second fork (x, y) off the active path.
//
//	r ─ a ┬ b1 ┬ x
//	      │    └ y
//	      └ c1 ─ c2 (leaf)
func forkTree() *model.Tree {
	t := &model.Tree{Leaf: 5}
	add := func(id string, kids ...int) {
		t.Nodes = append(t.Nodes, model.TreeNode{ID: id, Type: "message", Children: kids})
	}
	add("r", 1)     // 0
	add("a", 2, 4)  // 1
	add("b1", 6, 7) // 2
	add("b2")       // 3 (unused, no parent)
	add("c1", 5)    // 4
	add("c2")       // 5
	add("x")        // 6
	add("y")        // 7
	t.Roots = []int{0}
	t.Active = []bool{true, true, false, false, true, true, false, false}
	return t
}

// rowOf returns the drawn line of the node with the given id.
func rowOf(t *testing.T, out, id string) string {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		f := strings.Fields(strings.TrimLeft(l, "├└│─ "))
		if len(f) > 1 && f[1] == id {
			return l
		}
	}
	t.Fatalf("no row for %s in\n%s", id, out)
	return ""
}

func TestTreeMarksContinuingBranch(t *testing.T) {
	for _, flat := range []bool{false, true} {
		tr := forkTree()
		o := TreeOptions{Full: true, Styles: Plain(), FlatLast: flat}
		var b bytes.Buffer
		require.NoError(t, DrawTree(&b, tr, TreeRows(tr, o), o))
		out := b.String()
		assert.Equal(t, 1, strings.Count(out, ContinuesMark), out)
		assert.True(t, strings.HasSuffix(rowOf(t, out, "c1"), "● c1 message  ◀ continues"), out)
		assert.NotContains(t, rowOf(t, out, "b1"), ContinuesMark)
		// a fork off the active path continues nothing
		assert.NotContains(t, rowOf(t, out, "x"), ContinuesMark)
		assert.NotContains(t, rowOf(t, out, "y"), ContinuesMark)
		assert.True(t, strings.HasSuffix(rowOf(t, out, "c2"), "◀ active leaf"), out)
	}
}

func TestTreeLeafChildIsNotMarkedTwice(t *testing.T) {
	tr := forkTree()
	tr.Leaf = 4 // c1 is the leaf: the child itself says so
	tr.Active[5] = false
	o := TreeOptions{Full: true, Styles: Plain()}
	var b bytes.Buffer
	require.NoError(t, DrawTree(&b, tr, TreeRows(tr, o), o))
	assert.NotContains(t, b.String(), ContinuesMark)
	assert.True(t, strings.HasSuffix(rowOf(t, b.String(), "c1"), "● c1 message  ◀ active leaf"))
}

func TestTreeNoLeafNoContinues(t *testing.T) {
	tr := forkTree()
	tr.Leaf = -1
	o := TreeOptions{Full: true, Styles: Plain()}
	var b bytes.Buffer
	require.NoError(t, DrawTree(&b, tr, TreeRows(tr, o), o))
	assert.NotContains(t, b.String(), ContinuesMark)
}

// treeSrc serves a model.Tree as a TreeSource (streamed drawing).
type treeSrc struct{ t *model.Tree }

func (s treeSrc) Roots(fn func(int) bool) {
	for _, r := range s.t.Roots {
		if !fn(r) {
			return
		}
	}
}
func (s treeSrc) NumChildren(n int) int     { return len(s.t.Nodes[n].Children) }
func (s treeSrc) Child(n, k int) int        { return s.t.Nodes[n].Children[k] }
func (s treeSrc) Keep(n int) bool           { return n == s.t.Leaf }
func (s treeSrc) Active(n int) bool         { return s.t.Active[n] }
func (s treeSrc) Leaf() int                 { return s.t.Leaf }
func (s treeSrc) Len() int                  { return len(s.t.Nodes) }
func (s treeSrc) Footer() *model.TreeFooter { return &model.TreeFooter{} }
func (s treeSrc) Node(n int) (model.TreeNode, error) {
	nd := s.t.Nodes[n]
	nd.Children = nil
	return nd, nil
}

func TestStreamTreeMarksContinuingBranch(t *testing.T) {
	tr := forkTree()
	o := TreeOptions{Full: true, Styles: Plain()}
	var want bytes.Buffer
	require.NoError(t, DrawTree(&want, tr, TreeRows(tr, o), o))
	var got bytes.Buffer
	require.NoError(t, DrawTree(&got, &model.Tree{Source: treeSrc{tr}}, nil, o))
	assert.Equal(t, want.String(), got.String())
	assert.Contains(t, rowOf(t, got.String(), "c1"), ContinuesMark)
}
