package pi

import "testing"

// TestToolCallsOnDroppedTurns: tool calls on an assistant message that
// stopped with an error or was aborted have no result, and need none:
// pi-ai's message transform leaves such messages out of the context it
// sends (field corpus: pi-mono's large-session.jsonl). Only the call on a
// normal turn is reported.
func TestToolCallsOnDroppedTurns(t *testing.T) {
	f, err := Open("testdata/droppedcalls/aborted-tool-calls.jsonl", Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range f.Check(CheckOptions{}) {
		if p.Code == CodeToolCallNoResult {
			got = append(got, p.ID)
		}
	}
	if len(got) != 1 || got[0] != "call_open" {
		t.Errorf("tool-call-without-result on %v, want only call_open", got)
	}
}
