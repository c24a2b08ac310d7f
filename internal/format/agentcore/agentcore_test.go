package agentcore

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessctl/sessctl/internal/problem"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var testdata = filepath.Join("..", "..", "..", "testdata", "agentcore")

func ids(s *Session, idx []int) []string {
	var out []string
	for _, i := range idx {
		out = append(out, s.Entries[i].ID)
	}
	return out
}

func TestReadBranched(t *testing.T) {
	s, err := Read(filepath.Join(testdata, "branched.jsonl"))
	require.NoError(t, err)
	assert.Equal(t, "branched", s.ID)
	require.Len(t, s.Entries, 9)
	assert.Empty(t, s.Problems)
	assert.Equal(t, []string{"u2b", "a2"}, ids(s, s.Leaves()))
	// The default leaf is the first leaf in file order, not the last entry.
	assert.Equal(t, "u2b", s.Entries[s.DefaultLeaf()].ID)
	assert.Equal(t, int64(1767225601000), s.Entries[1].Timestamp.UnixMilli())
	assert.Equal(t, []string{"s0", "u1", "a1b", "u2b"}, ids(s, s.PathTo(s.DefaultLeaf())))
}

func contextJSON(t *testing.T, s *Session, leaf int) string {
	t.Helper()
	msgs, err := s.Context(leaf)
	require.NoError(t, err)
	b, err := json.Marshal(msgs)
	require.NoError(t, err)
	return string(b)
}

func TestContext(t *testing.T) {
	s, err := Read(filepath.Join(testdata, "branched.jsonl"))
	require.NoError(t, err)
	// Default leaf: system skipped.
	assert.JSONEq(t, `[
		{"role":"user","content":"What does notes.txt say?"},
		{"role":"assistant","content":[{"type":"text","text":"I cannot read files here."}]},
		{"role":"user","content":"Fine, thanks."}
	]`, contextJSON(t, s, -1))
	// The other branch: metadata and tool entries skipped, tool_result mapped.
	a2, err := s.Find("a2")
	require.NoError(t, err)
	assert.JSONEq(t, `[
		{"role":"user","content":"What does notes.txt say?"},
		{"role":"assistant","content":"Let me read it.","toolCalls":[{"id":"call_1","name":"read","arguments":{"path":"notes.txt"}}]},
		{"role":"tool","content":"hello from notes","toolCallId":"call_1"},
		{"role":"assistant","content":"It says: hello from notes."}
	]`, contextJSON(t, s, a2))
	msgs, _ := s.Context(a2)
	assert.Equal(t, "r1", msgs[2].EntryID)
}

func TestDetectByContent(t *testing.T) {
	for _, n := range []string{"branched.jsonl", "broken.jsonl"} {
		assert.True(t, DetectFile(filepath.Join(testdata, n)), n)
	}
	// A pi file and a Claude Code record are not Agent Core.
	assert.False(t, Detect(strings.NewReader(`{"type":"session","version":3,"id":"x","timestamp":"2026-01-01T00:00:00Z","cwd":"/"}`+"\n")))
	assert.False(t, Detect(strings.NewReader(`{"type":"user","uuid":"u","parentUuid":null,"timestamp":"2026-01-01T00:00:00Z"}`+"\n")))
	// ISO timestamps are not Agent Core's epoch milliseconds.
	assert.False(t, Detect(strings.NewReader(`{"id":"a","type":"user","timestamp":"2026-01-01T00:00:00Z"}`+"\n")))
	// The file can live anywhere: copied out of ~/.pi/sessions it still reads.
	dir := t.TempDir()
	b, err := os.ReadFile(filepath.Join(testdata, "branched.jsonl"))
	require.NoError(t, err)
	p := filepath.Join(dir, "export.txt")
	require.NoError(t, os.WriteFile(p, b, 0o644))
	assert.True(t, DetectFile(p))
}

func TestCheckBroken(t *testing.T) {
	s, err := Read(filepath.Join(testdata, "broken.jsonl"))
	require.NoError(t, err)
	ps, err := s.Check()
	require.NoError(t, err)
	got := map[string][]int{}
	for _, p := range ps {
		got[p.Code] = append(got[p.Code], p.Line)
	}
	assert.Equal(t, map[string][]int{
		problem.MalformedLine: {4},
		problem.TornTail:      {7},
		problem.DuplicateID:   {5},
		problem.Orphan:        {6},
		CodeUnansweredCall:    {2},
		CodeOrphanToolResult:  {3},
	}, got)
	// Last occurrence wins: x3's parent x2 resolves to the second copy.
	x2, _ := s.Index.Lookup("x2")
	assert.Equal(t, 5, s.Entries[x2].Line)
}

func TestViews(t *testing.T) {
	s, err := Read(filepath.Join(testdata, "branched.jsonl"))
	require.NoError(t, err)
	a2, _ := s.Find("a2")
	tr, err := s.Transcript(a2)
	require.NoError(t, err)
	var roles []string
	for _, m := range tr.Messages {
		roles = append(roles, m.Role)
	}
	assert.Equal(t, []string{"system", "user", "metadata", "assistant", "tool", "tool", "assistant"}, roles)
	a1 := tr.Messages[3]
	require.Len(t, a1.Blocks, 3)
	assert.Equal(t, "thinking", a1.Blocks[0].Kind)
	assert.Equal(t, "toolCall", a1.Blocks[2].Kind)
	assert.Equal(t, "read", a1.Blocks[2].Name)
	assert.Equal(t, `{"path":"notes.txt"}`, a1.Blocks[2].Args)
	res := tr.Messages[5].Blocks[0]
	assert.Equal(t, "toolResult", res.Kind)
	assert.Equal(t, "hello from notes", res.Text)
	assert.False(t, res.IsError)

	tree, err := s.Tree(-1)
	require.NoError(t, err)
	assert.Equal(t, []int{0}, tree.Roots)
	assert.Equal(t, s.DefaultLeaf(), tree.Leaf)
	var active []string
	for i, a := range tree.Active {
		if a {
			active = append(active, s.Entries[i].ID)
		}
	}
	assert.Equal(t, []string{"s0", "u1", "a1b", "u2b"}, active)
	assert.Equal(t, "Let me read it. read({\"path\":\"notes.txt\"})", tree.Nodes[3].Text)
	u1, _ := s.Find("u1")
	assert.Len(t, tree.Nodes[u1].Children, 2)
}

func TestFindPrefix(t *testing.T) {
	s, err := Read(filepath.Join(testdata, "branched.jsonl"))
	require.NoError(t, err)
	i, err := s.Find("u2")
	require.NoError(t, err)
	assert.Equal(t, "u2b", s.Entries[i].ID)
	_, err = s.Find("a")
	assert.ErrorContains(t, err, "ambiguous")
	_, err = s.Find("zz")
	assert.Error(t, err)
}

func TestEmptyFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "e.jsonl")
	require.NoError(t, os.WriteFile(p, nil, 0o644))
	s, err := Read(p)
	require.NoError(t, err)
	assert.Equal(t, -1, s.DefaultLeaf())
	_, err = s.Context(-1)
	assert.ErrorIs(t, err, ErrNoLeaf)
	assert.False(t, DetectFile(p))
}

func FuzzRead(f *testing.F) {
	b, _ := os.ReadFile(filepath.Join(testdata, "broken.jsonl"))
	f.Add(b)
	b, _ = os.ReadFile(filepath.Join(testdata, "branched.jsonl"))
	f.Add(b)
	f.Add([]byte(`{"id":"a","parentId":"a","type":"user","timestamp":1}` + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(t.TempDir(), "f.jsonl")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := Read(p)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Check(); err != nil {
			t.Fatal(err)
		}
		for _, l := range s.Leaves() {
			if _, err := s.Context(l); err != nil && !strings.Contains(err.Error(), "line") {
				t.Fatal(err)
			}
		}
		if _, err := s.Tree(-1); err != nil {
			t.Fatal(err)
		}
	})
}
