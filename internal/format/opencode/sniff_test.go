package opencode

import "testing"

// TestIsExportNeedsInfoID: a Claude Code transcript whose head holds the
// words "info" (a "level":"info" value) and "ses_" (its sessionId) is not
// an `opencode export` file (field corpus: agent-sessions' claude
// small.jsonl was claimed as one and then refused), while an export is.
func TestIsExportNeedsInfoID(t *testing.T) {
	for path, want := range map[string]bool{
		"testdata/sniff/claude-with-info-level.jsonl": false,
		"testdata/sniff/export.json":                  true,
	} {
		if got := IsExport(path); got != want {
			t.Errorf("IsExport(%s) = %v, want %v", path, got, want)
		}
		if _, claimed := (Format{Getenv: func(string) string { return "" }}).Claim(path); claimed != want {
			t.Errorf("Claim(%s) = %v, want %v", path, claimed, want)
		}
	}
}
