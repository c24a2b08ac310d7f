package claude

import (
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// corpusDir is ../shared/corpus/claude-code relative to the repository root.
func corpusDir(t *testing.T) string {
	d := filepath.Join("..", "..", "..", "..", "shared", "corpus", "claude-code")
	if _, err := os.Stat(d); err != nil {
		t.Skip("shared corpus not present")
	}
	return d
}

// TestCorpus opens every public transcript, walks every leaf mode and
// checks that the only problems are the ones these files are known to have.
func TestCorpus(t *testing.T) {
	dir := corpusDir(t)
	expected := map[string][]string{
		// claude-code-log's hand-written edge cases: repeated uuids, a
		// non-object line, and a parent that is not in the file
		"edge_cases.jsonl": {ProbDanglingParent, ProbDuplicateUUID, ProbLeafDisagree, ProbMostOffPath, ProbNonObject},
		// every record a root (no parentUuid): Claude Code resumes 1 message
		// of 11 (of 3 in session_b); a warning says so (issue 15.6)
		"representative_messages.jsonl": {ProbMostOffPath},
		"session_b.jsonl":               {ProbMostOffPath},
		// the real 1.0.98 session carries the summary of the session before it
		// (whose leaf is in 1af7fc5e-….jsonl)
		"fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl": {ProbSummaryElse},
	}
	files, err := filepath.Glob(filepath.Join(dir, "*", "*.jsonl"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, p := range files {
		t.Run(filepath.Base(p), func(t *testing.T) {
			f, err := Open(p)
			require.NoError(t, err)
			defer f.Close()
			got := map[string]bool{}
			for _, pr := range f.Problems() {
				got[pr.Code] = true
			}
			var gc []string
			for c := range got {
				gc = append(gc, c)
			}
			sort.Strings(gc)
			want := expected[filepath.Base(p)]
			if want == nil {
				want = []string{}
			}
			if gc == nil {
				gc = []string{}
			}
			assert.Equal(t, want, gc)
			assert.Greater(t, f.Messages(), 0)
			for _, m := range AllLeafModes {
				leaf, err := f.Leaf(m)
				require.NoError(t, err)
				require.NotEmpty(t, leaf, m)
				turns, _, err := f.Chain(leaf, true)
				require.NoError(t, err)
				require.NotEmpty(t, turns)
				assert.Equal(t, leaf, lastUUID(turns), "the walk ends at the leaf (%s)", m)
			}
			tr, err := f.Tree("")
			require.NoError(t, err)
			assert.Equal(t, f.Messages(), len(tr.Nodes))
			_, err = ListInfo(p)
			require.NoError(t, err)
		})
	}
}

func lastUUID(turns []Turn) string {
	t := turns[len(turns)-1]
	if len(t.UUIDs) > 0 {
		return t.UUIDs[len(t.UUIDs)-1]
	}
	return t.UUID
}

// TestCorpusSplitTurns checks the real 1.0.98 session: assistant lines that
// share message.id merge into one turn, and every tool_use on the path has
// its tool_result on the path.
func TestCorpusSplitTurns(t *testing.T) {
	dir := corpusDir(t)
	f, err := Open(filepath.Join(dir, "sample-project", "fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl"))
	require.NoError(t, err)
	defer f.Close()
	turns, _, err := f.Chain("", false)
	require.NoError(t, err)
	merged := 0
	uses, results := map[string]bool{}, map[string]bool{}
	seenMsg := map[string]int{}
	for _, tu := range turns {
		if len(tu.UUIDs) > 1 {
			merged++
		}
		if tu.MessageID != "" {
			seenMsg[tu.MessageID]++
		}
		for _, b := range tu.Blocks {
			switch b.Type {
			case "tool_use":
				uses[b.ID] = true
			case "tool_result":
				results[b.ToolUseID] = true
			}
		}
	}
	assert.Greater(t, merged, 0)
	for id, n := range seenMsg {
		assert.Equal(t, 1, n, "message %s split over several turns", id)
	}
	for id := range uses {
		assert.True(t, results[id], "tool_use %s has no result on the path", id)
	}
	// the file's summary line (about another session's leaf) titles it, as
	// the SDK's listSessions does with any summary line of the tail
	info, err := ListInfo(filepath.Join(dir, "sample-project", "1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl"))
	require.NoError(t, err)
	if info.Summaries != nil {
		assert.Equal(t, TitleSummary, info.TitleSource)
	}
}
