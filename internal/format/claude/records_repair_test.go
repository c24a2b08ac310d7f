package claude_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sessctl/sessctl/internal/repair"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRecords2130Repair: repair plans nothing on the transcript of every
// 2.1.330 record type and leaves it byte for byte.
func TestRecords2130Repair(t *testing.T) {
	src, err := os.ReadFile("../../../testdata/claude/shapes/records-2.1.330.jsonl")
	require.NoError(t, err)
	p := filepath.Join(t.TempDir(), "12121212-0000-4000-8000-000000002130.jsonl")
	require.NoError(t, os.WriteFile(p, src, 0o600))
	res, err := repair.Claude(p, repair.Options{DryRun: true})
	require.NoError(t, err)
	assert.Empty(t, res.Fixes)
	res, err = repair.Claude(p, repair.Options{NoBackup: true})
	require.NoError(t, err)
	assert.False(t, res.Changed)
	got, err := os.ReadFile(p)
	require.NoError(t, err)
	assert.Equal(t, string(src), string(got))
}
