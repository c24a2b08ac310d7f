package jsonl

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// parallelRec is what FuzzParallel compares of a record.
type parallelRec struct {
	Line                      int
	Offset, Size              int64
	Kind                      Kind
	Newline, BOM, CRLF        bool
	Raw                       string
	Type, ID, Parent, SubRole string
	SubID                     string
	Streamed                  bool
}

func recOf(r *Record, withRaw bool) parallelRec {
	x := parallelRec{Line: r.Line, Offset: r.Offset, Size: r.Len(), Kind: r.Kind, Newline: r.Newline, BOM: r.BOM, CRLF: r.CRLF}
	if withRaw {
		x.Raw = string(r.Raw)
	}
	if r.Kind == Object {
		x.Type, x.ID, x.Parent = string(r.Top[0]), string(r.Top[1]), string(r.Top[2])
		x.SubRole, x.SubID = string(r.Sub[0]), string(r.Sub[1])
	}
	return x
}

// readSerial is the reference: a Reader in capture mode.
func readSerial(data []byte) []parallelRec {
	rd := NewReader(bytes.NewReader(data))
	rd.SetCapture(fuzzCapture)
	var out []parallelRec
	for rd.Next() {
		out = append(out, recOf(rd.Record(), true))
	}
	return out
}

func readPar(t *testing.T, data []byte, workers, chunk int) []parallelRec {
	var out []parallelRec
	err := ReadParallel(bytes.NewReader(data), ParallelOptions{Capture: fuzzCapture, Workers: workers, ChunkSize: chunk}, func(b *Batch) error {
		for i := range b.Records {
			r := &b.Records[i]
			x := recOf(r, !r.Streamed)
			x.Streamed = r.Streamed
			out = append(out, x)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func compareRecs(t *testing.T, data []byte, want, got []parallelRec) {
	t.Helper()
	if len(want) != len(got) {
		t.Fatalf("%q: %d records serially, %d in parallel", data, len(want), len(got))
	}
	for i := range want {
		w, g := want[i], got[i]
		if g.Streamed { // a line longer than a chunk: not kept, no Raw to compare
			w.Raw, g.Streamed = "", false
		}
		if w != g {
			t.Fatalf("%q record %d:\nserial   %+v\nparallel %+v", data, i, w, g)
		}
	}
}

// FuzzParallel holds ReadParallel equal to the serial Reader in capture
// mode, record for record (kind, line, offset, size, flags, raw bytes and
// captures), with chunks far smaller than the lines so that lines straddle
// chunks, fill them, or exceed them (then they are streamed).
func FuzzParallel(f *testing.F) {
	for _, s := range fuzzSeeds() {
		f.Add(s, uint8(3), uint8(2))
	}
	f.Add([]byte("\xef\xbb\xbf{\"type\":\"session\",\"id\":\"s1\"}\r\n{\"type\":\"message\",\"id\":\"a\",\"message\":{\"role\":\"user\",\"id\":\"m\"}}\n\n  \n[1]\n{\"a\":\"\x00\"}\nnot json\n{\"type\":\"message\",\"id\":\"torn"), uint8(16), uint8(3))
	f.Add([]byte(strings.Repeat("{}\n", 40)), uint8(5), uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, chunk, workers uint8) {
		if maxDepth(data) >= 299 {
			return
		}
		c := 16 + int(chunk)%64
		w := 1 + int(workers)%3
		compareRecs(t, data, readSerial(data), readPar(t, data, w, c))
	})
}

// TestParallelLarge reads a generated input of many lines with the default
// chunk size and every worker count up to 4.
func TestParallelLarge(t *testing.T) {
	var b bytes.Buffer
	b.WriteString(`{"type":"session","id":"s"}` + "\n")
	for i := 0; i < 200_000; i++ {
		switch i % 7 {
		case 0:
			b.WriteString(`{"type":"message","id":"` + strings.Repeat("x", i%13) + `","parentId":"p","message":{"role":"user","content":"` + strings.Repeat("é\\n", i%50) + `"}}` + "\n")
		case 1:
			b.WriteString("\n")
		case 2:
			b.WriteString(`{"type":"label","id":1}` + "\r\n")
		case 3:
			b.WriteString("garbage\n")
		default:
			b.WriteString(`{"type":"message","message":{"role":"assistant","id":` + strings.Repeat("1", 1+i%9) + `}}` + "\n")
		}
	}
	b.WriteString(`{"type":"message","id":"long","message":{"role":"user","content":"` + strings.Repeat("y", 3<<20) + `"}}` + "\n")
	b.WriteString(`{"torn"`)
	data := b.Bytes()
	want := readSerial(data)
	for w := 1; w <= 4; w++ {
		compareRecs(t, nil, want, readPar(t, data, w, 1<<20))
	}
}

// TestParallelStopsOnError: an error from fn ends the read (no deadlock,
// no further batches) and is returned.
func TestParallelStopsOnError(t *testing.T) {
	data := []byte(strings.Repeat(`{"type":"message"}`+"\n", 100_000))
	stop := errors.New("stop")
	calls := 0
	err := ReadParallel(bytes.NewReader(data), ParallelOptions{Capture: fuzzCapture, ChunkSize: 4096}, func(b *Batch) error {
		calls++
		return stop
	})
	if err != stop || calls != 1 {
		t.Fatalf("err %v after %d calls", err, calls)
	}
}
