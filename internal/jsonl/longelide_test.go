package jsonl

import (
	"bufio"
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// elideLineOld is what the callers did before line mode: validate the line
// (LongScanner), then, when it is an object, read it again through Elide
// (from its first byte that is not white space, as line mode copies it).
func elideLineOld(t *testing.T, e *Elider, dst, line []byte, cut int, tail string, base int64) (small []byte, kind Kind, nl bool, n int64) {
	t.Helper()
	br := bufio.NewReaderSize(strings.NewReader(string(line[cut:])+tail), 16)
	ls := NewLongScanner(&Capture{}, 1)
	kind, nl, n, err := ls.Scan(line[:cut], br)
	if err != nil {
		t.Fatal(err)
	}
	if kind != Object {
		return dst, kind, nl, n
	}
	// Line mode leaves out the white space before the object.
	ws := len(line) - len(bytes.TrimLeft(line, " \t\r\n"))
	small, err = e.Elide(dst, bytes.NewReader(line[ws:]), base+int64(ws))
	if err != nil {
		t.Fatal(err)
	}
	return small, kind, nl, n
}

// FuzzElideLine holds line mode (ScanLine: one read) to the two reads it
// replaces (LongScanner.Scan, then Elide) and to encoding/json: the same
// kind, newline and bytes read; for an object the same copy and Refs, for
// anything else dst and Refs untouched; the kind is the held Reader's
// (Classify) and says valid exactly when json.Valid does (below the
// scanners' depth limit, which encoding/json does not have). The line is
// fed in a 16-byte bufio.Reader after a held start of cut bytes, with or
// without a newline, after Refs and copy bytes of an earlier line.
func FuzzElideLine(f *testing.F) {
	for _, s := range fuzzSeeds() {
		f.Add(s, uint8(4), uint8(3), true)
	}
	for _, s := range []string{`{"a":"bcdefgh","long key name":["xxxxxxxxxx",1,{"k":"\"\\\\vvvvvvv\u00e9"}]}`,
		`{"a":"bcdefghijk" , "b":tru}`, `{"a":"bcdefghijk\u12G4"}`, `{"a":"bcdefghijk` + "\x01" + `"}`,
		`{"a":"bcdefghijk` + "\x00\x00" + `"}`, `{"a":"bcdefghijk"}  {"b":1}`, `["bcdefghijkl"]`, `   `,
		`{"a":"bcdefghijkl","b":-01}`, `{"a":"bcdefghijkl","b":1e}`, `{"a":"bcdefghijkl"`, "{\"a\":\"bcdefghijkl\"}\r",
		`"a long top-level string"`} {
		f.Add([]byte(s), uint8(4), uint8(0), true)
		f.Add([]byte(s), uint8(9), uint8(5), false)
	}
	f.Fuzz(func(t *testing.T, data []byte, minLen, cut uint8, newline bool) {
		line := data
		if i := bytes.IndexByte(line, '\n'); i >= 0 {
			line = line[:i]
		}
		c := min(int(cut), len(line))
		tail := ""
		if newline {
			tail = "\nnext\n"
		}
		const base = 7
		prefix := []byte("earlier copy")
		old := NewElider(int(minLen % 24))
		old.Refs = []Elided{{Off: 1, Len: 2}}
		wantSmall, wantKind, wantNL, wantN := elideLineOld(t, old, bytes.Clone(prefix), line, c, tail, base)

		e := NewElider(int(minLen % 24))
		e.Refs = []Elided{{Off: 1, Len: 2}}
		br := bufio.NewReaderSize(strings.NewReader(string(line[c:])+tail), 16)
		small, kind, nl, n, err := e.ScanLine(bytes.Clone(prefix), line[:c], br, base)
		if err != nil {
			t.Fatal(err)
		}
		if kind != wantKind || nl != wantNL || n != wantN {
			t.Fatalf("%q: kind %v nl %v n %d, two reads: %v %v %d", line, kind, nl, n, wantKind, wantNL, wantN)
		}
		if rest, _ := br.ReadString('\n'); newline && rest != "next\n" {
			t.Fatalf("%q: read on to %q", line, rest)
		}
		if !bytes.Equal(small, wantSmall) || !sameRefs(e.Refs, old.Refs) {
			t.Fatalf("%q: copy %q refs %v, two reads: %q %v", line, small, e.Refs, wantSmall, old.Refs)
		}
		if kind != Object && (!bytes.Equal(small, prefix) || len(e.Refs) != 1) {
			t.Fatalf("%q (%v): copy %q, %d refs kept", line, kind, small, len(e.Refs))
		}
		if held := Classify(line, false, newline); held != kind {
			t.Fatalf("%q: %v, held Reader %v", line, kind, held)
		}
		if maxDepth(line) < 299 {
			valid := kind == Object || kind == NonObject
			if valid != json.Valid(line) {
				t.Fatalf("%q: %v, json.Valid %v", line, kind, !valid)
			}
			var v any
			if valid && (kind == Object) != (json.Unmarshal(line, &v) == nil && reflect.TypeOf(v) == reflect.TypeOf(map[string]any{})) {
				t.Fatalf("%q: %v, encoding/json decodes %T", line, kind, v)
			}
		}
	})
}

// TestElideLineBigInvalid: a line that goes wrong early is not copied on
// (a long run of NUL bytes, a long line of garbage), and a line that
// goes wrong at its end leaves no copy and no Refs.
func TestElideLineBigInvalid(t *testing.T) {
	big := strings.Repeat("x", 1<<20)
	for _, tc := range []struct {
		line string
		kind Kind
	}{
		{`{"a":1}` + strings.Repeat("\x00", 4<<20), NULRun},
		{`{"a":` + strings.Repeat("1 2 ", 1<<20), Malformed},
		{`{"a":"` + big + `","b":"` + big + `"} x`, Malformed},
		{`{"a":"` + big + `","b":"` + big + `"`, TornTail},
		{`["` + big + `","` + big + `"]`, NonObject},
		{strings.Repeat(" \t", 2<<20), Blank},
		{"[" + strings.Repeat("0,", 2<<20) + "0]", NonObject},
		{strings.Repeat(" ", 2<<20) + `{"a":"` + big + `","b":"` + big + `"}`, Object},
		{`{"a":"` + big + `","b":"` + big + `"}`, Object},
	} {
		e := NewElider(ElidedMin)
		nl := tc.kind != TornTail
		tail := ""
		if nl {
			tail = "\n"
		}
		small, kind, _, _, err := e.ScanLine(nil, nil, bufio.NewReaderSize(strings.NewReader(tc.line+tail), 4096), 0)
		if err != nil || kind != tc.kind {
			t.Fatalf("%.20q: %v %v, want %v", tc.line, kind, err, tc.kind)
		}
		if kind != Object && (len(small) != 0 || len(e.Refs) != 0) {
			t.Fatalf("%.20q: %v with a copy of %d bytes, %d refs", tc.line, kind, len(small), len(e.Refs))
		}
		if kind == Object && (len(small) > 300 || len(e.Refs) != 2) {
			t.Fatalf("%.20q: copy of %d bytes, %d refs", tc.line, len(small), len(e.Refs))
		}
		if cap(small) > 64<<10 {
			t.Fatalf("%.20q: the copy grew to %d bytes", tc.line, cap(small))
		}
	}
}

// TestIndexQuoteOrBackslash holds the word-at-a-time search to IndexAny
// at every position and length.
func TestIndexQuoteOrBackslash(t *testing.T) {
	for n := 0; n < 40; n++ {
		for at := -1; at < n; at++ {
			for _, c := range []byte{'"', '\\'} {
				b := bytes.Repeat([]byte{'a' ^ 0x80}, n)
				for k := range b {
					b[k] = byte(k*37) | 0x80 // high bytes, and bytes one off '"' and '\'
					if k%3 == 0 {
						b[k] = '"' + 1
					}
					if k%5 == 0 {
						b[k] = '\\' - 1
					}
				}
				if at >= 0 {
					b[at] = c
					if at+1 < n {
						b[at+1] = '"'
					}
				}
				if got, want := indexQuoteOrBackslash(b), bytes.IndexAny(b, "\"\\"); got != want {
					t.Fatalf("%q: %d, IndexAny %d", b, got, want)
				}
			}
		}
	}
}

// FuzzElidingReader holds the ElidingReader's records to those of a
// capture-mode Reader with the same buffer and long-line limit (line,
// offset, size, kind, flags, Streamed, held bytes), and the elided copy of
// each streamed object line, with its Refs, to Elide's of the line's body
// read from the input again.
func FuzzElidingReader(f *testing.F) {
	for _, s := range fuzzSeeds() {
		f.Add(s)
	}
	f.Add([]byte("\xef\xbb\xbf{\"type\":\"x\",\"cwd\":\"/xxxxxxxxxxxxxxxxxxxxxxxx\"}\r\n{\"a\":\"" + strings.Repeat("x", 100) + "\"}\n   \t  \t          \t           \n{\"a\":\"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\"}\n[\"yyyyyyyyyyyyyyyyyyyyyyyyyyyy\"]\n{\"type\":\"message\",\"id\":\"torn-tail-without-a-newline"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rd := newReaderSize(bytes.NewReader(data), 16)
		rd.SetCapture(nil)
		rd.SetLongLines(16)
		er := newElidingReaderSize(bytes.NewReader(data), 16, 16)
		er.el.Min = 4
		for {
			ok, eok := rd.Next(), er.Next()
			if ok != eok {
				t.Fatalf("%q: Reader %v, ElidingReader %v", data, ok, eok)
			}
			if !ok {
				break
			}
			a, b := rd.Record(), er.Record()
			if a.Line != b.Line || a.Offset != b.Offset || a.Len() != b.Len() || a.Kind != b.Kind || a.Newline != b.Newline ||
				a.BOM != b.BOM || a.CRLF != b.CRLF || a.Streamed != b.Streamed || !bytes.Equal(a.Raw, b.Raw) {
				t.Fatalf("%q: Reader %+v, ElidingReader %+v", data, a, b)
			}
			small, el := er.Elided()
			if !b.Streamed || b.Kind != Object {
				continue
			}
			from := b.Offset
			if b.BOM {
				from += int64(len(BOM))
			}
			end := b.Offset + b.Len()
			if b.Newline {
				end--
			}
			from += int64(len(data[from:end]) - len(bytes.TrimLeft(data[from:end], " \t\r\n")))
			old := NewElider(4)
			want, err := old.Elide(nil, bytes.NewReader(data[from:end]), from)
			if err != nil || !bytes.Equal(small, want) || !sameRefs(el.Refs, old.Refs) {
				t.Fatalf("%q line %d: copy %q %v, Elide %q %v", data, b.Line, small, el.Refs, want, old.Refs)
			}
		}
		if rd.Err() != nil || er.Err() != nil {
			t.Fatal(rd.Err(), er.Err())
		}
	})
}

func sameRefs(a, b []Elided) bool {
	return len(a) == len(b) && (len(a) == 0 || reflect.DeepEqual(a, b))
}
