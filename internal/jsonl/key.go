package jsonl

import (
	"bytes"
	"encoding/json"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// KeyString decodes a raw JSON string value into a key that is equal for
// two values exactly when JavaScript calls the strings JSON.parse gives
// for them equal, but for one difference in invalid UTF-8 (below). ok is
// false when raw is not a string, as with String.
//
// It decodes as String does, but for two things:
//
//   - A lone surrogate escape (a high surrogate "\ud800".."\udbff" not
//     followed by a low surrogate escape, or a low one "\udc00".."\udfff"
//     on its own) is kept, in its generalized UTF-8 (WTF-8) form: the
//     three bytes ED A0 80 .. ED BF BF. String (as encoding/json) turns
//     each into U+FFFD, so "\ud800" and "\ud801" would be one key where
//     JSON.parse keeps two different strings. A surrogate pair is the
//     usual 4-byte UTF-8 of its character, as in String.
//   - Invalid UTF-8 bytes in the file become U+FFFD, one each (as String
//     and encoding/json do in a string holding escapes), also in a string
//     without escapes, whose bytes String returns as they are: the agents
//     read their files as UTF-8 with replacement, so such a byte is
//     U+FFFD to them. So a key holds WTF-8 surrogate bytes only where raw
//     had a lone surrogate escape: the bytes ED A0 80 of a file are
//     invalid UTF-8 and three U+FFFD here, never equal to "\ud800".
//     Node's decoder differs in one case: a multi-byte sequence cut off
//     (E2 82 then 'x') is one U+FFFD to it and one per byte here.
//
// A key is valid UTF-8 exactly when the value holds no lone surrogate, and
// then equals what String gives whenever raw holds an escape or is valid
// UTF-8. A string without escapes that is valid UTF-8 costs one copy, as in
// String. FuzzKeyString holds KeyString to a model of JavaScript's strings.
func KeyString(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", false
	}
	inner := raw[1 : len(raw)-1]
	if bytes.IndexByte(inner, '\\') < 0 {
		if utf8.Valid(inner) {
			return string(inner), true
		}
		b := appendReplacing(make([]byte, 0, len(inner)+8), inner)
		return unsafe.String(unsafe.SliceData(b), len(b)), true // b is not used again
	}
	return unescapeKey(raw)
}

// IsKeySurrogate reports whether s[i:] starts with the WTF-8 form of a
// surrogate (ED A0 80 .. ED BF BF), as KeyString writes a lone surrogate
// escape; r is the surrogate.
func IsKeySurrogate(s string, i int) (r rune, ok bool) {
	if i+2 < len(s) && s[i] == 0xED && s[i+1] >= 0xA0 && s[i+1] <= 0xBF && s[i+2] >= 0x80 && s[i+2] <= 0xBF {
		return 0xD000 | rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F), true
	}
	return 0, false
}

// AppendKeyJSON appends key, a key KeyString gave, as a JSON string that
// KeyString decodes to key again: as encoding/json writes a string, except
// that each lone surrogate (its WTF-8 form) is written as its escape
// (\udxxx, lowercase, as JSON.stringify writes one), where encoding/json
// would write U+FFFD for each of its three bytes. Use it for keys only: a
// decoded text holding the bytes ED A0 80 (as String leaves invalid UTF-8
// in a string without escapes) is U+FFFD three times to the agents.
func AppendKeyJSON(dst []byte, key string) []byte {
	start := 0
	lone := false
	for i := 0; i+2 < len(key); i++ {
		if _, ok := IsKeySurrogate(key, i); ok {
			lone = true
			break
		}
	}
	if !lone {
		m, _ := json.Marshal(key) // a string never fails
		return append(dst, m...)
	}
	dst = append(dst, '"')
	for i := 0; i < len(key); {
		r, ok := IsKeySurrogate(key, i)
		if !ok {
			i++
			continue
		}
		if i > start {
			m, _ := json.Marshal(key[start:i])
			dst = append(dst, m[1:len(m)-1]...)
		}
		const hex = "0123456789abcdef"
		dst = append(dst, '\\', 'u', hex[r>>12], hex[r>>8&15], hex[r>>4&15], hex[r&15])
		i += 3
		start = i
	}
	if start < len(key) {
		m, _ := json.Marshal(key[start:])
		dst = append(dst, m[1:len(m)-1]...)
	}
	return append(dst, '"')
}

// appendReplacing appends b to out with each byte that is not part of
// valid UTF-8 replaced by U+FFFD (utf8.DecodeRune's steps, as
// encoding/json's).
func appendReplacing(out, b []byte) []byte {
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			out = append(out, c)
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			out = utf8.AppendRune(out, unicode.ReplacementChar)
		} else {
			out = append(out, b[i:i+size]...)
		}
		i += size
	}
	return out
}

// appendSurrogate appends the WTF-8 form of surrogate r.
func appendSurrogate(out []byte, r rune) []byte {
	return append(out, 0xED, 0x80|byte(r>>6)&0x3F, 0x80|byte(r)&0x3F)
}

// unescapeKey is unescape keeping lone surrogate escapes (KeyString); it
// reports false for what is not a valid JSON string, as unescape does.
func unescapeKey(raw []byte) (string, bool) { return decode(raw, true) }

// loneSurrogate reports whether in (in[0] is a backslash) starts with a
// lone surrogate escape: a \uXXXX low surrogate, or a high one not followed
// by a low surrogate escape. It returns the surrogate and the 6 bytes its
// escape takes, or 0 bytes when in starts with anything else (a pair too).
func loneSurrogate(in []byte) (rune, int) {
	if len(in) < 2 || in[1] != 'u' {
		return 0, 0
	}
	r, ok := hex4(in[2:])
	if !ok || !utf16.IsSurrogate(r) {
		return 0, 0
	}
	if r < 0xDC00 { // high: a pair when a low surrogate escape follows
		if r2, ok := hex4u(in[6:]); ok && r2 >= 0xDC00 && r2 <= 0xDFFF {
			return 0, 0
		}
	}
	return r, 6
}

// ParsedKey returns the key (KeyString) of a string member whose value
// fastjson decoded to b, when b shows that fastjson's decoding and
// KeyString's agree: b is ASCII without a backslash. fastjson keeps a lone
// surrogate escape as its six characters (a backslash), makes a high
// surrogate followed by another escape U+FFFD (not ASCII) and passes
// invalid UTF-8 through (not ASCII), so none of the strings where the two
// differ decodes to such a b. ok is false otherwise: ask KeyString of the
// member's raw bytes. It saves finding the member in the line again for
// the usual id, which is ASCII.
func ParsedKey(b []byte) (string, bool) {
	for _, c := range b {
		if c >= utf8.RuneSelf || c == '\\' {
			return "", false
		}
	}
	return string(b), true
}
