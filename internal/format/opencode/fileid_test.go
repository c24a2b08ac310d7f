package opencode

import (
	"testing"
)

// TestJSONStoreFileIDDiffers: a JSON-store session whose file is
// ses_s_plain.json but whose id inside is "s_plain" (no ses_ prefix), with
// its messages filed under message/s_plain/ and its parts under the
// message's inner id (field corpus: agent-sessions' stage0 fixtures,
// issue 15 finding 3). Both ids open it, its message and part are read,
// and check reports no orphans.
func TestJSONStoreFileIDDiffers(t *testing.T) {
	st, err := Open("testdata/jsonstore-fileid/storage")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, id := range []string{"ses_s_plain", "s_plain"} {
		tr, err := st.Load(id)
		if err != nil {
			t.Fatalf("Load(%q): %v", id, err)
		}
		if tr.Session.ID != "ses_s_plain" || tr.Session.FileID != "s_plain" {
			t.Errorf("Load(%q): session %q (file id %q), want ses_s_plain (s_plain)", id, tr.Session.ID, tr.Session.FileID)
		}
		if len(tr.Messages) != 1 || len(tr.Messages[0].Parts) != 1 {
			t.Fatalf("Load(%q): %d messages, want 1 with 1 part", id, len(tr.Messages))
		}
		if got := tr.Messages[0].Parts[0].Text; got != "hello from a hand-made store" {
			t.Errorf("Load(%q): part text %q", id, got)
		}
	}
	all, _ := st.Sessions()
	if len(all) != 1 || all[0].Messages != 1 {
		t.Errorf("Sessions: %+v, want one session with 1 message", all)
	}
	for _, p := range st.Check() {
		t.Errorf("check: %s %s %s", p.Severity, p.Code, p.Message)
	}
}
