package jsonl

import (
	"bytes"
	"encoding/json"
	"errors"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"github.com/valyala/fastjson"
)

// ErrNotObject is returned by Members when the input is not a JSON object.
var ErrNotObject = errors.New("not a JSON object")

// Members calls fn for each member of the JSON object in b, in stored order,
// with the member's key (still escaped, without quotes) and the raw bytes of
// its value. It does not validate: b is expected to be valid JSON (lines the
// Reader classified as Object). It stops early when fn returns false.
func Members(b []byte, fn func(key, val []byte) bool) error {
	i := skipWS(b, 0)
	if i >= len(b) || b[i] != '{' {
		return ErrNotObject
	}
	i = skipWS(b, i+1)
	if i < len(b) && b[i] == '}' {
		return nil
	}
	for i < len(b) {
		if b[i] != '"' {
			return ErrNotObject
		}
		kEnd := skipString(b, i)
		key := b[i+1 : kEnd-1]
		i = skipWS(b, kEnd)
		if i >= len(b) || b[i] != ':' {
			return ErrNotObject
		}
		i = skipWS(b, i+1)
		vEnd := skipValue(b, i)
		if vEnd <= i {
			return ErrNotObject
		}
		if !fn(key, b[i:vEnd]) {
			return nil
		}
		i = skipWS(b, vEnd)
		if i < len(b) && b[i] == ',' {
			i = skipWS(b, i+1)
			continue
		}
		return nil
	}
	return nil
}

// Field returns the raw value of the top-level member key of the object in b.
// Like JSON.parse, the last occurrence of a repeated key wins.
func Field(b []byte, key string) ([]byte, bool) {
	var out []byte
	found := false
	_ = Members(b, func(k, v []byte) bool {
		if keyEquals(k, key) {
			out, found = v, true
		}
		return true
	})
	return out, found
}

// Fields returns the raw values of several top-level members in one pass
// (nil where absent; last occurrence wins).
func Fields(b []byte, keys ...string) [][]byte {
	out := make([][]byte, len(keys))
	_ = Members(b, func(k, v []byte) bool {
		for j, key := range keys {
			if keyEquals(k, key) {
				out[j] = v
			}
		}
		return true
	})
	return out
}

func keyEquals(raw []byte, key string) bool {
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw) == key
	}
	var s string
	q := make([]byte, 0, len(raw)+2)
	q = append(append(append(q, '"'), raw...), '"')
	if json.Unmarshal(q, &s) != nil {
		return false
	}
	return s == key
}

// String decodes a raw JSON value as a string. ok is false when it is not a string.
func String(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", false
	}
	inner := raw[1 : len(raw)-1]
	if bytes.IndexByte(inner, '\\') < 0 {
		return string(inner), true
	}
	return unescape(raw)
}

// unescape decodes a raw JSON string holding escapes into one allocation
// (encoding/json makes two: its unquoted bytes, then the string), with
// encoding/json's results: invalid UTF-8 and lone surrogates become U+FFFD.
// FuzzUnescape holds the two equal. It reports false for what is not a
// valid JSON string.
func unescape(raw []byte) (string, bool) { return decode(raw, false) }

// decode is unescape, and with keepLone unescapeKey: a lone surrogate
// escape becomes its WTF-8 form (appendSurrogate) instead of U+FFFD.
func decode(raw []byte, keepLone bool) (string, bool) {
	n := len(raw)
	if n < 2 || raw[0] != '"' || raw[n-1] != '"' {
		return "", false
	}
	in := raw[1 : n-1]
	b := make([]byte, 0, len(in))
	for i := 0; i < len(in); {
		c := in[i]
		switch {
		case c == '\\':
			if keepLone {
				if r, k := loneSurrogate(in[i:]); k > 0 {
					b = appendSurrogate(b, r)
					i += k
					continue
				}
			}
			var k int
			var ok bool
			if b, k, ok = appendEscape(b, in[i:]); !ok {
				return "", false
			}
			i += k
		case c == '"' || c < 0x20:
			return "", false
		case c < utf8.RuneSelf:
			j := i + 1
			for j < len(in) && in[j] < utf8.RuneSelf && in[j] != '\\' && in[j] != '"' && in[j] >= 0x20 {
				j++
			}
			b = append(b, in[i:j]...)
			i = j
		default:
			r, size := utf8.DecodeRune(in[i:])
			if r == utf8.RuneError && size == 1 {
				b = utf8.AppendRune(b, unicode.ReplacementChar)
			} else {
				b = append(b, in[i:i+size]...)
			}
			i += size
		}
	}
	return unsafe.String(unsafe.SliceData(b), len(b)), true // b is not used again
}

// appendEscape decodes the escape at the start of in (in[0] is the
// backslash) onto out as encoding/json does (a lone surrogate becomes
// U+FFFD) and returns the bytes it took; ok is false for an invalid
// escape. A surrogate pair is decoded when its 12 bytes are in in. Both
// unescape and DecodeString use it.
func appendEscape(out, in []byte) (_ []byte, took int, ok bool) {
	if len(in) < 2 {
		return out, 0, false
	}
	switch e := in[1]; e {
	case '"', '\\', '/':
		return append(out, e), 2, true
	case 'b':
		return append(out, '\b'), 2, true
	case 'f':
		return append(out, '\f'), 2, true
	case 'n':
		return append(out, '\n'), 2, true
	case 'r':
		return append(out, '\r'), 2, true
	case 't':
		return append(out, '\t'), 2, true
	case 'u':
		r, ok := hex4(in[2:])
		if !ok {
			return out, 0, false
		}
		if utf16.IsSurrogate(r) {
			if r2, ok := hex4u(in[6:]); ok {
				if d := utf16.DecodeRune(r, r2); d != unicode.ReplacementChar {
					return utf8.AppendRune(out, d), 12, true
				}
			}
			r = unicode.ReplacementChar
		}
		return utf8.AppendRune(out, r), 6, true
	}
	return out, 0, false
}

// hex4 decodes the four hex digits of a \u escape.
func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r*16 + rune(c)
	}
	return r, true
}

// hex4u decodes a \uXXXX escape at the start of b.
func hex4u(b []byte) (rune, bool) {
	if len(b) < 6 || b[0] != '\\' || b[1] != 'u' {
		return 0, false
	}
	return hex4(b[2:])
}

// Truthy reports whether a raw JSON value is truthy in JavaScript terms
// (absent, null, false, 0 and "" are falsy).
func Truthy(raw []byte) bool {
	if raw == nil {
		return false
	}
	switch string(raw) {
	case "null", "false", `""`:
		return false
	}
	if raw[0] == '-' || (raw[0] >= '0' && raw[0] <= '9') {
		var f float64
		if json.Unmarshal(raw, &f) == nil {
			return f != 0
		}
	}
	return true
}

func skipWS(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\r', '\n':
			i++
		default:
			return i
		}
	}
	return i
}

// skipString returns the index just past the string starting at b[i] == '"'.
func skipString(b []byte, i int) int {
	i++
	for {
		j := bytes.IndexByte(b[i:], '"')
		if j < 0 {
			return len(b)
		}
		i += j
		// count preceding backslashes
		n := 0
		for k := i - 1; k >= 0 && b[k] == '\\'; k-- {
			n++
		}
		i++
		if n%2 == 0 {
			return i
		}
	}
}

// skipValue returns the index just past the value starting at b[i].
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return i
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				i = skipString(b, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return i
	default:
		for i < len(b) {
			switch b[i] {
			case ',', '}', ']', ' ', '\t', '\r', '\n':
				return i
			}
			i++
		}
		return i
	}
}

// Get returns the member at the key path of a parsed object, resolving a
// repeated key to its last occurrence as JSON.parse does (fastjson's own Get
// returns the first). It returns nil when any step is missing or not an object.
func Get(v *fastjson.Value, keys ...string) *fastjson.Value {
	for _, k := range keys {
		if v == nil || v.Type() != fastjson.TypeObject {
			return nil
		}
		o, _ := v.Object()
		var found *fastjson.Value
		o.Visit(func(key []byte, val *fastjson.Value) {
			if string(key) == k {
				found = val
			}
		})
		v = found
	}
	return v
}

// Elements calls fn with the raw bytes of each element of the JSON array in
// b, in order, until fn returns false. b is expected to be valid JSON.
func Elements(b []byte, fn func(val []byte) bool) {
	i := skipWS(b, 0)
	if i >= len(b) || b[i] != '[' {
		return
	}
	i = skipWS(b, i+1)
	for i < len(b) && b[i] != ']' {
		end := skipValue(b, i)
		if end <= i {
			return
		}
		if !fn(b[i:end]) {
			return
		}
		i = skipWS(b, end)
		if i < len(b) && b[i] == ',' {
			i = skipWS(b, i+1)
		}
	}
}

// SkipSpace returns the index of the first byte at or after i that is not
// JSON whitespace.
func SkipSpace(b []byte, i int) int { return skipWS(b, i) }

// SkipString returns the index just past the JSON string starting at
// b[i] == '"' (b is expected to be valid JSON).
func SkipString(b []byte, i int) int { return skipString(b, i) }

// SkipValue returns the index just past the JSON value starting at b[i]
// (b is expected to be valid JSON).
func SkipValue(b []byte, i int) int { return skipValue(b, i) }
