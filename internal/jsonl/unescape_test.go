package jsonl

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzUnescape holds String's decoding of escaped strings equal to
// encoding/json's, byte for byte, including U+FFFD for invalid UTF-8 and
// lone surrogates, and the verdict on invalid strings.
func FuzzUnescape(f *testing.F) {
	for _, s := range []string{`"a\nb"`, `"\u00e9\ud83d\ude00"`, `"\ud83d"`, `"\ud83dx"`, `"\udc00\ud800\udc00"`, "\"\xff\\n\xed\xa0\x80\"", `"\q"`, `"\u12"`, `"a\"b\\c\/d\b\f\r\t"`, "\"x\ty\\n\"", `"a" "b\n"`, `"\"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
			return
		}
		var want string
		werr := json.Unmarshal(raw, &want)
		got, ok := unescape(raw)
		if ok != (werr == nil) {
			t.Fatalf("%q: unescape ok=%v, encoding/json err=%v", raw, ok, werr)
		}
		if ok && got != want {
			t.Fatalf("%q: unescape %q, encoding/json %q", raw, got, want)
		}
		// String's path without escapes keeps the bytes as they are (it
		// always has); with escapes it is unescape.
		if s, ok2 := String(raw); ok && bytes.IndexByte(raw, '\\') >= 0 && (!ok2 || s != want) {
			t.Fatalf("%q: String %q %v, encoding/json %q", raw, s, ok2, want)
		}
	})
}
