package jsonl

import (
	"github.com/valyala/fastjson"
	"slices"

	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

// jsUnits is a model of the JavaScript string JSON.parse gives for the raw
// JSON string raw, as UTF-16 code units: the file's bytes are read as UTF-8
// with one U+FFFD a byte that is not part of valid UTF-8 (utf8.DecodeRune's
// steps, as encoding/json and String take them), and a \uXXXX escape is
// the code unit XXXX, whatever it is. ok is false when raw is not a valid
// JSON string. Written apart from the decoders it checks.
func jsUnits(raw []byte) (units []uint16, ok bool) {
	n := len(raw)
	if n < 2 || raw[0] != '"' || raw[n-1] != '"' {
		return nil, false
	}
	in := raw[1 : n-1]
	units = []uint16{}
	for i := 0; i < len(in); {
		c := in[i]
		if c == '\\' {
			if i+1 >= len(in) {
				return nil, false
			}
			simple := map[byte]uint16{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}
			if u, ok := simple[in[i+1]]; ok {
				units = append(units, u)
				i += 2
				continue
			}
			if in[i+1] != 'u' || i+6 > len(in) {
				return nil, false
			}
			u, err := strconv.ParseUint(string(in[i+2:i+6]), 16, 16)
			if err != nil {
				return nil, false
			}
			units = append(units, uint16(u))
			i += 6
			continue
		}
		if c == '"' || c < 0x20 {
			return nil, false
		}
		r, size := utf8.DecodeRune(in[i:])
		units = utf16.AppendRune(units, r) // RuneError for an invalid byte is U+FFFD
		i += size
	}
	return units, true
}

// wtf8 encodes code units as KeyString's keys should be: the UTF-8 of the
// characters, a pair as its character, a lone surrogate in 3 bytes.
func wtf8(units []uint16) string {
	var b []byte
	for i := 0; i < len(units); i++ {
		u := rune(units[i])
		if utf16.IsSurrogate(u) {
			if u < 0xDC00 && i+1 < len(units) && units[i+1] >= 0xDC00 && units[i+1] <= 0xDFFF {
				b = utf8.AppendRune(b, utf16.DecodeRune(u, rune(units[i+1])))
				i++
				continue
			}
			b = append(b, 0xE0|byte(u>>12), 0x80|byte(u>>6)&0x3F, 0x80|byte(u)&0x3F)
			continue
		}
		b = utf8.AppendRune(b, u)
	}
	return string(b)
}

// hasLone reports whether units hold a surrogate that is not in a pair.
func hasLone(units []uint16) bool {
	for i := 0; i < len(units); i++ {
		u := units[i]
		if u >= 0xD800 && u <= 0xDBFF && i+1 < len(units) && units[i+1] >= 0xDC00 && units[i+1] <= 0xDFFF {
			i++
			continue
		}
		if u >= 0xD800 && u <= 0xDFFF {
			return true
		}
	}
	return false
}

// respell writes units as a JSON string again, each unit (or pair) either
// as its raw UTF-8 or escaped, as the bits of how say: another spelling of
// the same JavaScript string. A lone surrogate can only be escaped.
func respell(units []uint16, how []byte) []byte {
	out := []byte{'"'}
	bit := 0
	pick := func() bool {
		if len(how) == 0 {
			return false
		}
		b := how[(bit/8)%len(how)]>>(bit%8)&1 == 1
		bit++
		return b
	}
	esc := func(u uint16) { out = fmt.Appendf(out, `\u%04x`, u) }
	for i := 0; i < len(units); i++ {
		u := units[i]
		if u >= 0xD800 && u <= 0xDBFF && i+1 < len(units) && units[i+1] >= 0xDC00 && units[i+1] <= 0xDFFF {
			if pick() {
				out = utf8.AppendRune(out, utf16.DecodeRune(rune(u), rune(units[i+1])))
			} else {
				esc(u)
				esc(units[i+1])
			}
			i++
			continue
		}
		switch {
		case u >= 0xD800 && u <= 0xDFFF, u < 0x20, u == '"', u == '\\':
			esc(u)
		case pick():
			out = utf8.AppendRune(out, rune(u))
		default:
			esc(u)
		}
	}
	return append(out, '"')
}

// FuzzKeyString holds KeyString to the model of JavaScript strings
// (jsUnits): its key is the WTF-8 of the code units JSON.parse gives, so
// two raw strings have equal keys exactly when JavaScript calls their
// values equal (checked on a and b, and on a and other spellings of a and
// of a changed by one unit); without lone surrogates the key is
// encoding/json's (and String's, for a string holding an escape or valid
// UTF-8), and ok agrees with String's.
func FuzzKeyString(f *testing.F) {
	for _, s := range [][2]string{
		{`"\ud800"`, `"\ud801"`},
		{`"\ud83d\ude00"`, "\"\U0001F600\""},
		{`"\ud83d"`, `"\ufffd"`},
		{"\"\xed\xa0\x80\"", `"\ud800"`},
		{"\"\xed\xa0\x80\\n\"", "\"\\ud800\\n\""},
		{"\"\xff\"", `"\ufffd"`},
		{"\"\xff\\n\"", "\"\uFFFD\\n\""},
		{`"\udc00\ud800\udc00"`, "\"\\udc00\U00010000\""},
		{`"\ud800\ud800\udc00"`, `"\ud800\u0041"`},
		{`"\ud800x"`, `"\udbff\udfff"`},
		{`"a\nb"`, `"a\u000ab"`},
		{`"\q"`, `"\u12"`},
		{`"abc"`, `"ab\u0063"`},
		{"\"\xe2\x82x\"", "\"\\ufffd\\ufffdx\""},
		{`""`, `"\u0000"`},
	} {
		f.Add([]byte(s[0]), []byte(s[1]), []byte{0x5a})
	}
	f.Fuzz(func(t *testing.T, a, b, how []byte) {
		ka, oka := KeyString(a)
		ua, va := checkKey(t, a, ka, oka)
		kb, okb := KeyString(b)
		ub, vb := checkKey(t, b, kb, okb)
		if va && vb {
			if js := slices.Equal(ua, ub); (ka == kb) != js {
				t.Fatalf("%q and %q: keys equal %v, JavaScript's strings equal %v", a, b, ka == kb, js)
			}
		}
		if !va {
			return
		}
		c := respell(ua, how)
		if kc, ok := KeyString(c); !ok || kc != ka {
			t.Fatalf("%q respelled %q: key %q %v, want %q", a, c, kc, ok, ka)
		}
		if len(ua) > 0 && len(how) > 0 {
			ud := append([]uint16(nil), ua...)
			j := int(how[0]) % len(ud)
			ud[j] ^= 1 + uint16(len(how))
			d := respell(ud, how[1:])
			if kd, _ := KeyString(d); kd == ka {
				t.Fatalf("%q changed to %q: the same key %q", a, d, ka)
			}
		}
	})
}

// checkKey checks KeyString's result k, ok for raw against the model and
// String, and returns the model's code units and whether raw is a valid
// JSON string.
func checkKey(t *testing.T, raw []byte, k string, ok bool) ([]uint16, bool) {
	t.Helper()
	s, sok := String(raw)
	if ok != sok {
		t.Fatalf("%q: KeyString ok %v, String ok %v", raw, ok, sok)
	}
	units, valid := jsUnits(raw)
	if !valid {
		return nil, false
	}
	if !ok {
		t.Fatalf("%q: a valid JSON string, KeyString not ok", raw)
	}
	if want := wtf8(units); k != want {
		t.Fatalf("%q: key %q, want %q (code units %x)", raw, k, want, units)
	}
	if lone := hasLone(units); utf8.ValidString(k) == lone {
		t.Fatalf("%q: key %q valid UTF-8 %v with lone surrogates %v", raw, k, !lone, lone)
	} else if !lone {
		var want string
		if err := json.Unmarshal(raw, &want); err != nil || k != want {
			t.Fatalf("%q: key %q, encoding/json %q (%v)", raw, k, want, err)
		}
		if inner := raw[1 : len(raw)-1]; (bytes.IndexByte(inner, '\\') >= 0 || utf8.Valid(inner)) && k != s {
			t.Fatalf("%q: key %q, String %q", raw, k, s)
		}
	}
	// The key written as JSON decodes to the key again, and as
	// encoding/json writes it when it holds no lone surrogate.
	if back, ok := KeyString(AppendKeyJSON(nil, k)); !ok || back != k {
		t.Fatalf("%q: key %q written as %s, read back as %q", raw, k, AppendKeyJSON(nil, k), back)
	}
	if m, _ := json.Marshal(k); utf8.ValidString(k) && string(AppendKeyJSON(nil, k)) != string(m) {
		t.Fatalf("%q: key %q written as %s, encoding/json %s", raw, k, AppendKeyJSON(nil, k), m)
	}
	for i := 0; i < len(k); i++ {
		if r, ok := IsKeySurrogate(k, i); ok && (r < 0xD800 || r > 0xDFFF || k[i:i+3] != wtf8([]uint16{uint16(r)})) {
			t.Fatalf("%q: IsKeySurrogate at %d gives %x", k, i, r)
		}
	}
	return units, true
}

// TestKeyString checks the cases the pi ids need by name.
func TestKeyString(t *testing.T) {
	key := func(s string) string {
		k, ok := KeyString([]byte(s))
		if !ok {
			t.Fatalf("%q: not ok", s)
		}
		return k
	}
	for _, c := range []struct {
		a, b  string
		equal bool
	}{
		{`"\ud800"`, `"\ud801"`, false},
		{`"\ud800"`, `"\udc00"`, false},
		{`"\ud800"`, `"\ufffd"`, false},
		{`"\ud800"`, "\"\xed\xa0\x80\"", false},
		{"\"\xed\xa0\x80\"", `"\ufffd\ufffd\ufffd"`, true},
		{`"\ud83d\ude00"`, "\"\U0001F600\"", true},
		{`"\ud83d\ude00"`, `"\uD83D\uDE00"`, true},
		{`"\ud800"`, `"\uD800"`, true},
		{"\"\xff\"", `"\ufffd"`, true},
		{`"a\/b"`, `"a/b"`, true},
	} {
		if got := key(c.a) == key(c.b); got != c.equal {
			t.Errorf("%s and %s: equal keys %v, want %v", c.a, c.b, got, c.equal)
		}
	}
	if k := key(`"x\ud800y"`); k != "x\xed\xa0\x80y" {
		t.Errorf("lone high surrogate: %q", k)
	}
	if k := key(`"\udfff"`); k != "\xed\xbf\xbf" {
		t.Errorf("lone low surrogate: %q", k)
	}
	if got := string(AppendKeyJSON(nil, key(`"<a\udfff\ud800b>\ud83d\ude00\u0000"`))); got != `"\u003ca\udfff\ud800b\u003e`+"\U0001F600"+`\u0000"` {
		t.Errorf("AppendKeyJSON: %s", got)
	}
	if _, ok := KeyString([]byte(`12`)); ok {
		t.Errorf("a number is not a string")
	}
}

// FuzzParsedKey: where ParsedKey takes fastjson's decoding of a string
// member of a valid JSON line as its key, that is KeyString's key of the
// member's raw bytes.
func FuzzParsedKey(f *testing.F) {
	for _, s := range []string{`"\ud800"`, `"\ud800\u0041"`, `"\udc00"`, "\"\xed\xa0\x80\"", "\"\xff\"",
		`"abc"`, `"a\u0062c"`, `"\ud83d\ude00"`, `"a\\b"`, `"\ud800\ud801"`, `"\u00e9"`, `"\ufffd"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		obj := append(append([]byte(`{"id":`), raw...), '}')
		if !json.Valid(obj) { // callers' lines are valid JSON; fastjson takes more
			return
		}
		var p fastjson.Parser
		v, err := p.ParseBytes(obj)
		if err != nil {
			t.Fatalf("%q: valid JSON that fastjson rejects: %v", obj, err)
		}
		x := v.Get("id")
		if x == nil || x.Type() != fastjson.TypeString {
			return
		}
		b, _ := x.StringBytes()
		k, ok := ParsedKey(b)
		if !ok {
			return
		}
		want, wok := KeyString(bytes.Trim(raw, " \t\r\n")) // Field's raw value has no white space around it
		if !wok || k != want {
			t.Fatalf("%q: ParsedKey of fastjson's %q is %q, KeyString %q %v", raw, b, k, want, wok)
		}
	})
}
