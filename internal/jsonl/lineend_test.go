package jsonl

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// lineEndCapture captures top members, a Sub object's members and the
// members of the elements of one of its arrays, so that every capture mode
// of the scan is compared.
var lineEndCapture = &Capture{Top: []string{"type", "id", "message"}, Sub: "message", SubKeys: []string{"role", "content"}, Elems: "content", ElemKeys: []string{"type", "text"}}

// lineRec is what the line-end tests compare of a record.
type lineRec struct {
	Line               int
	Offset, Size       int64
	Raw                string
	Newline, BOM, CRLF bool
	Kind               Kind
	Top, Sub           []string
}

func capStrings(v [][]byte) []string {
	if v == nil {
		return nil
	}
	out := make([]string, len(v))
	for k, p := range v {
		if p == nil {
			out[k] = "<nil>"
		} else {
			out[k] = string(p)
		}
	}
	return out
}

// scanAllLines runs scanLines over data as readInline does, with the line
// ends found by the scan (byScan) or before it, and returns the records.
// Inspect checks that every capture lies inside its line's bytes (captures
// are slices of data: their start is cap(data)-cap(v)).
func scanAllLines(t testing.TB, data []byte, byScan, first bool, offset int64) []lineRec {
	t.Helper()
	old := lineEndsByScan
	lineEndsByScan = byScan
	defer func() { lineEndsByScan = old }()
	s := NewScanner(lineEndCapture)
	var bad string
	o := ParallelOptions{Capture: lineEndCapture, Inspect: func(rec *Record, b *Batch) {
		lo := int(rec.Offset - offset)
		hi := lo + len(rec.Raw)
		for _, v := range append(append([][]byte{}, rec.Top...), rec.Sub...) {
			if v == nil {
				continue
			}
			at := cap(data) - cap(v)
			if at < lo || at+len(v) > hi {
				bad = fmt.Sprintf("line %d [%d,%d): capture %q at [%d,%d)", rec.Line, lo, hi, v, at, at+len(v))
			}
		}
	}}
	var out []lineRec
	b := &Batch{}
	line := 0
	for start := 0; start < len(data); {
		start = scanLines(s, data, start, o, b, offset, first)
		for i := range b.Records {
			r := &b.Records[i]
			out = append(out, lineRec{Line: r.Line + line, Offset: r.Offset, Size: r.Size, Raw: string(r.Raw),
				Newline: r.Newline, BOM: r.BOM, CRLF: r.CRLF, Kind: r.Kind, Top: capStrings(r.Top), Sub: capStrings(r.Sub)})
		}
		line += len(b.Records)
		b.Records, b.arena, b.slots = b.Records[:0], b.arena[:0], b.slots[:0]
	}
	if bad != "" {
		t.Fatalf("byScan %v: %s", byScan, bad)
	}
	return out
}

// compareLineEnds requires the same records from both ways of finding the
// lines' ends.
func compareLineEnds(t *testing.T, data []byte, first bool) []lineRec {
	t.Helper()
	want := scanAllLines(t, data, false, first, 100)
	got := scanAllLines(t, data, true, first, 100)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("input %q (first %v):\nby scan   %+v\nfound first %+v", data, first, got, want)
	}
	return got
}

func kindsOf(recs []lineRec) string {
	var k []string
	for _, r := range recs {
		k = append(k, r.Kind.String())
	}
	return strings.Join(k, " ")
}

// TestScanLinesLineEnds holds the records of lines whose ends the scan
// finds (or must not) to those of lines found first, and to the kinds
// they must have.
func TestScanLinesLineEnds(t *testing.T) {
	msg := `{"type":"message","id":"a","message":{"role":"user","content":[{"type":"text","text":"hi"},{"type":"image"}]}}`
	for _, c := range []struct{ in, kinds string }{
		{"{\"a\":\n1}\n", "malformed malformed"},                 // a '\n' in a value's white space: two lines
		{"{\"a\":\n1}", "malformed torn-tail"},                   // ... the second without newline
		{"[1,\n2]\n" + msg + "\n", "malformed malformed object"}, // and a line after it
		{"{\n\"type\": \"x\"\n}\n{}\n", "malformed malformed malformed object"},
		{"{\"a\"\n:1}\n", "malformed malformed"},
		{"{\"a\":1\n}\n", "malformed malformed"},
		{"{\"a\":\"x\ny\"}\n", "malformed malformed"}, // a '\n' in a string
		{msg + "\r\n" + msg + "\r\n", "object object"},
		{"\xEF\xBB\xBF" + msg + "\n{}\n", "object object"},
		{"\xEF\xBB\xBF\n{}", "blank object"},
		{"\n \t\r\n\r\n{}\n\n", "blank blank blank object blank"},
		{msg, "object"}, // a last line without newline
		{msg + "\r", "object"},
		{"\x00\x00\x00\n{}\n\x00\x00", "nul-run object nul-run"},
		{"{\"a\":1} x\n", "malformed"}, // a valid value followed by garbage
		{"{\"a\":1}{\"b\":2}\n", "malformed"},
		{"{\"a\":1}x", "torn-tail"},
		{"{\"a\":1} \t\r\n", "object"},
		{" \t{\"a\":1}\n\r{}\n", "object object"},
		{"\n{}", "blank object"},
		{"12\n\"s\"\ntrue\nnull\n[1]\n1", "non-object non-object non-object non-object non-object non-object"},
		{"1 2\n-\n1.\n", "malformed malformed malformed"},
		{"tru\ne\n", "malformed malformed"},
		{"\"\\u00\n41\"\n", "malformed malformed"},
		{"{\"type\":\"a\",\"type\":\"b\"}\n", "object"},
	} {
		recs := compareLineEnds(t, []byte(c.in), true)
		if k := kindsOf(recs); k != c.kinds {
			t.Errorf("%q: kinds %q, want %q", c.in, k, c.kinds)
		}
		compareLineEnds(t, []byte(c.in), false)
	}
}

// TestScanLinesChunkEnd: a value that ends exactly at the end of the data
// (a chunk cut from a buffer that goes on) ends its line there, and its
// captures do not reach past it.
func TestScanLinesChunkEnd(t *testing.T) {
	for _, c := range []struct{ in, more, kind string }{
		{`{"type":"x"}` + "\n" + `{"type":"y"}`, `,"id":"z"}` + "\n", "object"},
		{`{"type":"x"}` + "\n" + `12`, "345\n", "non-object"},
		{`{"type":"x"}` + "\n" + `{"type":"y","id":"ab`, `c"}` + "\n", "torn-tail"},
		{`{"type":"x"}` + "\n" + `{"type":"y","id":"abc"}`, "\n", "object"},
		{`{"type":"x"}` + "\n" + `{"type":"y","id":tru`, "e}\n", "torn-tail"},
		{`{"type":"x"}` + "\n" + `{"type":"y"} `, "x\n", "object"},
	} {
		buf := []byte(c.in + c.more)
		data := buf[:len(c.in)]
		recs := compareLineEnds(t, data, true)
		last := recs[len(recs)-1]
		if last.Kind.String() != c.kind || last.Newline || last.Raw != c.in[strings.LastIndexByte(c.in, '\n')+1:] {
			t.Errorf("%q|%q: last record %+v, want %s without newline", c.in, c.more, last, c.kind)
		}
	}
}

// TestScanLineFindsEnds: a compact line's end is found by its scan (the
// line is not split first), and a value broken by a '\n' fails at that
// '\n' (a '\n' is no white space to a Scanner), without a look past it.
func TestScanLineFindsEnds(t *testing.T) {
	s := NewScanner(lineEndCapture)
	data := []byte(`{"type":"message","id":"a"}` + " \r\n" + `[1]`)
	end, ok := s.scanLine(data, 0)
	if !ok || end != bytes.IndexByte(data, '\n') || !s.object || string(s.Top[1]) != `"a"` {
		t.Fatalf("first line: end %d ok %v object %v", end, ok, s.object)
	}
	end, ok = s.scanLine(data, end+1)
	if !ok || end != len(data) || s.object {
		t.Fatalf("second line: end %d ok %v object %v", end, ok, s.object)
	}
	for _, in := range []string{"{\"a\":\n1}\n", "[\n1]", "{\"a\":[1,\n2]}\n", "{\"a\":1\n}", "[ \n1]", "\"a\nb\"", "{\"a\"\n:1}",
		"{\"abcdefghijklmnopq\n\":1}", "{\"a\":\"" + strings.Repeat("x", 100) + "\n\"}", "tr\nue", "12.\n5", "-\n1", "{\"a\":1,\n\"b\":2}"} {
		nl := strings.IndexByte(in, '\n')
		if end, ok := s.scanLine([]byte(in), 0); ok || end > nl {
			t.Errorf("%q: end %d ok %v, want a failure at or before the '\\n' at %d", in, end, ok, nl)
		}
	}
	for _, in := range []string{"\n{}\n", "{}x\n", "{\"a\":1x\n", ""} {
		if _, ok := s.scanLine([]byte(in), 0); ok {
			t.Errorf("%q: ok, want a failure", in)
		}
	}
	// Scan takes one line: a '\n' outside a string is not white space
	// (pretty-printed JSON is rejected), nor before or after the value.
	for _, in := range []string{"{\n  \"type\": \"x\",\n  \"a\": [\n    1\n  ]\n}", "{}\n", "\n{}", "[1,\n2]", "\"x\"\n"} {
		if s.Scan([]byte(in)) {
			t.Errorf("Scan(%q) = true, want a '\\n' rejected", in)
		}
		if flat := strings.ReplaceAll(in, "\n", " "); !s.Scan([]byte(flat)) {
			t.Errorf("Scan(%q) = false", flat)
		}
	}
}

// TestScanLinesPretty: pretty-printed JSON is malformed line by line, as
// with the lines found first, and a valid line after it is found by its
// scan again.
func TestScanLinesPretty(t *testing.T) {
	var b strings.Builder
	b.WriteString("[\n")
	for i := 0; i < 500; i++ {
		fmt.Fprintf(&b, "  {\n    \"type\": \"x%d\",\n    \"a\": [\n      1,\n      2\n    ]\n  },\n", i)
	}
	b.WriteString("  {}\n]\n")
	for i := 0; i < 100; i++ {
		fmt.Fprintf(&b, `{"type":"m","id":"%d"}`+"\n", i)
	}
	recs := compareLineEnds(t, []byte(b.String()), true)
	if n := len(recs); n != 2+500*7+100+1 {
		t.Fatalf("%d records", n)
	}
	if k := recs[len(recs)-1].Kind; k != Object {
		t.Fatalf("last line %v", k)
	}
}

// spanStops checks that scanLine, from the start of each line of data,
// stops at or before that line's '\n' (or the end of data): a line's scan
// reads nothing of the next line, whatever it holds.
func spanStops(t testing.TB, data []byte) {
	t.Helper()
	s := NewScanner(lineEndCapture)
	for pos := 0; pos < len(data); {
		nl := bytes.IndexByte(data[pos:], '\n')
		if nl < 0 {
			nl = len(data)
		} else {
			nl += pos
		}
		if end, ok := s.scanLine(data, pos); end > nl || (ok && end != nl) {
			t.Fatalf("line at %d (ends at %d) of %.200q: scan stopped at %d, ok %v", pos, nl, data, end, ok)
		}
		pos = nl + 1
	}
}

// craftedSpans is the reviewer's input against a scan that let values
// span lines: n bytes of 4-byte lines that continue an array ("12,\n"),
// with a line opening one ("[  \n") every 8,192 lines, so that each '['
// line would be scanned to the end of the chunk.
func craftedSpans(n int) []byte {
	b := make([]byte, 0, n+4)
	for line := 0; len(b) < n; line++ {
		if line%8192 == 100 {
			b = append(b, "[  \n"...)
		} else {
			b = append(b, "12,\n"...)
		}
	}
	return b
}

// TestScanLinesCraftedSpans: on the reviewer's input every line's scan
// stops at its own '\n' (so that no line is read more than twice: by
// scanLine, then by classifyScan), and the records are those of the lines
// found first.
func TestScanLinesCraftedSpans(t *testing.T) {
	data := craftedSpans(1 << 20)
	spanStops(t, data)
	recs := compareLineEnds(t, data, true)
	if len(recs) != len(data)/4 || recs[100].Kind != Malformed || recs[101].Kind != Malformed {
		t.Fatalf("%d records, line 101 %v", len(recs), recs[100].Kind)
	}
}

// bothLineEnds runs fn as two sub-benchmarks, "found-first" and "by-scan",
// with the lines' ends of scanLines found first (IndexByte) and by the scan,
// each given a Scanner, options and a batch for piCapture.
func bothLineEnds(b *testing.B, fn func(b *testing.B, s *Scanner, o ParallelOptions, bt *Batch)) {
	for _, byScan := range []bool{false, true} {
		name := "found-first"
		if byScan {
			name = "by-scan"
		}
		b.Run(name, func(b *testing.B) {
			old := lineEndsByScan
			lineEndsByScan = byScan
			defer func() { lineEndsByScan = old }()
			fn(b, NewScanner(piCapture), ParallelOptions{Capture: piCapture, Keep: func(*Record) bool { return false }}, &Batch{})
		})
	}
}

// BenchmarkScanLinesCrafted runs scanLines over the reviewer's 16 MB input
// in chunks of ReadSize (as scanJob does), with the lines' ends found by
// the scan and found first: the two must take about the same time (a
// scan that went past a '\n' took 2.1-2.4 times as long by the scan).
func BenchmarkScanLinesCrafted(b *testing.B) {
	data := craftedSpans(16 << 20)
	bothLineEnds(b, func(b *testing.B, s *Scanner, o ParallelOptions, bt *Batch) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			for off := 0; off < len(data); {
				end := min(off+ReadSize, len(data))
				end = off + bytes.LastIndexByte(data[off:end], '\n') + 1
				chunk := data[off:end]
				for start := 0; start < len(chunk); {
					start = scanLines(s, chunk, start, o, bt, int64(off), off == 0)
					sinkInt += len(bt.Records)
					bt.Records, bt.arena, bt.slots = bt.Records[:0], bt.arena[:0], bt.slots[:0]
				}
				off = end
			}
		}
	})
}

// FuzzScanLines feeds the same bytes to scanLines with the lines' ends
// found by the scan and found first (IndexByte): the records, captures
// included, must be the same, no capture may reach past its line, and no
// line's scan past its '\n' (spanStops). The
// data is cut from a buffer that goes on (cut bytes), as a chunk is.
func FuzzScanLines(f *testing.F) {
	for _, s := range fuzzSeeds() {
		f.Add(s, uint8(0), true)
	}
	f.Add([]byte("{\"a\":\n1}\n{\"type\":\"x\",\"message\":{\"role\":\"u\",\"content\":[{\"type\":\"t\",\"text\":\"x\"}]}}\r\n"), uint8(3), true)
	f.Add([]byte("\xEF\xBB\xBF{\"type\":\"s\"} \r\n\n[1,\n2]\n{\"id\":1}"), uint8(5), false)
	f.Add([]byte("{\"type\":\"x\"}\n{\"type\":\"y\"}{\"id\":\"z\"}\n"), uint8(11), true)
	f.Add([]byte("12,\n[  \n12,\n12,\n12]\n{\"a\":\n{\"type\":\"x\"}}\n"), uint8(0), true)
	f.Fuzz(func(t *testing.T, in []byte, cut uint8, first bool) {
		if maxDepth(in) >= 299 {
			return
		}
		data := in[:len(in)-int(cut)%(len(in)+1)]
		compareLineEnds(t, data, first)
		spanStops(t, data)
	})
}

// BenchmarkScanLinesEnds compares the two ways of finding the lines' ends
// in scanLines (by the scan, found first with IndexByte) on one core over
// SESSCTL_BENCH_FILE (see BenchmarkScanFile), reporting MB/cpu-s:
//
//	SESSCTL_BENCH_FILE=/tmp/sessctl-bench-data/pi-1GB.jsonl /tmp/jsonl.test \
//	  -test.run='^$' -test.bench=ScanLinesEnds -test.benchtime=3x -test.count=5 -test.cpu=1
func BenchmarkScanLinesEnds(b *testing.B) {
	all, _ := loadBenchFile(b)
	bothLineEnds(b, func(b *testing.B, s *Scanner, o ParallelOptions, bt *Batch) {
		b.SetBytes(int64(len(all)))
		cpu0, n := processCPU(), 0
		for b.Loop() {
			for start := 0; start < len(all); {
				start = scanLines(s, all, start, o, bt, 0, true)
				sinkInt += len(bt.Records)
				bt.Records, bt.arena, bt.slots = bt.Records[:0], bt.arena[:0], bt.slots[:0]
			}
			n++
		}
		if cpu := processCPU() - cpu0; cpu > 0 {
			b.ReportMetric(float64(len(all))*float64(n)/cpu/1e6, "MB/cpu-s")
		}
	})
}
