package jsonl

import (
	"bufio"
	"bytes"
	"encoding/json"
	"testing"
	"unicode/utf8"
)

// oracleKind classifies one line with encoding/json as the reference for
// what is valid JSON (JSON.parse agrees with it on every line kind that
// matters here: both accept invalid UTF-8 and lone surrogates, both reject
// NaN, bad escapes and raw control characters in strings). ok is false when
// the oracle cannot decide: nesting deep enough to hit fastjson.MaxDepth,
// where sessctl deliberately reports Malformed although JSON.parse accepts.
func oracleKind(raw []byte, first, newline bool) (k Kind, ok bool) {
	b := raw
	if first && bytes.HasPrefix(b, BOM) {
		b = b[len(BOM):]
	}
	if n := len(b); n > 0 && b[n-1] == '\r' {
		b = b[:n-1]
	}
	if len(bytes.Trim(b, " \t\r")) == 0 {
		return Blank, true
	}
	if bytes.IndexByte(b, 0) >= 0 {
		return NULRun, true
	}
	if maxDepth(b) >= 299 {
		return 0, false
	}
	if !json.Valid(b) {
		if !newline {
			return TornTail, true
		}
		return Malformed, true
	}
	if bytes.TrimLeft(b, " \t\r")[0] == '{' {
		return Object, true
	}
	return NonObject, true
}

// maxDepth is the deepest bracket nesting outside strings (an upper bound is
// enough: it is only used to skip inputs near the parser's depth limit).
func maxDepth(b []byte) int {
	depth, best, inStr, esc := 0, 0, false, false
	for _, c := range b {
		switch {
		case inStr && esc:
			esc = false
		case inStr && c == '\\':
			esc = true
		case inStr && c == '"':
			inStr = false
		case inStr:
		case c == '"':
			inStr = true
		case c == '{' || c == '[':
			depth++
			if depth > best {
				best = depth
			}
		case c == '}' || c == ']':
			depth--
		}
	}
	return best
}

func fuzzSeeds() [][]byte {
	return [][]byte{
		[]byte(""),
		[]byte("\n"),
		[]byte("\r\n"),
		[]byte("{\"type\":\"session\",\"id\":\"s1\",\"cwd\":\"/x\"}\n{\"type\":\"message\",\"id\":\"a\",\"parentId\":null}\n"),
		[]byte("\xEF\xBB\xBF{\"id\":\"a\"}\r\n{\"id\":\"b\",\"parentId\":\"a\"}\r\n"),
		[]byte("{}\n\xEF\xBB\xBF{}\n"),
		[]byte("42\nnull\n[1]\n\"s\"\ntrue\n"),
		[]byte("{\"a\":1}\n\x00\x00\x00\x00"),
		[]byte("\x00\x00{\"a\":1}\n"),
		[]byte("{\"a\":1}\n{\"b\":\"tor"),
		[]byte("{\"a\":1}{\"b\":2}\n"),
		[]byte("{\"a\":NaN,\"b\":1.2.3,\"c\":\"\\q\"}\n"),
		[]byte("{\"id\":\"a\",\"id\":\"b\",\"\\u0069d\":\"c\"}\n"),
		[]byte("[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]\n"),
		[]byte("\n\n \t\n{\"x\":\"\xff\xfe\"}\n{\"y\":\"\\ud800\"}"),
	}
}

func FuzzReader(f *testing.F) {
	for _, s := range fuzzSeeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		type out struct {
			line    int
			off     int64
			raw     string
			nl, bom bool
			crlf    bool
			kind    Kind
			id      string
			idOK    bool
		}
		run := func(rd *Reader) []out {
			var res []out
			for rd.Next() {
				if len(res) > len(data) {
					t.Fatalf("more records (%d) than input bytes (%d)", len(res)+1, len(data))
				}
				r := rd.Record()
				id, ok := r.StrOK("id")
				res = append(res, out{r.Line, r.Offset, string(r.Raw), r.Newline, r.BOM, r.CRLF, r.Kind, id, ok})
			}
			if err := rd.Err(); err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			return res
		}
		// A 4 KiB buffer instead of NewReader's 1 MiB: inputs are small, and
		// allocating 1 MiB per execution slowed fuzzing down several times.
		// NewReader itself is covered by the unit tests.
		recs := run(&Reader{br: bufio.NewReaderSize(bytes.NewReader(data), 4096)})
		// A 16-byte buffer exercises the long-line (overflow) path on small inputs.
		small := run(&Reader{br: bufio.NewReaderSize(bytes.NewReader(data), 16)})
		if len(small) != len(recs) {
			t.Fatalf("small buffer: %d records, default buffer: %d", len(small), len(recs))
		}
		for i := range recs {
			if small[i] != recs[i] {
				t.Fatalf("record %d differs with a small buffer: %+v vs %+v", i, small[i], recs[i])
			}
		}

		var rebuilt []byte
		var off int64
		for i, r := range recs {
			if r.line != i+1 {
				t.Fatalf("record %d has line %d", i, r.line)
			}
			if r.off != off {
				t.Fatalf("line %d: offset %d, want %d", r.line, r.off, off)
			}
			rebuilt = append(rebuilt, r.raw...)
			off += int64(len(r.raw))
			if r.nl {
				rebuilt = append(rebuilt, '\n')
				off++
			} else if i != len(recs)-1 {
				t.Fatalf("line %d lacks a newline but is not the last record", r.line)
			}
			if bytes.IndexByte([]byte(r.raw), '\n') >= 0 {
				t.Fatalf("line %d contains a newline", r.line)
			}
			if r.bom != (r.line == 1 && bytes.HasPrefix([]byte(r.raw), BOM)) {
				t.Fatalf("line %d: BOM flag %v", r.line, r.bom)
			}
			if r.crlf != (r.nl && len(r.raw) > 0 && r.raw[len(r.raw)-1] == '\r') {
				t.Fatalf("line %d: CRLF flag %v", r.line, r.crlf)
			}
			if want, ok := oracleKind([]byte(r.raw), r.line == 1, r.nl); ok && want != r.kind {
				t.Fatalf("line %d %q: kind %v, encoding/json says %v", r.line, r.raw, r.kind, want)
			}
			if r.kind != Object && r.idOK {
				t.Fatalf("line %d: StrOK on a %v line", r.line, r.kind)
			}
			if r.kind == Object {
				checkIDAgainstStd(t, r.line, []byte(r.raw), r.line == 1, r.id, r.idOK)
			}
		}
		if !bytes.Equal(rebuilt, data) {
			t.Fatalf("Raw + newlines does not reproduce the input:\n got %q\nwant %q", rebuilt, data)
		}
	})
}

// checkIDAgainstStd compares Str("id") with encoding/json's reading of the
// same line (last duplicate wins in both). Lines with invalid UTF-8 or \uD
// escapes are skipped: encoding/json replaces those with U+FFFD while
// fastjson passes the bytes through.
func checkIDAgainstStd(t *testing.T, line int, raw []byte, first bool, id string, ok bool) {
	t.Helper()
	b := body(raw, first && bytes.HasPrefix(raw, BOM))
	if !utf8.Valid(b) || bytes.Contains(bytes.ToLower(b), []byte(`\ud`)) {
		return
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("line %d: Object per reader but encoding/json fails: %v", line, err)
	}
	var want string
	wantOK := false
	if v, has := m["id"]; has && len(v) > 0 && v[0] == '"' {
		wantOK = json.Unmarshal(v, &want) == nil
	}
	if ok != wantOK || id != want {
		t.Fatalf("line %d: Str(id) = %q,%v; encoding/json: %q,%v", line, id, ok, want, wantOK)
	}
}
