package agentcore

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/sessctl/sessctl/internal/problem"
	"github.com/stretchr/testify/require"
)

func writeLines(t *testing.T, lines ...string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "s.jsonl")
	require.NoError(t, os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o600))
	return p
}

func problemCodes(ps []problem.Problem) map[string]int {
	m := map[string]int{}
	for _, p := range ps {
		m[p.Code]++
	}
	return m
}

func key(t *testing.T, raw string) string {
	t.Helper()
	k, ok := jsonl.KeyString([]byte(raw))
	require.True(t, ok)
	return k
}

// TestSurrogateIDs: ids are compared as the agent's JavaScript strings:
// "\ud800" and "\ud801" are two entries (encoding/json makes both U+FFFD),
// "\ud800" is not "\\ud800" (fastjson makes both the six characters), and
// "\uD800" is "\ud800" again (a duplicate).
func TestSurrogateIDs(t *testing.T) {
	p := writeLines(t,
		`{"id":"x1","type":"user","timestamp":1767225600000,"content":"start"}`,
		`{"id":"\ud800","parentId":"x1","type":"assistant","timestamp":1767225600001,"content":"a"}`,
		`{"id":"\ud801","parentId":"x1","type":"assistant","timestamp":1767225600002,"content":"b"}`,
		`{"id":"\\ud800","parentId":"x1","type":"assistant","timestamp":1767225600003,"content":"c"}`,
		`{"id":"c1","parentId":"\ud800","type":"user","timestamp":1767225600004,"content":"d"}`,
		`{"id":"c2","parentId":"\ud801","type":"user","timestamp":1767225600005,"content":"e"}`,
		`{"id":"c3","parentId":"\\ud800","type":"user","timestamp":1767225600006,"content":"f"}`,
	)
	s, err := Read(p)
	require.NoError(t, err)
	ps, err := s.Check()
	require.NoError(t, err)
	require.Empty(t, problemCodes(ps)[problem.DuplicateID], "%+v", ps)
	require.Len(t, s.Entries, 7)
	for child, parent := range map[string]string{"c1": key(t, `"\ud800"`), "c2": key(t, `"\ud801"`), "c3": `\ud800`} {
		i, ok := s.Index.Lookup(child)
		require.True(t, ok)
		require.Equal(t, parent, s.Index.ID(s.Index.Parent(i)), "parent of %s", child)
	}

	p = writeLines(t,
		`{"id":"x1","type":"user","timestamp":1767225600000,"content":"start"}`,
		`{"id":"\ud800","parentId":"x1","type":"assistant","timestamp":1767225600001,"content":"a"}`,
		`{"id":"\uD800","parentId":"x1","type":"assistant","timestamp":1767225600002,"content":"b"}`,
	)
	s, err = Read(p)
	require.NoError(t, err)
	ps, err = s.Check()
	require.NoError(t, err)
	require.Equal(t, 1, problemCodes(ps)[problem.DuplicateID], "%+v", ps)
}

// TestSurrogateToolCallIDs: a tool_result answers the call whose id the
// agent calls equal: "\ud800" answers "\uD800", not "\ud801".
func TestSurrogateToolCallIDs(t *testing.T) {
	for _, c := range []struct {
		call, result string
		paired       bool
	}{
		{`"\ud800"`, `"\uD800"`, true},
		{`"\ud83d\ude00"`, "\"\U0001F600\"", true},
		{`"\ud800"`, `"\ud801"`, false},
		{`"\ud800"`, `"\\ud800"`, false},
	} {
		p := writeLines(t,
			`{"id":"x1","type":"user","timestamp":1767225600000,"content":"start"}`,
			`{"id":"x2","parentId":"x1","type":"assistant","timestamp":1767225600001,"content":"calling","toolCalls":[{"id":`+c.call+`,"name":"bash","arguments":{}}]}`,
			`{"id":"x3","parentId":"x2","type":"tool_result","timestamp":1767225600002,"toolCallId":`+c.result+`,"output":"ok","success":true}`,
		)
		s, err := Read(p)
		require.NoError(t, err)
		ps, err := s.Check()
		require.NoError(t, err)
		got := problemCodes(ps)
		if c.paired {
			require.Zero(t, got[CodeUnansweredCall]+got[CodeOrphanToolResult], "call %s, result %s: %+v", c.call, c.result, ps)
		} else {
			require.Equal(t, 1, got[CodeUnansweredCall], "call %s, result %s: %+v", c.call, c.result, ps)
			require.Equal(t, 1, got[CodeOrphanToolResult], "call %s, result %s: %+v", c.call, c.result, ps)
		}
	}
}
