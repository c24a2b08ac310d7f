package pi

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// FuzzListFromIndexPass: on arbitrary lines (after a session header or
// not), the parallel pass that lists and checks at once (Options{List,
// Check}: inspect on the workers, the merge's listLine, takeMessage and
// factCollector) gives the listing ScanListInfo gives, when it gives one,
// the index the serial pass gives, and the problems Check finds reading the
// path's lines back after a serial index; with chunks of 64 bytes (lines
// longer than a chunk are streamed), 300 and the default.
func FuzzListFromIndexPass(f *testing.F) {
	head := `{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00Z","cwd":"/"}` + "\n"
	f.Add([]byte(head+`{"type":"message","id":"a","parentId":"s","timestamp":"2026-01-02T00:00:00Z","message":{"role":"user","content":"hi","timestamp":1700000000000}}
{"type":"message","id":"b","parentId":"a","message":{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"bash"}],"stopReason":"toolUse","timestamp":1700000000001}}
{"type":"message","id":"c","parentId":"b","message":{"role":"toolResult","toolCallId":"c1","content":[{"type":"text","text":"ok"}],"timestamp":1700000000002}}
{"type":"message","id":"d","parentId":"zz","message":{"role":"assistant","content":{"x":1},"timestamp":"2026-01-03T00:00:00Z"}}
{"type":"compaction","id":"e","parentId":"d","firstKeptEntryId":"b"}
{"type":"session_info","id":"f","parentId":"e","name":" n "}
`), true)
	f.Add([]byte(head+`{"type":"m\u0065ssage","id":"a\u0031","parentId":"a1","message":{"role":"us\u0065r","content":[{"type":"text","text":"x"}]}}
{"type":"message","id":"a1","parentId":1,"message":{"role":"assistant","content":null,"timestamp":-1.5e3}}
{"type":"message","id":7,"parentId":true,"message":"no"}
{"type":"message","id":"q","parentId":"","message":[{"role":"user"}]}
{"type":"message","id":"r","parentId":null,"message":{"role":"toolResult","toolCallId":"c\"2"}}
[1]
{"type":"message"
`), true)
	f.Add([]byte(`{"type":"message","id":"a","parentId":null,"message":{"role":"assistant","content":[],"timestamp":1}}`+"\n"+head+
		`{"type":"message","id":"b","parentId":"a","message":{"role":"assistant","content":[],"timestamp":2}}`), false)
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte, header bool) {
		if header {
			data = append([]byte(head), data...)
		}
		p := filepath.Join(dir, "f.jsonl")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		want, err := ScanListInfo(bytes.NewReader(data), p)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { serialIndex, indexChunkSize = false, 0 }()
		serialIndex = true
		a, errA := Open(p, Options{})
		serialIndex = false
		var wantProblems any
		if errA == nil {
			wantProblems = a.Check(CheckOptions{})
		}
		for _, chunk := range []int{0, 64, 300} {
			indexChunkSize = chunk
			b, errB := Open(p, Options{List: true, Check: true})
			if (errA == nil) != (errB == nil) {
				t.Fatalf("chunk %d: serial error %v, parallel error %v", chunk, errA, errB)
			}
			if errB != nil {
				return
			}
			if sa, sb := indexSummary(a), indexSummary(b); sa != sb {
				t.Fatalf("chunk %d: serial and parallel index differ:\nserial:\n%s\nparallel:\n%s", chunk, sa, sb)
			}
			if got := b.listInfo; got != nil {
				cp := *got
				cp.line1 = nil
				if !reflect.DeepEqual(want, &cp) {
					t.Fatalf("chunk %d: listing differs:\nscan: %+v\npass: %+v", chunk, want, &cp)
				}
			}
			if got := b.Check(CheckOptions{}); !reflect.DeepEqual(wantProblems, got) {
				t.Fatalf("chunk %d: problems differ:\nlines: %+v\nfacts: %+v", chunk, wantProblems, got)
			}
		}
	})
}
