package jsonl

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf8"
)

// decodeAll runs decodeString with pieces of size bytes over r and
// returns the text and the pieces.
func decodeAll(raw []byte, verbatim bool, size int, oneByte bool) (string, [][]byte, error) {
	var b strings.Builder
	var pieces [][]byte
	var r = bytes.NewReader(raw)
	var rd interface{ Read([]byte) (int, error) } = r
	if oneByte {
		rd = iotest.OneByteReader(r)
	}
	err := decodeString(rd, verbatim, false, func(p []byte) error {
		if len(p) == 0 {
			panic("empty piece")
		}
		b.Write(p)
		pieces = append(pieces, bytes.Clone(p))
		return nil
	}, size)
	return b.String(), pieces, err
}

// FuzzDecodeString holds the streaming decoder equal to unescape (String)
// and to encoding/json on any input, decoded in pieces of any size: the
// same text, the same verdict on invalid strings, U+FFFD for invalid UTF-8
// and lone surrogates (also when a surrogate pair or a multi-byte
// character straddles two reads); verbatim, it equals String's path for a
// string without backslash. Each piece ends at a character boundary.
func FuzzDecodeString(f *testing.F) {
	for _, s := range []string{`"a\nb"`, `"\u00e9\ud83d\ude00"`, `"\ud83d"`, `"\ud83dx"`, `"\udc00\ud800\udc00"`,
		"\"\xff\\n\xed\xa0\x80\"", `"\q"`, `"\u12"`, `"a\"b\\c\/d\b\f\r\t"`, "\"x\ty\\n\"", `"a" "b\n"`, `"\"`,
		`""`, `"abc"x`, `"abc`, "\"é\xe2\x82\"", `"0123456789abcdef\ud83d\ude00\ud83d\ude00\ud83d\ude00"`} {
		f.Add([]byte(s), uint8(0))
		f.Add([]byte(s), uint8(3))
	}
	f.Fuzz(func(t *testing.T, raw []byte, sz uint8) {
		size := 16 + int(sz)%48
		var want string
		werr := json.Unmarshal(raw, &want)
		ok := werr == nil && len(raw) >= 2 && raw[0] == '"' && raw[len(raw)-1] == '"'
		if ok {
			u, uok := unescape(raw)
			if !uok || u != want {
				t.Fatalf("%q: unescape %q %v, encoding/json %q", raw, u, uok, want)
			}
		}
		for _, oneByte := range []bool{false, true} {
			got, pieces, err := decodeAll(raw, false, size, oneByte)
			if (err == nil) != ok {
				t.Fatalf("%q (size %d): err %v, encoding/json %v", raw, size, err, werr)
			}
			if !ok {
				continue
			}
			if got != want {
				t.Fatalf("%q (size %d): got %q, want %q", raw, size, got, want)
			}
			for _, p := range pieces {
				if !utf8.Valid(p) || len(p) > 2*size {
					t.Fatalf("%q: piece %q is not whole characters or too long", raw, p)
				}
			}
		}
		// Verbatim: String's fast path (no backslash).
		if len(raw) >= 2 && raw[0] == '"' && bytes.IndexByte(raw, '\\') < 0 && bytes.IndexByte(raw[1:], '"') == len(raw)-2 {
			s, _ := String(raw)
			got, pieces, err := decodeAll(raw, true, size, false)
			if err != nil || got != s {
				t.Fatalf("%q verbatim: got %q %v, String %q", raw, got, err, s)
			}
			// Pieces end where DecodeRune over the whole text ends a unit.
			ends := map[int]bool{0: true}
			for k := 0; k < len(s); {
				_, n := utf8.DecodeRuneInString(s[k:])
				k += n
				ends[k] = true
			}
			at := 0
			for _, p := range pieces {
				at += len(p)
				if !ends[at] {
					t.Fatalf("%q verbatim: a piece ends inside a character at %d", raw, at)
				}
			}
		}
	})
}

// TestDecodeStringLong decodes a string of several pieces with escapes,
// non-ASCII text and surrogate pairs at every offset relative to the piece
// boundaries, against String.
func TestDecodeStringLong(t *testing.T) {
	var b strings.Builder
	b.WriteByte('"')
	for k := 0; b.Len() < 3*StringPiece; k++ {
		b.WriteString(strings.Repeat("x", k%17))
		b.WriteString(`\n\"é\u00e9\ud83d\ude00\ud800 `)
		b.WriteString("日本\xff")
	}
	b.WriteByte('"')
	raw := []byte(b.String())
	want, ok := String(raw)
	if !ok {
		t.Fatal("test input is not a JSON string")
	}
	for _, size := range []int{16, 17, 29, 1000, StringPiece} {
		got, _, err := decodeAll(raw, false, size, false)
		if err != nil || got != want {
			t.Fatalf("size %d: err %v, equal %v", size, err, got == want)
		}
	}
	got, _, err := decodeAll(raw, false, StringPiece, true)
	if err != nil || got != want {
		t.Fatalf("one byte reads: err %v, equal %v", err, got == want)
	}
}

// DecodeStringAs makes the same choice as its callers used to: verbatim
// wins, loose picks fastjson's rules only for an escaped string.
func TestDecodeStringAsChooses(t *testing.T) {
	collect := func(dec func(io.Reader, func([]byte) error) error, s string) string {
		var b strings.Builder
		if err := dec(strings.NewReader(s), func(p []byte) error { b.Write(p); return nil }); err != nil {
			return "error: " + err.Error()
		}
		return b.String()
	}
	lone := `"a\ud800b"` // a lone surrogate: U+FFFD for encoding/json, kept by fastjson
	plain := `"a` + "\xff" + `b"`
	cases := []struct {
		s               string
		verbatim, loose bool
		want            func(io.Reader, func([]byte) error) error
	}{
		{lone, false, true, DecodeStringLoose},
		{lone, false, false, func(r io.Reader, fn func([]byte) error) error { return DecodeString(r, false, fn) }},
		{plain, true, true, func(r io.Reader, fn func([]byte) error) error { return DecodeString(r, true, fn) }},
		{plain, true, false, func(r io.Reader, fn func([]byte) error) error { return DecodeString(r, true, fn) }},
	}
	for _, c := range cases {
		got := collect(func(r io.Reader, fn func([]byte) error) error { return DecodeStringAs(r, c.verbatim, c.loose, fn) }, c.s)
		if want := collect(c.want, c.s); got != want {
			t.Errorf("DecodeStringAs(%q, verbatim=%v, loose=%v) = %q, want %q", c.s, c.verbatim, c.loose, got, want)
		}
	}
	if a, b := collect(DecodeStringLoose, lone), collect(func(r io.Reader, fn func([]byte) error) error { return DecodeString(r, false, fn) }, lone); a == b {
		t.Fatalf("the two rules agree on %q (%q): the test cannot tell them apart", lone, a)
	}
}
