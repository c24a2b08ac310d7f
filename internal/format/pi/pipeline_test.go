package pi

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Message lines whose id, parent id or role take reads in every way it
// can (plain strings, escapes, empty strings, null, false, numbers,
// objects, absent members, a message that is not an object) are indexed
// the same by the parallel pass's digest (msgDigest, takeMessage) and by
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
