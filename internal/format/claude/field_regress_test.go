package claude

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sessctl/sessctl/internal/problem"
)

// openText writes lines to a transcript in a temp dir and opens it.
func openText(t *testing.T, lines ...string) *File {
	t.Helper()
	p := filepath.Join(t.TempDir(), "11111111-2222-4333-8444-555555555555.jsonl")
	require.NoError(t, os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o600))
	f, err := Open(p)
	require.NoError(t, err)
	t.Cleanup(func() { f.Close() })
	return f
}

// rec is one user or assistant record; parent "" writes parentUuid null.
func rec(typ, uuid, parent, ts, text string) string {
	par := "null"
	if parent != "" {
		par = fmt.Sprintf("%q", parent)
	}
	content := fmt.Sprintf("%q", text)
	if typ == TypeAssistant {
		content = fmt.Sprintf(`[{"type":"text","text":%q}]`, text)
	}
	return fmt.Sprintf(`{"parentUuid":%s,"isSidechain":false,"type":%q,"uuid":%q,"timestamp":%q,"sessionId":"11111111-2222-4333-8444-555555555555","message":{"role":%q,"content":%s}}`,
		par, typ, uuid, ts, typ, content)
}

// Issue 15.6: a file where every record is a root resumes one message; check
// must warn (not only inform), and still exit 0 without --strict (warnings
// never set exit 3 on their own).
func TestMostOffPathWarnsOnRoots(t *testing.T) {
	f := openText(t,
		rec(TypeUser, "u1", "", "2025-01-01T10:00:00Z", "first"),
		rec(TypeAssistant, "a1", "", "2025-01-01T10:00:01Z", "one"),
		rec(TypeUser, "u2", "", "2025-01-01T10:00:02Z", "second"),
	)
	assert.Contains(t, codes(f.Problems()), ProbMostOffPath)
	assert.Equal(t, problem.Warning, Severity(ProbMostOffPath))
}

// Records before a compact boundary are off the resumed path by design: a
// healthy compacted session gets no most-records-off-path (the shape has 4
// of its 7 user/assistant records before the boundary).
func TestMostOffPathIgnoresCompactedHistory(t *testing.T) {
	f := open(t, "compact.jsonl")
	p, err := f.Walk("", false)
	require.NoError(t, err)
	off, conv := f.offPath(p, false)
	require.True(t, off*2 > conv, "the shape must have most records before the boundary")
	assert.NotContains(t, codes(f.Problems()), ProbMostOffPath)
	// a real branch after the boundary still counts
	g := openText(t,
		rec(TypeUser, "u1", "", "2025-01-01T10:00:00Z", "old"),
		rec(TypeAssistant, "a1", "u1", "2025-01-01T10:00:01Z", "old answer"),
		`{"parentUuid":null,"logicalParentUuid":"a1","isSidechain":false,"type":"system","subtype":"compact_boundary","uuid":"b1","timestamp":"2025-01-01T10:00:02Z","sessionId":"11111111-2222-4333-8444-555555555555","content":"Conversation compacted","compactMetadata":{"trigger":"auto","preTokens":1000}}`,
		rec(TypeUser, "s1", "b1", "2025-01-01T10:00:03Z", "summary"),
		rec(TypeUser, "x1", "", "2025-01-01T10:00:04Z", "lost 1"),
		rec(TypeUser, "x2", "", "2025-01-01T10:00:05Z", "lost 2"),
		rec(TypeUser, "x3", "", "2025-01-01T10:00:06Z", "lost 3"),
		rec(TypeAssistant, "a2", "s1", "2025-01-01T10:00:07Z", "answer"),
	)
	assert.Contains(t, codes(g.Problems()), ProbMostOffPath)
}

// A compaction subagent's first records each hang on a record of the parent
// session (how Claude Code writes them): they are not lost history.
func TestMostOffPathIgnoresCompactionSubagentCopy(t *testing.T) {
	dir := t.TempDir()
	sid := "11111111-2222-4333-8444-555555555555"
	parent := []string{
		rec(TypeUser, "p1", "", "2025-01-01T10:00:00Z", "one"),
		rec(TypeAssistant, "p2", "p1", "2025-01-01T10:00:01Z", "two"),
		rec(TypeUser, "p3", "p2", "2025-01-01T10:00:02Z", "three"),
		rec(TypeAssistant, "p4", "p3", "2025-01-01T10:00:03Z", "four"),
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, sid+".jsonl"), []byte(strings.Join(parent, "\n")+"\n"), 0o600))
	sub := filepath.Join(dir, sid, "subagents")
	require.NoError(t, os.MkdirAll(sub, 0o700))
	side := func(s string) string { return strings.Replace(s, `"isSidechain":false`, `"isSidechain":true`, 1) }
	lines := []string{
		side(rec(TypeUser, "c1", "p1", "2025-01-01T10:01:00Z", "copy one")),
		side(rec(TypeUser, "c2", "p2", "2025-01-01T10:01:01Z", "copy two")),
		side(rec(TypeUser, "c3", "p3", "2025-01-01T10:01:02Z", "copy three")),
		side(rec(TypeUser, "c4", "p4", "2025-01-01T10:01:03Z", "summarise")),
		side(rec(TypeAssistant, "c5", "c4", "2025-01-01T10:01:04Z", "summary")),
	}
	p := filepath.Join(sub, "agent-acompact-abc123.jsonl")
	require.NoError(t, os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o600))
	f, err := Open(p)
	require.NoError(t, err)
	defer f.Close()
	require.Equal(t, filepath.Join(dir, sid+".jsonl"), f.ParentSession)
	assert.Empty(t, codes(f.Problems()))
}

// The file's last record names itself as parent and has no usable
// timestamp (so the 5 s repair cannot help): the last-prompt climb finds no
// user/assistant record. Claude Code 2.1.330, run offline on exactly this
// file (the parity harness's fake API), sent lines 1-4: the newest leaf
// candidate's branch, not the later-written older branch (lines 5-6).
// Before the fallback show failed with "has no transcript messages".
func TestLastPromptTipsFallback(t *testing.T) {
	u := func(n int) string { return fmt.Sprintf("1000000%d-0000-4000-8000-00001000000%d", n, n) }
	f := openText(t,
		rec(TypeUser, u(1), "", "2025-01-01T10:00:00.000Z", "q1"),
		rec(TypeAssistant, u(2), u(1), "2025-01-01T10:00:01.000Z", "a1"),
		rec(TypeUser, u(3), u(2), "2025-01-01T10:00:10.000Z", "newer branch q"),
		rec(TypeAssistant, u(4), u(3), "2025-01-01T10:00:11.000Z", "newer branch a"),
		rec(TypeUser, u(5), u(2), "2025-01-01T10:00:02.000Z", "later-written q"),
		rec(TypeAssistant, u(6), u(5), "2025-01-01T10:00:03.000Z", "later-written a"),
		`{"parentUuid":"trimmed","isSidechain":false,"type":"attachment","uuid":"trimmed","timestamp":"trimmed","sessionId":"11111111-2222-4333-8444-555555555555","attachment":{"type":"silent_turn_reminder","text":"trimmed"}}`,
	)
	leaf, err := f.Leaf(LeafLastPrompt)
	require.NoError(t, err)
	assert.Equal(t, u(4), leaf)
	assert.Equal(t, "tips", f.LeafModes().Source)
	p, err := f.Walk("", false)
	require.NoError(t, err)
	assert.Equal(t, []int{1, 2, 3, 4}, p.Lines(f))
}

// parallelInterrupt is the marot/spotter short.jsonl shape: two parallel
// tool calls (one message.id), their results, then the interrupt marker on
// the second result with the first result's timestamp, then a /model
// command. The picker's tie-break picks the first result, the other modes
// the marker; the loader's parallel tool result recovery gives both the
// same records. last is the text of the record after the results.
func parallelInterrupt(last string) []string {
	const sid = "11111111-2222-4333-8444-555555555555"
	asst := func(uuid, parent, ts, id string) string {
		return fmt.Sprintf(`{"parentUuid":%q,"isSidechain":false,"type":"assistant","uuid":%q,"timestamp":%q,"sessionId":%q,"message":{"id":"msg_par","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"tool_use","id":%q,"name":"Bash","input":{"command":"ls"}}]}}`, parent, uuid, ts, sid, id)
	}
	result := func(uuid, parent, ts, id string) string {
		return fmt.Sprintf(`{"parentUuid":%q,"isSidechain":false,"type":"user","uuid":%q,"timestamp":%q,"sessionId":%q,"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":%q,"content":"ok"}]}}`, parent, uuid, ts, sid, id)
	}
	return []string{
		rec(TypeUser, "u1", "", "2026-02-10T21:11:56.846Z", "the server does not start"),
		asst("t1", "u1", "2026-02-10T21:12:01.117Z", "toolu_1"),
		asst("t2", "t1", "2026-02-10T21:12:01.669Z", "toolu_2"),
		result("r1", "t1", "2026-02-10T21:12:02.480Z", "toolu_1"),
		result("r2", "t2", "2026-02-10T21:12:02.480Z", "toolu_2"),
		fmt.Sprintf(`{"parentUuid":"r2","isSidechain":false,"type":"user","uuid":"m1","timestamp":"2026-02-10T21:12:02.480Z","sessionId":%q,"message":{"role":"user","content":[{"type":"text","text":%q}]}}`, sid, last),
		fmt.Sprintf(`{"parentUuid":"m1","isSidechain":false,"type":"system","subtype":"local_command","uuid":"s1","timestamp":"2026-02-10T21:16:12.381Z","sessionId":%q,"content":"<command-name>/model</command-name>"}`, sid),
	}
}

// Issue 15 field: leaf modes whose leaves differ but whose conversations
// hold the same records (interrupt marker aside) do not disagree.
func TestLeafModesAgreeOnParallelInterruptTie(t *testing.T) {
	f := openText(t, parallelInterrupt("[Request interrupted by user for tool use]")...)
	lm := f.LeafModes()
	require.NotEqual(t, lm.Modes[LeafPicker], lm.Modes[LeafLastPrompt], "the shape must give the modes different leaves")
	assert.False(t, lm.Disagree, lm.Summary())
	assert.NotContains(t, codes(f.Problems()), ProbLeafDisagree)

	// a real user message there is content the picker's conversation lacks
	g := openText(t, parallelInterrupt("stop, run the tests instead")...)
	assert.True(t, g.LeafModes().Disagree)
	assert.Contains(t, codes(g.Problems()), ProbLeafDisagree)
}
