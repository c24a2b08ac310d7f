package jsonl

import (
	"bytes"
	"encoding/json"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

// FuzzElide holds the Elider's copy exact: it is valid JSON, Expand turns
// it back into the input byte for byte, every placeholder stands for a raw
// string value longer than Min at the recorded offset (with the right
// Escaped), member names are never replaced, and decoding the copy then
// resolving its placeholders gives what decoding the input gives. The
// input is read one byte at a time or in halves, so strings, escapes and
// placeholders straddle reads.
func FuzzElide(f *testing.F) {
	for _, s := range []string{`{"a":"bcdefgh","long key name":["xxxxxxxxxx",1,{"k":"\"\\\\vvvvvvv\u00e9"}]}`,
		`["abc","defghijklmn"]`, `"a long top-level string"`, `{"":"","x":{"yyyyyyyyyyyyyyy":"z"}}`, `[{},[],"\\\\\\\\\\\\"]`} {
		f.Add([]byte(s), uint8(4))
		f.Add([]byte(s), uint8(9))
	}
	f.Fuzz(func(t *testing.T, doc []byte, min uint8) {
		if !json.Valid(doc) {
			return
		}
		const base = 7
		file := append(bytes.Repeat([]byte{'#'}, base), doc...)
		for _, rd := range []func(io.Reader) io.Reader{iotest.OneByteReader, iotest.HalfReader} {
			e := NewElider(int(min % 24))
			small, err := e.Elide(nil, rd(bytes.NewReader(doc)), base)
			if err != nil {
				t.Fatal(err)
			}
			if !json.Valid(small) {
				t.Fatalf("%q: copy %q is not valid JSON", doc, small)
			}
			back, err := e.Expand(nil, small, bytes.NewReader(file))
			if err != nil || !bytes.Equal(back, doc) {
				t.Fatalf("%q: expanded %q, %v", doc, back, err)
			}
			texts := map[string]string{}
			for k, r := range e.Refs {
				raw := file[r.Off : r.Off+r.Len]
				var s string
				if json.Unmarshal(raw, &s) != nil || raw[0] != '"' || int(r.Len) <= e.Min || r.Escaped != bytes.Contains(raw, []byte{'\\'}) {
					t.Fatalf("%q: ref %d %+v: %q", doc, k, r, raw)
				}
				texts[string(appendPlaceholder(nil, k))] = s
			}
			var want, got any
			if decodeNum(doc, &want) != nil || decodeNum(small, &got) != nil {
				t.Fatalf("%q: does not decode", doc)
			}
			got = resolve(t, e, got, texts)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%q: resolved copy %v, want %v", doc, got, want)
			}
		}
	})
}

// decodeNum decodes b keeping numbers as written.
func decodeNum(b []byte, v *any) error {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	return d.Decode(v)
}

func appendPlaceholder(dst []byte, k int) []byte {
	e := &Elider{Refs: make([]Elided, k)}
	e.eliding = true
	b := e.endString(nil)
	return append(dst, b[1:len(b)-1]...)
}

// resolve replaces the placeholders of a decoded value by their texts and
// fails when a member name is one.
func resolve(t *testing.T, e *Elider, v any, texts map[string]string) any {
	switch x := v.(type) {
	case string:
		if _, ok := e.Lookup(x); ok {
			return texts[x]
		}
		if Holds(x) {
			t.Fatalf("a string holds a placeholder: %q", x)
		}
		return x
	case []any:
		for i := range x {
			x[i] = resolve(t, e, x[i], texts)
		}
	case map[string]any:
		for k, val := range x {
			if Holds(k) {
				t.Fatalf("member name %q was elided", k)
			}
			x[k] = resolve(t, e, val, texts)
		}
	}
	return v
}

// TestElideLongLine: a line whose message text is 3 MB is copied into a
// few hundred bytes, and the text is decoded from its offset.
func TestElideLongLine(t *testing.T) {
	text := strings.Repeat(`abc\n\"é\ud83d\ude00`, 200000)
	line := `{"type":"message","message":{"role":"user","content":[{"type":"text","text":"` + text + `"},{"type":"text","text":"short"}]}}`
	e := NewElider(ElidedMin)
	small, err := e.Elide(nil, strings.NewReader(line), 100)
	if err != nil || len(small) > 300 || len(e.Refs) != 1 {
		t.Fatalf("copy of %d bytes, %d refs, %v: %q", len(small), len(e.Refs), err, small)
	}
	r := e.Refs[0]
	if got := line[r.Off-100 : r.Off-100+r.Len]; got != `"`+text+`"` {
		t.Fatalf("ref %+v does not locate the text", r)
	}
	var b strings.Builder
	err = DecodeString(strings.NewReader(line[r.Off-100:r.Off-100+r.Len]), false, func(p []byte) error { b.Write(p); return nil })
	want, _ := String([]byte(`"` + text + `"`))
	if err != nil || b.String() != want {
		t.Fatalf("decoded text differs: %v", err)
	}
}
