package pi

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// Message lines whose id, parent id or role take reads in every way it
// can (plain strings, escapes, empty strings, null, false, numbers,
// objects, absent members, a message that is not an object) are indexed
// the same by the parallel pass's digest (idHashes.digest, takeMessage) and by
// take on the serial pass.
func TestMessageDigestSameAsTake(t *testing.T) {
	ids := []string{`"a1"`, `"a\u0031"`, `""`, `null`, `7`, `{"x":1}`, ``}
	parents := []string{`"a1"`, `"p\"q"`, `""`, `null`, `false`, `0`, `1`, `true`, `"zz"`, ``}
	roles := []string{`"user"`, `"assistant"`, `"us\u0065r"`, `""`, `3`, `null`, ``}
	var b strings.Builder
	b.WriteString(`{"type":"session","version":3,"id":"s","timestamp":"t","cwd":"/"}` + "\n")
	n := 0
	for _, id := range ids {
		for _, p := range parents {
			for _, r := range roles {
				var m []string
				if id != "" {
					m = append(m, `"id":`+id)
				}
				if p != "" {
					m = append(m, `"parentId":`+p)
				}
				msg := `{"content":"x"}`
				if r != "" {
					msg = `{"role":` + r + `,"content":"x"}`
				}
				if n%11 == 5 {
					msg = `"not an object"`
				}
				m = append(m, `"message":`+msg)
				b.WriteString(`{"type":"message",` + strings.Join(m, ",") + "}\n")
				n++
			}
		}
	}
	b.WriteString(`{"type":"message","id":"last","parentId":"a1","message":{"role":"user"}}`) // no newline
	p := filepath.Join(t.TempDir(), "digest.jsonl")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	defer func() { serialIndex, indexChunkSize = false, 0 }()
	serialIndex = true
	a, err := Open(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Entries) != n+1 {
		t.Fatalf("%d entries, want %d", len(a.Entries), n+1)
	}
	serialIndex = false
	for _, chunk := range []int{0, 64, 300} {
		indexChunkSize = chunk
		c, err := Open(p, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if sa, sc := indexSummary(a), indexSummary(c); sa != sc {
			t.Fatalf("chunk %d: serial and parallel index differ:\nserial:\n%s\nparallel:\n%s", chunk, sa, sc)
		}
	}
}

// FuzzParallelIndex holds the parallel index pass (workers' digests,
// takeMessage, Touch) equal to the serial one on arbitrary lines after a
// session header: entries, ids, parents, problems, labels.
func FuzzParallelIndex(f *testing.F) {
	f.Add([]byte(`{"type":"message","id":"a","parentId":null,"message":{"role":"user"}}
{"type":"message","id":"b","parentId":"a","message":{"role":"assistant"}}
{"type":"message","id":"a","parentId":"b","message":{"role":"us\u0065r"}}
{"type":"label","id":"l","targetId":"a","label":"x"}
{"type":"message","id":7,"parentId":"a","message":"no"}`))
	f.Add([]byte("{\"type\":\"message\",\"id\":\"\",\"parentId\":\"\",\"message\":{}}\r\n\n[1]\n{\"type\":\"message\""))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(dir, "f.jsonl")
		in := append([]byte(`{"type":"session","version":3,"id":"s","timestamp":"t","cwd":"/"}`+"\n"), data...)
		if err := os.WriteFile(p, in, 0o644); err != nil {
			t.Fatal(err)
		}
		defer func() { serialIndex, indexChunkSize = false, 0 }()
		serialIndex = true
		a, errA := Open(p, Options{})
		serialIndex = false
		for _, chunk := range []int{0, 64} {
			indexChunkSize = chunk
			b, errB := Open(p, Options{})
			if (errA == nil) != (errB == nil) {
				t.Fatalf("serial error %v, parallel error %v", errA, errB)
			}
			if errA != nil {
				return
			}
			if sa, sb := indexSummary(a), indexSummary(b); sa != sb {
				t.Fatalf("chunk %d: serial and parallel index differ:\nserial:\n%s\nparallel:\n%s", chunk, sa, sb)
			}
		}
	})
}

// TestCapturesLeftOutBeforeHeader: plain message lines whose captures the
// workers leave out (needsNoCaptures) before the file's header is read
// (no header, a header behind a byte order mark, a title slot, blank and
// bad lines first) are indexed, checked and listed as the serial pass and
// the listing scan do: the merge scans them again (restoreCaptures).
func TestCapturesLeftOutBeforeHeader(t *testing.T) {
	msg := func(id, parent, role string) string {
		return `{"type":"message","id":"` + id + `","parentId":"` + parent + `","timestamp":"2026-01-02T03:04:05Z","message":{"role":"` + role + `","content":[{"type":"toolCall","id":"c` + id + `","name":"bash"}],"timestamp":1700000000000}}` + "\n"
	}
	header := `{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00Z","cwd":"/"}` + "\n"
	body := msg("a", "s", "assistant") + msg("b", "a", "assistant") + msg("c", "b", "toolResult")
	heads := map[string]string{
		"no header":    body,
		"bom header":   "\ufeff" + header + body,
		"title slot":   `{"type":"title","title":"t"}` + "\n" + body,
		"blank, bad":   "\n  \n{\"type\":\n" + body,
		"message then": body + header + body,
		// after the header: message timestamps the listing must read
		// (not a number, or none), for each role, so those lines keep
		// their captures (needsNoCaptures)
		"odd timestamps": header + strings.ReplaceAll(body, `"timestamp":1700000000000`, `"timestamp":"2026-01-02T03:04:06Z"`) +
			strings.ReplaceAll(msg("d", "c", "assistant"), `,"timestamp":1700000000000`, "") +
			strings.ReplaceAll(msg("e", "d", "user"), `,"timestamp":1700000000000`, `,"timestamp":null`) +
			msg("f", "e", "toolResult"),
	}
	defer func() { serialIndex, indexChunkSize = false, 0 }()
	for name, content := range heads {
		p := filepath.Join(t.TempDir(), "f.jsonl")
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		serialIndex = true
		a, err := Open(p, Options{Check: true})
		if err != nil {
			t.Fatal(err)
		}
		serialIndex = false
		fh, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		want, err := ScanListInfo(fh, p)
		fh.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, chunk := range []int{0, 64} {
			indexChunkSize = chunk
			b, err := Open(p, Options{Check: true, List: true})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if sa, sb := indexSummary(a), indexSummary(b); sa != sb {
				t.Fatalf("%s (chunk %d): serial and parallel index differ:\nserial:\n%s\nparallel:\n%s", name, chunk, sa, sb)
			}
			if ca, cb := fmt.Sprint(a.Check(CheckOptions{})), fmt.Sprint(b.Check(CheckOptions{})); ca != cb {
				t.Fatalf("%s (chunk %d): check differs:\nserial:   %s\nparallel: %s", name, chunk, ca, cb)
			}
			if got := b.listInfo; got != nil {
				cp := *got
				cp.line1 = nil
				if !reflect.DeepEqual(want, &cp) {
					t.Fatalf("%s (chunk %d): listing differs:\nscan: %+v\npass: %+v", name, chunk, want, &cp)
				}
			}
		}
	}
}
