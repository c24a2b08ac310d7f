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

// TestCostOfAnotherShape: a message whose cost is an object (written by
// another tool: field corpus, agent-sessions' storage_v2 large session) is
// still read, with cost 0, instead of being skipped.
func TestCostOfAnotherShape(t *testing.T) {
	raw := []byte(`{"id":"m1","sessionID":"s1","role":"assistant","cost":{"input":24,"output":8},"time":{"created":1730000102000}}`)
	m, err := decodeMessage(raw, "", "")
	if err != nil {
		t.Fatalf("decodeMessage: %v", err)
	}
	if m.ID != "m1" || m.Role != "assistant" || m.Cost != 0 {
		t.Errorf("decoded %q %q cost %v, want m1 assistant 0", m.ID, m.Role, m.Cost)
	}
	m, err = decodeMessage([]byte(`{"id":"m2","role":"assistant","cost":0.25}`), "", "")
	if err != nil || m.Cost != 0.25 {
		t.Errorf("numeric cost: %v, %v", m.Cost, err)
	}
}
