package repair

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sessctl/sessctl/internal/format/pi"
)

// TestCloseToolCallsSkipsDroppedTurns: --close-tool-calls closes only the
// calls check reports: a call on an assistant message that stopped with an
// error or was aborted needs no result (pi-ai leaves the message out of
// the context), so only call_open gets one.
func TestCloseToolCallsSkipsDroppedTurns(t *testing.T) {
	src, err := os.ReadFile("../format/pi/testdata/droppedcalls/aborted-tool-calls.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(path, src, 0o600); err != nil {
		t.Fatal(err)
	}
	res, err := Pi(path, Options{CloseToolCalls: true, DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	var closed []string
	for _, f := range res.Fixes {
		if f.Code == pi.CodeToolCallNoResult {
			closed = append(closed, f.Detail)
		}
	}
	if len(closed) != 1 || closed[0] != "appended an error result for tool call call_open (edit)" {
		t.Errorf("closed %q, want only call_open", closed)
	}
}

// TestHeaderParentNotRelinked: entries whose parentId is the session
// header's id (OpenClaw) are roots, not orphans: repair leaves them and
// re-links only the entry whose parent is really missing.
func TestHeaderParentNotRelinked(t *testing.T) {
	src, err := os.ReadFile("../format/pi/testdata/headerparent/openclaw-style.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(path, src, 0o600); err != nil {
		t.Fatal(err)
	}
	res, err := Pi(path, Options{DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Fixes) != 1 || res.Fixes[0].ID != "m3" {
		t.Errorf("fixes %+v, want one re-link of m3", res.Fixes)
	}
}
