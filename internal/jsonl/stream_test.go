package jsonl

import (
	"bytes"
	"encoding/json"
	"io"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
)

// feedChunks feeds data to s in pieces whose sizes come from seed.
func feedChunks(s *streamScanner, data []byte, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 7))
	for len(data) > 0 {
		n := 1 + rng.IntN(min(len(data), 17))
		if rng.IntN(4) == 0 {
			n = len(data)
		}
		s.Write(data[:n])
		data = data[n:]
	}
}

// FuzzStreamScanner holds the streaming validator equal to Scanner (which
// FuzzScanner holds equal to encoding/json): the same verdict, the same
// object test and the same captures, whatever the pieces it is fed in.
func FuzzStreamScanner(f *testing.F) {
	for _, s := range fuzzSeeds() {
		f.Add(s, uint64(1))
	}
	f.Add([]byte(`{"type":"message","id":"a","message":{"role":"user","id":"m1","role":"assistant"},"id":"b"}`), uint64(2))
	f.Add([]byte(`{"message":[1,2],"parentId":null,"type":7}`), uint64(3))
	f.Add([]byte(`{"a":-0.5e+10,"b":1E3,"c":"\u00e9\ud83d\ude00","d":[true,false,null,{}]}`), uint64(4))
	f.Add([]byte(` {"\u0074ype" : "x\"y", "message" : { "role" : [ 1 , {"role":2} ] } } `), uint64(5))
	f.Add([]byte(`{"id":01}`), uint64(6))
	f.Add([]byte(`[1,]`), uint64(7))
	f.Add([]byte("{\"a\":\"x\ty\"}"), uint64(8))
	f.Add([]byte(`{"message":{"role":"user"},"message":"s"}`), uint64(9))
	f.Add([]byte(`-`), uint64(10))
	f.Add([]byte(`1.e5`), uint64(11))
	f.Add([]byte(`tru`), uint64(12))
	f.Fuzz(func(t *testing.T, data []byte, seed uint64) {
		if maxDepth(data) >= 299 {
			return
		}
		want := NewScanner(fuzzCapture)
		ok := want.Scan(data)
		if bytes.IndexByte(data, '\n') >= 0 {
			// The stream scanner is fed the bytes of one line, without its
			// '\n'; a Scanner rejects a '\n' wherever it is.
			if ok {
				t.Fatalf("%q: Scan took a '\\n' for white space", data)
			}
			return
		}
		got := newStreamScanner(fuzzCapture)
		feedChunks(got, data, seed)
		gotOK := got.Close()
		if gotOK != ok {
			t.Fatalf("%q: stream %v, Scanner %v", data, gotOK, ok)
		}
		if !ok {
			return
		}
		if got.object != want.IsObject() {
			t.Fatalf("%q: stream object %v, Scanner %v", data, got.object, want.IsObject())
		}
		if got.nonWS != !isBlank(data) || got.hasNUL != (bytes.IndexByte(data, 0) >= 0) {
			t.Fatalf("%q: nonWS %v hasNUL %v", data, got.nonWS, got.hasNUL)
		}
		if !got.object {
			return
		}
		for k := range want.Top {
			if k == got.subSlot {
				if got.Top[k] != nil {
					t.Fatalf("%q: the Sub member's raw value was kept", data)
				}
				continue
			}
			if !bytes.Equal(got.Top[k], want.Top[k]) || (got.Top[k] == nil) != (want.Top[k] == nil) {
				t.Fatalf("%q: Top[%s] stream %q, Scanner %q", data, fuzzCapture.Top[k], got.Top[k], want.Top[k])
			}
		}
		for k := range want.Sub {
			if !bytes.Equal(got.Sub[k], want.Sub[k]) || (got.Sub[k] == nil) != (want.Sub[k] == nil) {
				t.Fatalf("%q: Sub[%s] stream %q, Scanner %q", data, fuzzCapture.SubKeys[k], got.Sub[k], want.Sub[k])
			}
		}
	})
}

// FuzzLongLines reads the same input with a long-line limit far below the
// line lengths (every line over 16 bytes streamed) and without one: every
// record has the same kind, offset, size, flags and captures.
func FuzzLongLines(f *testing.F) {
	for _, s := range fuzzSeeds() {
		f.Add(s)
	}
	f.Add([]byte("\xef\xbb\xbf{\"type\":\"session\",\"id\":\"s1\",\"cwd\":\"/xxxxxxxxxxxxxxxxxxxxxxxx\"}\r\n{\"type\":\"message\",\"id\":\"a\",\"message\":{\"role\":\"user\",\"content\":\"" + strings.Repeat("x", 100) + "\"}}\n   \t  \t          \t           \n{\"a\":\"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\"}\n{\"type\":\"message\",\"id\":\"torn-tail-without-a-newline"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if maxDepth(data) >= 299 {
			return
		}
		type rec struct {
			Line                      int
			Offset, Size              int64
			Kind                      Kind
			Newline, BOM, CRLF        bool
			Type, ID, Parent, SubRole string
		}
		read := func(long bool) (out []rec) {
			rd := newReaderSize(bytes.NewReader(data), 16)
			rd.SetCapture(fuzzCapture)
			if long {
				rd.SetLongLines(16)
			}
			for rd.Next() {
				r := rd.Record()
				x := rec{Line: r.Line, Offset: r.Offset, Size: r.Len(), Kind: r.Kind, Newline: r.Newline, BOM: r.BOM, CRLF: r.CRLF}
				if r.Kind == Object {
					x.Type, x.ID, x.Parent, x.SubRole = string(r.Top[0]), string(r.Top[1]), string(r.Top[2]), string(r.Sub[0])
				}
				if long && r.Raw != nil && r.Streamed {
					t.Fatal("a streamed record kept its bytes")
				}
				out = append(out, x)
			}
			return out
		}
		a, b := read(false), read(true)
		if len(a) != len(b) {
			t.Fatalf("%d records held, %d streamed", len(a), len(b))
		}
		for i := range a {
			if a[i] != b[i] {
				t.Fatalf("record %d: held %+v, streamed %+v", i, a[i], b[i])
			}
		}
	})
}

// TestLongLineNotHeld reads a pi-style line of 64 MiB in capture mode with
// the index's long-line limit: the heap must not grow by anything near the
// line's size (before the limit the reader held the whole line, in a buffer
// grown by appending, several times its size at peak).
func TestLongLineNotHeld(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 64 MiB")
	}
	const n = 64 << 20
	head := []byte(`{"type":"message","id":"a1","parentId":null,"message":{"role":"user","content":"`)
	body := bytes.Repeat([]byte("abcdefghi\\n"), n/11)
	tail := []byte("\"}}\n{\"type\":\"message\",\"id\":\"a2\",\"parentId\":\"a1\",\"message\":{\"role\":\"assistant\"}}\n")
	r := &repeatReader{parts: [][]byte{head, body, tail}}
	rd := NewReader(r)
	rd.SetCapture(fuzzCapture)
	rd.SetLongLines(LongLine)
	var before, peak runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	var kinds []Kind
	var roles []string
	for rd.Next() {
		rec := rd.Record()
		kinds = append(kinds, rec.Kind)
		roles = append(roles, string(rec.Sub[0]))
		runtime.ReadMemStats(&peak)
		if grown := int64(peak.HeapAlloc) - int64(before.HeapAlloc); grown > 16<<20 {
			t.Fatalf("heap grew by %d MiB reading a %d MiB line", grown>>20, n>>20)
		}
	}
	if rd.Err() != nil {
		t.Fatal(rd.Err())
	}
	if len(kinds) != 2 || kinds[0] != Object || kinds[1] != Object || roles[0] != `"user"` || roles[1] != `"assistant"` {
		t.Fatalf("kinds %v roles %v", kinds, roles)
	}
	var v map[string]json.RawMessage
	if json.Unmarshal(append(append(append([]byte(nil), head...), body[:110]...), `"}}`...), &v) != nil {
		t.Fatal("the test line is not valid JSON")
	}
}

// repeatReader reads its parts one after the other without holding them
// joined.
type repeatReader struct {
	parts [][]byte
}

func (r *repeatReader) Read(p []byte) (int, error) {
	for len(r.parts) > 0 && len(r.parts[0]) == 0 {
		r.parts = r.parts[1:]
	}
	if len(r.parts) == 0 {
		return 0, io.EOF
	}
	n := copy(p, r.parts[0])
	r.parts[0] = r.parts[0][n:]
	return n, nil
}
