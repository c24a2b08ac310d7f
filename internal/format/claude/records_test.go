package claude

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const recordsShape = "../../../testdata/claude/shapes/records-2.1.330.jsonl"

// TestRecords2130 opens a transcript holding every record type Claude Code
// 2.1.330 writes: no problem, no unknown type, every chain record in the
// tree and on the whole-history path, the links read.
func TestRecords2130(t *testing.T) {
	f, err := Open(recordsShape)
	require.NoError(t, err)
	defer f.Close()
	assert.Empty(t, f.Problems(), "check must find nothing")
	assert.Empty(t, f.UnknownTypes())
	for typ := range f.TypeCounts() {
		assert.True(t, Known(typ), typ)
	}
	for typ := range RecordTypes {
		if typ == "task-summary" || typ == "speculation-accept" || typ == "marble-origami-commit" || typ == "marble-origami-snapshot" ||
			typ == "progress" || typ == "summary" {
			continue // older writers only
		}
		assert.Contains(t, f.TypeCounts(), typ, "the fixture lacks a 2.1.330 record type")
	}
	assert.Equal(t, "12121212-0000-4000-8000-000000002131", f.ContinuedIn())
	assert.Equal(t, "/home/dev/shop/api", f.RelocatedCwd())
	assert.Equal(t, "2.1.330 tour", f.Title())

	tr, err := f.Tree(LeafLastPrompt)
	require.NoError(t, err)
	assert.Len(t, tr.Nodes, f.Messages(), "tree loses a record")

	// the whole history: every chain record once
	p, err := f.Walk("", true)
	require.NoError(t, err)
	assert.Equal(t, f.Messages(), p.Len(), "show --across-compactions loses a record")
	// the loader's path: the preservedMessages relink brings the kept
	// exchange after the summary, then the repeated summary and the rest
	p, err = f.Walk("", false)
	require.NoError(t, err)
	var ids []string
	for _, u := range p.UUIDs(f) {
		ids = append(ids, u[:8])
	}
	assert.Equal(t, []string{"21300009", "21300010", "21300007", "21300008", "21300011", "21300012", "21300013"}, ids)

	info, err := ListInfo(recordsShape)
	require.NoError(t, err)
	assert.Equal(t, "12121212-0000-4000-8000-000000002131", info.ContinuedIn)
	assert.Equal(t, "/home/dev/shop/api", info.RelocatedCwd)
}

// TestSideFiles: a leftover compaction temp file is reported, superseded
// copies are found, and none of the side files is taken for a transcript.
func TestSideFiles(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile(recordsShape)
	require.NoError(t, err)
	p := filepath.Join(dir, "12121212-0000-4000-8000-000000002130.jsonl")
	require.NoError(t, os.WriteFile(p, src, 0o600))
	f, err := Open(p)
	require.NoError(t, err)
	assert.Empty(t, f.Problems())
	f.Close()
	require.NoError(t, os.WriteFile(p+".compact.tmp.0a1b2c3d", src[:100], 0o600))
	require.NoError(t, os.WriteFile(p+".superseded-1790000000000", src, 0o600))
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "12121212-0000-4000-8000-000000002130"), 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "12121212-0000-4000-8000-000000002130", ResumeHeadFile), src, 0o600))
	f, err = Open(p)
	require.NoError(t, err)
	defer f.Close()
	assert.Equal(t, []string{ProbCompactTemp}, codes(f.Problems()))
	assert.Equal(t, []string{p + ".superseded-1790000000000"}, SupersededFiles(p))
	for _, n := range []string{"x.jsonl.compact.tmp.0a1b2c3d", "x.jsonl.superseded-1790000000000", ResumeHeadFile} {
		assert.True(t, IsSideFile(n), n)
	}
	assert.False(t, IsSideFile("12121212-0000-4000-8000-000000002130.jsonl"))
	subs, err := FindSubagents(p)
	require.NoError(t, err)
	assert.Empty(t, subs, "resume-head.jsonl is not a subagent")
}
