package claude

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const shapes = "../../../testdata/claude/shapes"

// id mirrors the fixture generator's readable uuids.
func id(n int) string { return fmt.Sprintf("%08d-0000-4000-8000-%012d", n, n) }

func open(t *testing.T, name string) *File {
	t.Helper()
	f, err := Open(filepath.Join(shapes, name))
	require.NoError(t, err)
	t.Cleanup(func() { f.Close() })
	return f
}

func codes(ps []Problem) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Code)
	}
	return out
}

func chainIDs(t *testing.T, f *File, leaf string, across bool) ([]string, []Problem) {
	t.Helper()
	turns, warns, err := f.Chain(leaf, across)
	require.NoError(t, err)
	var out []string
	for _, tu := range turns {
		out = append(out, tu.UUID)
	}
	return out, warns
}

func ids(ns ...int) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = id(n)
	}
	return out
}

func TestSplitAssistantAndParallelResults(t *testing.T) {
	f := open(t, "split-parallel.jsonl")
	assert.Empty(t, f.Problems())
	turns, warns, err := f.Chain("", false)
	require.NoError(t, err)
	// the four lines of msg_A are one turn; both tool results follow it
	var got []string
	for _, tu := range turns {
		got = append(got, tu.UUID)
	}
	require.Equal(t, ids(10000001, 10000002, 10000006, 10000007, 10000008), got)
	assert.Equal(t, []int{2, 3, 4, 5}, turns[1].Lines)
	assert.Equal(t, ids(10000002, 10000003, 10000004, 10000005), turns[1].UUIDs)
	assert.Len(t, turns[1].Content, 4)
	assert.Equal(t, "msg_A", turns[1].MessageID)
	assert.Equal(t, id(10000006), turns[2].UUID)
	assert.True(t, turns[2].Rescued, "the ls result hangs off the chain and is re-attached")
	assert.False(t, turns[3].Rescued)
	assert.Contains(t, codes(warns), WarnRescued)
	// the tree marks the fork as parallel tool use
	tr, err := f.Tree("")
	require.NoError(t, err)
	n := tr.Nodes[3] // 10000004 holds toolu_ls and has two children
	assert.Equal(t, id(10000004), n.ID)
	assert.Equal(t, ForkParallelTools, n.Fork)
}

func TestSplitFinalTurn(t *testing.T) {
	f := open(t, "split-parallel.jsonl")
	turns, _, err := f.Chain("", false)
	require.NoError(t, err)
	last := turns[len(turns)-1]
	assert.Equal(t, "There are two files; main.go has 42 lines.", last.Blocks[0].Text)
	// tool results are linked to the line holding their tool_use
	assert.Equal(t, int32(3), f.toolResHold[5]) // line 6 -> line 4 (0-based 5 -> 3)
	assert.Equal(t, int32(4), f.toolResHold[6])
}

func TestLegacyProgressBridge(t *testing.T) {
	f := open(t, "progress-legacy.jsonl")
	c := codes(f.Problems())
	assert.Contains(t, c, ProbLegacyProgress)
	assert.Contains(t, c, ProbProgressForward, "turn_duration points at a progress line written after it")
	got, _ := chainIDs(t, f, "", false)
	assert.Equal(t, ids(20000001, 20000002, 20000005, 20000006, 20000010, 20000011), got)
	tr, err := f.Tree("")
	require.NoError(t, err)
	assert.Equal(t, 4, tr.Progress)
	var asst *TreeNode
	for i := range tr.Nodes {
		if tr.Nodes[i].ID == id(20000006) {
			asst = &tr.Nodes[i]
		}
	}
	require.NotNil(t, asst)
	assert.Len(t, asst.Children, 2, "turn_duration and the next prompt both hang on it through progress lines")
	assert.Equal(t, ForkProgress, asst.Fork)
	// the out-of-order system line is bridged backwards
	for _, n := range tr.Nodes {
		if n.ID == id(20000008) {
			assert.Equal(t, id(20000006), n.ParentID)
			assert.True(t, n.Bridged)
		}
	}
	// resume (latest timestamp) picks the late turn_duration line: disagreement
	lm := f.LeafModes()
	assert.Equal(t, id(20000008), lm.Modes[LeafResume])
	assert.Equal(t, id(20000011), lm.Modes[LeafLastPrompt])
	assert.True(t, lm.Disagree)
}

func TestCompactBoundary(t *testing.T) {
	f := open(t, "compact.jsonl")
	got, warns := chainIDs(t, f, "", false)
	assert.Equal(t, ids(30000005, 30000006, 30000007, 30000008), got)
	assert.Contains(t, codes(warns), WarnBoundary)
	all, _ := chainIDs(t, f, "", true)
	assert.Equal(t, ids(30000001, 30000002, 30000003, 30000004, 30000005, 30000006, 30000007, 30000008), all)
	turns, _, err := f.Chain("", true)
	require.NoError(t, err)
	assert.True(t, turns[0].PreCompaction)
	assert.False(t, turns[5].PreCompaction)
	assert.Equal(t, id(30000004), turns[4].LogicalParentUUID)
	assert.True(t, turns[5].IsCompactSummary)

	cs, _, err := f.Compactions("")
	require.NoError(t, err)
	require.Len(t, cs, 1)
	c := cs[0]
	assert.Equal(t, "auto", c.Trigger)
	assert.EqualValues(t, 155000, c.PreTokens)
	assert.Equal(t, 4, c.Hidden.Count)
	assert.Equal(t, id(30000001), c.Hidden.FirstUUID)
	assert.Equal(t, id(30000004), c.Hidden.LastUUID)
	assert.Equal(t, 3, c.Kept.Count)
	assert.Equal(t, id(30000006), c.SummaryUUID)
	assert.Contains(t, c.Summary, "cart module was split")
	assert.Nil(t, c.Preserved)
	// a boundary after a last-prompt wipes the recorded leaf; the later
	// last-prompt records the new one
	assert.Equal(t, "last-prompt", f.LeafModes().Source)
}

func TestCompactPreservedSegment(t *testing.T) {
	f := open(t, "compact-preserved.jsonl")
	got, warns := chainIDs(t, f, "", false)
	// boundary -> summary (anchor) -> preserved head..tail -> later messages
	assert.Equal(t, ids(40000007, 40000008, 40000005, 40000006, 40000009, 40000010), got)
	assert.Contains(t, codes(warns), WarnRelinked)
	cs, _, err := f.Compactions("")
	require.NoError(t, err)
	require.Len(t, cs, 1)
	require.NotNil(t, cs[0].Preserved)
	assert.True(t, cs[0].Preserved.Relinked)
	assert.Equal(t, 2, cs[0].Preserved.Range.Count)
	assert.Equal(t, 4, cs[0].Hidden.Count, "records 1-4 are hidden, 5-6 preserved")
	assert.Equal(t, "manual", cs[0].Trigger)
	// whole history, file graph
	all, _ := chainIDs(t, f, "", true)
	assert.Equal(t, ids(40000001, 40000002, 40000003, 40000004, 40000005, 40000006, 40000007, 40000008, 40000009, 40000010), all)
}

func TestRewindFork(t *testing.T) {
	f := open(t, "rewind.jsonl")
	got, _ := chainIDs(t, f, "", false)
	assert.Equal(t, ids(50000001, 50000002, 50000005, 50000006), got)
	old, _ := chainIDs(t, f, id(50000004), false)
	assert.Equal(t, ids(50000001, 50000002, 50000003, 50000004), old)
	tr, err := f.Tree("")
	require.NoError(t, err)
	assert.Equal(t, ForkRewind, tr.Nodes[1].Fork)
	assert.Equal(t, 5, tr.Leaf)
	assert.False(t, f.LeafModes().Disagree)
}

func TestAPIErrorLateFlush(t *testing.T) {
	f := open(t, "api-error-late.jsonl")
	lm := f.LeafModes()
	assert.True(t, lm.Disagree)
	assert.Equal(t, id(60000004), lm.Modes[LeafLastPrompt])
	assert.Equal(t, id(60000004), lm.Modes[LeafPicker])
	assert.Equal(t, id(60000005), lm.Modes[LeafResume], "the late api_error has the newest timestamp")
	assert.Equal(t, id(60000003), lm.Modes[LeafFileOrder], "the last line climbs to the prompt")
	assert.Contains(t, codes(f.Problems()), ProbLeafDisagree)
	lost, _ := chainIDs(t, f, lm.Modes[LeafResume], false)
	assert.Equal(t, ids(60000001, 60000002, 60000003, 60000005), lost)
	tr, err := f.Tree(LeafResume)
	require.NoError(t, err)
	assert.Equal(t, ForkRetryAPIError, tr.Nodes[2].Fork)
	assert.Equal(t, 4, tr.Leaf)
	assert.True(t, strings.HasPrefix(lm.Summary(), "leaf modes disagree:"))
}

func TestDamagedLines(t *testing.T) {
	for _, tc := range []struct {
		file, code string
		line       int
	}{
		{"torn-tail.jsonl", ProbTornTail, 4},
		{"nul-run.jsonl", ProbNULRun, 3},
		{"bom.jsonl", ProbBOM, 1},
		{"malformed-middle.jsonl", ProbMalformed, 2},
	} {
		t.Run(tc.file, func(t *testing.T) {
			f := open(t, tc.file)
			ps := f.Problems()
			require.Len(t, ps, 1)
			assert.Equal(t, tc.code, ps[0].Code)
			assert.Equal(t, tc.line, ps[0].Line)
			got, _ := chainIDs(t, f, "", false)
			assert.Equal(t, ids(70000001, 70000002, 70000003), got)
		})
	}
}

func TestDuplicateUUID(t *testing.T) {
	f := open(t, "duplicate-uuid.jsonl")
	assert.Equal(t, []string{ProbDuplicateUUID}, codes(f.Problems()))
	turns, _, err := f.Chain("", false)
	require.NoError(t, err)
	require.Len(t, turns, 4)
	assert.Equal(t, "Final plan (rewritten).", turns[1].Blocks[0].Text, "later value wins")
	tr, err := f.Tree("")
	require.NoError(t, err)
	assert.Equal(t, []string{id(80000002)}, tr.Duplicates)
	assert.Equal(t, id(80000002), tr.Nodes[1].ID, "first position kept")
	assert.Equal(t, 4, tr.Nodes[1].Line)
}

func TestSelfParentAndCycle(t *testing.T) {
	f := open(t, "self-parent.jsonl")
	assert.Contains(t, codes(f.Problems()), ProbSelfParent)
	got, warns := chainIDs(t, f, "", false)
	// the loader's 5 s repair re-attaches the self-parent to the record before it
	assert.Equal(t, ids(90000001, 90000002, 90000003, 90000004), got)
	assert.Contains(t, codes(warns), WarnParentRepaired)
	tr, err := f.Tree("")
	require.NoError(t, err)
	assert.Equal(t, []int{2}, tr.SelfParents)

	c := open(t, "cycle.jsonl")
	assert.Contains(t, codes(c.Problems()), ProbCycle)
	ct, err := c.Tree("")
	require.NoError(t, err)
	require.Len(t, ct.Cycles, 1)
	assert.Equal(t, []int{2, 3, 4}, ct.Cycles[0])
	_, warns = chainIDs(t, c, "", false)
	assert.NotEmpty(t, warns)
}

func TestMetadataLastWins(t *testing.T) {
	f := open(t, "metadata.jsonl")
	assert.Equal(t, "Linter setup (final)", f.Meta.CustomTitle)
	assert.Equal(t, "Configure golangci-lint", f.Meta.AITitle)
	assert.Equal(t, "Run it", f.Meta.LastPrompt)
	assert.Equal(t, "tooling", f.Meta.Tag)
	assert.Equal(t, 2, f.Meta.Counts["custom-title"])
	assert.Equal(t, 1, f.Meta.Counts["future-entry-kind"], "unknown types pass through")
	assert.Equal(t, 1, f.TypeCounts()["queue-operation"])
	assert.Equal(t, 6, f.Messages())
	leaf, err := f.Leaf(LeafLastPrompt)
	require.NoError(t, err)
	assert.Equal(t, id(11000006), leaf)
	// raw line access is byte for byte
	raw, err := f.RawLine(11)
	require.NoError(t, err)
	assert.Contains(t, string(raw), `"type":"future-entry-kind"`)

	info, err := ListInfo(filepath.Join(shapes, "metadata.jsonl"))
	require.NoError(t, err)
	assert.Equal(t, "Linter setup (final)", info.Title)
	assert.Equal(t, TitleCustom, info.TitleSource)
	assert.Equal(t, "Set up the linter config", info.FirstPrompt, "meta, XML-like and interruption prompts are skipped")
	assert.Equal(t, "Run it", info.LastPrompt)
	assert.Equal(t, 6, info.Messages)
	assert.True(t, info.CountsExact)
}

func TestLeafModeParse(t *testing.T) {
	for _, m := range AllLeafModes {
		got, err := ParseLeafMode(string(m))
		require.NoError(t, err)
		assert.Equal(t, m, got)
	}
	_, err := ParseLeafMode("newest")
	assert.Error(t, err)
	f := open(t, "rewind.jsonl")
	_, err = f.Leaf("bogus")
	assert.Error(t, err)
	// a unique uuid prefix selects a leaf
	got, _ := chainIDs(t, f, "50000004", false)
	assert.Equal(t, id(50000004), got[len(got)-1])
	_, _, err = f.Chain("ffff", false)
	assert.Error(t, err)
}

func TestRawPathLines(t *testing.T) {
	f := open(t, "compact.jsonl")
	p, err := f.Walk("", false)
	require.NoError(t, err)
	assert.Equal(t, []int{6, 7, 8, 9}, p.Lines(f))
	want, err := os.ReadFile(filepath.Join(shapes, "compact.jsonl"))
	require.NoError(t, err)
	lines := strings.Split(string(want), "\n")
	for _, ln := range p.Lines(f) {
		raw, err := f.RawLine(ln)
		require.NoError(t, err)
		assert.Equal(t, lines[ln-1], string(raw))
	}
}

func TestLastPromptRules(t *testing.T) {
	base := `{"parentUuid":null,"type":"user","message":{"role":"user","content":"a"},"uuid":"u1","timestamp":"2025-01-01T00:00:01.000Z"}
{"parentUuid":"u1","type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"b"}]},"uuid":"a1","timestamp":"2025-01-01T00:00:02.000Z"}
{"parentUuid":"a1","type":"user","message":{"role":"user","content":"c"},"uuid":"u2","timestamp":"2025-01-01T00:00:03.000Z"}
{"parentUuid":"a1","type":"user","message":{"role":"user","content":"d"},"uuid":"u3","timestamp":"2025-01-01T00:00:09.000Z"}
`
	for _, tc := range []struct {
		name, extra, leaf, src string
	}{
		{"no last-prompt: file-order tail", "", "u3", "tail"},
		{"recorded leaf wins over newer tail branch", `{"type":"last-prompt","leafUuid":"u2"}` + "\n", "u2", "last-prompt"},
		{"recorded ancestor of tail advances", `{"type":"last-prompt","leafUuid":"a1"}` + "\n", "u3", "advanced"},
		// Claude Code 2.1.330 advances an explicit recorded ancestor too (parity case lp-ancestor-explicit)
		{"explicit ancestor advances", `{"type":"last-prompt","leafUuid":"a1","explicit":true}` + "\n", "u3", "advanced"},
		{"absent leaf falls back to tail", `{"type":"last-prompt","leafUuid":"zz"}` + "\n", "u3", "leaf-absent"},
		// a final explicit null with no record after it: an empty conversation (parity case lp-explicit-null-end)
		{"explicit null at the end: empty", `{"type":"last-prompt","leafUuid":"u2"}` + "\n" + `{"type":"last-prompt","explicit":true}` + "\n", "", "cleared-empty"},
		{"explicit null then a record: newest by timestamp", `{"type":"last-prompt","leafUuid":"u2"}` + "\n" + `{"type":"last-prompt","explicit":true}` + "\n" +
			`{"parentUuid":"u1","type":"user","message":{"role":"user","content":"x"},"uuid":"u5","timestamp":"2025-01-01T00:00:05.000Z"}` + "\n", "u3", "cleared"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := Read(strings.NewReader(base+tc.extra), -1)
			require.NoError(t, err)
			nd, src := f.leafNode(LeafLastPrompt)
			got := ""
			if nd >= 0 {
				got = f.uuidOf(nd)
			}
			assert.Equal(t, tc.leaf, got)
			assert.Equal(t, tc.src, src)
		})
	}
	// a compact boundary after the last-prompt wipes it
	f, err := Read(strings.NewReader(base+`{"type":"last-prompt","leafUuid":"u2"}`+"\n"+
		`{"parentUuid":null,"logicalParentUuid":"u3","type":"system","subtype":"compact_boundary","uuid":"b1","timestamp":"2025-01-01T00:00:10.000Z"}`+"\n"+
		`{"parentUuid":"b1","type":"user","message":{"role":"user","content":"e"},"uuid":"u4","timestamp":"2025-01-01T00:00:11.000Z"}`+"\n"), -1)
	require.NoError(t, err)
	nd, src := f.leafNode(LeafLastPrompt)
	assert.Equal(t, "u4", f.uuidOf(nd))
	assert.Equal(t, "tail", src)
}

func TestParentRepairWindow(t *testing.T) {
	// u2 names a parent that is not in the file; a1 is 2 s earlier, so the
	// loader re-attaches; u9 is 60 s later and names a missing parent: cut
	in := `{"parentUuid":null,"type":"user","message":{"role":"user","content":"a"},"uuid":"u1","timestamp":"2025-01-01T00:00:01.000Z"}
{"parentUuid":"u1","type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"b"}]},"uuid":"a1","timestamp":"2025-01-01T00:00:02.000Z"}
{"parentUuid":"gone","type":"user","message":{"role":"user","content":"c"},"uuid":"u2","timestamp":"2025-01-01T00:00:04.000Z"}
{"parentUuid":"gone2","type":"user","message":{"role":"user","content":"d"},"uuid":"u9","timestamp":"2025-01-01T00:01:04.000Z"}
`
	f, err := Read(strings.NewReader(in), -1)
	require.NoError(t, err)
	assert.Equal(t, []string{ProbDanglingParent, ProbDanglingParent, ProbLeafDisagree}[:2], codes(f.problems))
	p, err := f.Walk("u2", false)
	require.NoError(t, err)
	assert.Equal(t, []string{"u1", "a1", "u2"}, p.UUIDs(f))
	p, err = f.Walk("u9", false)
	require.NoError(t, err)
	assert.Equal(t, []string{"u9"}, p.UUIDs(f))
	assert.Equal(t, WarnChainCut, p.Warnings[0].Code)
}

func TestTimestamps(t *testing.T) {
	for _, s := range []string{"2025-09-03T00:52:31.217Z", "2024-02-29T23:59:59.999Z", "1970-01-01T00:00:00.000Z", "2025-09-03T00:52:31Z", "2025-09-03T02:52:31.217+02:00"} {
		want, err := parseTime(s)
		require.NoError(t, err)
		assert.Equal(t, want.UnixMilli(), parseTS([]byte(s)), s)
	}
	assert.Equal(t, int64(noTS), parseTS([]byte("yesterday")))
	assert.Equal(t, int64(noTS), parseTS([]byte("2025-13-03T00:52:31.217Z")))
}

func TestPrecompactSkipOver5MB(t *testing.T) {
	// a late-flushed record before the boundary would win the resume leaf,
	// but files over 5 MB never parse anything before the last boundary
	in := `{"parentUuid":null,"type":"user","message":{"role":"user","content":"a"},"uuid":"u1","timestamp":"2025-01-01T00:00:01.000Z"}
{"parentUuid":"u1","type":"system","subtype":"api_error","uuid":"e1","timestamp":"2025-01-01T09:00:00.000Z"}
{"parentUuid":null,"logicalParentUuid":"u1","type":"system","subtype":"compact_boundary","uuid":"b1","timestamp":"2025-01-01T00:00:10.000Z"}
{"parentUuid":"b1","type":"user","message":{"role":"user","content":"e"},"uuid":"u4","timestamp":"2025-01-01T00:00:11.000Z"}
`
	small, err := Read(strings.NewReader(in), int64(len(in)))
	require.NoError(t, err)
	leaf, err := small.Leaf(LeafResume)
	require.NoError(t, err)
	assert.Equal(t, "e1", leaf)
	big, err := Read(strings.NewReader(in), 6<<20)
	require.NoError(t, err)
	leaf, err = big.Leaf(LeafResume)
	require.NoError(t, err)
	assert.Equal(t, "u4", leaf)
	p, err := big.Walk("", false)
	require.NoError(t, err)
	assert.Equal(t, WarnPrecompactSkip, p.Warnings[0].Code)
	assert.Contains(t, p.Warnings[0].Msg, "2 records")
	// the whole history still reaches them
	p, err = big.Walk("", true)
	require.NoError(t, err)
	assert.Equal(t, []string{"u1", "b1", "u4"}, p.UUIDs(big))
}

func TestPathProblemsToolPairing(t *testing.T) {
	in := `{"parentUuid":null,"type":"user","message":{"role":"user","content":"a"},"uuid":"u1","timestamp":"2025-01-01T00:00:01.000Z"}
{"parentUuid":"u1","type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{}}]},"uuid":"a1","timestamp":"2025-01-01T00:00:02.000Z"}
{"parentUuid":"a1","type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t2","name":"Bash","input":{}}]},"uuid":"a2","timestamp":"2025-01-01T00:00:03.000Z"}
{"parentUuid":"a2","type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t2","content":"ok"}]},"uuid":"r2","timestamp":"2025-01-01T00:00:04.000Z"}
{"parentUuid":"r2","type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t9","content":"?"}]},"uuid":"r9","timestamp":"2025-01-01T00:00:05.000Z"}
`
	f, err := Read(strings.NewReader(in), -1)
	require.NoError(t, err)
	ps, err := f.PathProblems()
	require.NoError(t, err)
	require.Len(t, ps, 2)
	assert.Equal(t, ProbUnpairedToolUse, ps[0].Code)
	assert.Equal(t, 2, ps[0].Line)
	assert.Contains(t, ps[0].Msg, "t1")
	assert.Equal(t, ProbOrphanResult, ps[1].Code)
	assert.Equal(t, 5, ps[1].Line)
	for _, p := range ToProblems(ps) {
		assert.NotEmpty(t, p.Fix)
		assert.Equal(t, "warning", string(p.Severity))
	}
}

func TestPreviewHead(t *testing.T) {
	assert.Equal(t, "abc", head([]byte("  abc\ndef"), 10))
	assert.Equal(t, "abcde", head([]byte("abcde"), 5))
	assert.Equal(t, "abcd…", head([]byte("abcdef"), 5))
	assert.Equal(t, "ééé…", head([]byte("éééééé"), 4))
	assert.Equal(t, "", head([]byte(" \n "), 4))
	f := open(t, "split-parallel.jsonl")
	assert.Equal(t, `→ Bash {"command":"ls"}`, f.Preview(4, 80))
	assert.Equal(t, "← go.mod", f.Preview(6, 80))
	assert.Equal(t, "(thinking)", f.Preview(2, 80))
	assert.Equal(t, "List the files…", f.Preview(1, 15))
	assert.Equal(t, "", f.Preview(99, 80))
}
