package claude

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Issue 15.1: a compaction subagent whose first record hangs on a record of
// the parent session is healthy: no dangling parent, show gives its own 2
// messages, tree draws it under that record.
func TestCompactionSubagentParentInSession(t *testing.T) {
	sess := filepath.Join(shopDir(), "dddddddd-0000-4000-8000-000000000001.jsonl")
	sub := filepath.Join(shopDir(), "dddddddd-0000-4000-8000-000000000001", "subagents", "agent-acompact-5e6f.jsonl")
	assert.Equal(t, sess, ParentSessionOf(sub, ""))
	f, err := Open(sub)
	require.NoError(t, err)
	defer f.Close()
	assert.Equal(t, sess, f.ParentSession)
	assert.Empty(t, f.Problems(), "check: the parent is in the parent session")
	assert.True(t, f.ExternalParent("13000006-0000-4000-8000-000013000006"))
	turns, warns, err := f.Chain("", false)
	require.NoError(t, err)
	assert.Len(t, turns, 2)
	assert.Equal(t, []string{WarnParentInSession}, codes(warns))
	tr, err := f.Tree(LeafLastPrompt)
	require.NoError(t, err)
	assert.Empty(t, tr.Orphans)

	// the same file without its parent session: a dangling parent again
	g, err := Read(strings.NewReader(mustRead(t, sub)), -1)
	require.NoError(t, err)
	assert.Contains(t, codes(g.Problems()), ProbDanglingParent)
}

// Issue 15.5: one active leaf per tree, subagent groups included.
func TestOneActiveLeaf(t *testing.T) {
	sess := filepath.Join(shopDir(), "dddddddd-0000-4000-8000-000000000001.jsonl")
	f, err := Open(sess)
	require.NoError(t, err)
	defer f.Close()
	tr, err := f.Tree(LeafLastPrompt)
	require.NoError(t, err)
	files, err := FindSubagents(sess)
	require.NoError(t, err)
	v := f.View(tr, f.LinkSubagents(files))
	defer v.Close()
	require.NotEmpty(t, v.Groups)
	assert.GreaterOrEqual(t, v.Tree.Leaf, 0)
	for _, g := range v.Groups {
		assert.Equal(t, -1, g.Tree.Leaf, g.Title)
	}
	found := false
	for _, n := range v.Tree.Nodes {
		for _, m := range n.Marks {
			if strings.HasPrefix(m, "compaction subagent acompact-5e6f") {
				found = true
			}
		}
	}
	assert.True(t, found, "the compaction subagent hangs under its parent record")
}

func mustRead(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	return string(b)
}
