package pi

import (
	"path/filepath"
	"testing"

	"github.com/sessctl/sessctl/internal/tree"
	"github.com/stretchr/testify/require"
)

// The compaction in effect must account for the rebuilt context exactly:
// one summary message, then the kept messages, then those after it.
func TestCompactViewMatchesContext(t *testing.T) {
	files, _ := filepath.Glob("../../../testdata/pi/parity/sessions/*.jsonl")
	if len(files) == 0 {
		t.Skip("no fixtures")
	}
	checked := 0
	for _, p := range files {
		f, err := Open(p, Options{})
		require.NoError(t, err)
		cv, err := f.CompactView(tree.None)
		require.NoError(t, err)
		if len(cv.Compactions) == 0 {
			continue
		}
		ctx, err := f.BuildContext(tree.None)
		require.NoError(t, err)
		last := cv.Compactions[len(cv.Compactions)-1]
		require.True(t, last.InEffect)
		// Empty branch summaries are counted as messages by the view but the
		// agent drops them; count them to compare exactly.
		empty := 0
		for _, i := range ctx.Path {
			if f.Entries[i].Type() == "branch_summary" {
				lines, _ := f.ReadLines([]int{i})
				if s, _ := summarize(lines[0], "branch_summary"); s == "" {
					empty++
				}
			}
		}
		got := 1 + last.Kept.Messages + last.After.Messages
		require.Equal(t, len(ctx.Messages)+empty, got, "%s: summary + kept + after", filepath.Base(p))
		checked++
	}
	require.Greater(t, checked, 10)
}
