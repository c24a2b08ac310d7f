package pi

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"github.com/sessctl/sessctl/internal/jsonl"
)

// Small helpers over raw JSON values for the oh-my-pi and xcsh dialects,
// which copy and rewrite parts of stored objects as JavaScript does.

// kv is one member of an object: the raw (still escaped) key and the value.
type kv struct {
	key []byte
	val []byte
}

// members returns the members of a raw object in JavaScript order: a repeated
// key keeps the place of its first occurrence and the value of its last, as
// JSON.parse does. nil when raw is not an object.
func members(raw []byte) []kv {
	if !isObject(raw) {
		return nil
	}
	var out []kv
	pos := map[string]int{}
	_ = jsonl.Members(raw, func(k, v []byte) bool {
		name := keyName(k)
		if i, ok := pos[name]; ok {
			out[i].val = v
			return true
		}
		pos[name] = len(out)
		out = append(out, kv{key: k, val: v})
		return true
	})
	return out
}

// keyName decodes a raw key.
func keyName(k []byte) string {
	if bytes.IndexByte(k, '\\') < 0 {
		return string(k)
	}
	var s string
	q := make([]byte, 0, len(k)+2)
	q = append(append(append(q, '"'), k...), '"')
	if json.Unmarshal(q, &s) != nil {
		return string(k)
	}
	return s
}

// encodeObject writes members back as an object; nil values are left out
// (undefined in JavaScript).
func encodeObject(ms []kv) []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	first := true
	for _, m := range ms {
		if m.val == nil {
			continue
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		b.WriteByte('"')
		b.Write(m.key)
		b.WriteString(`":`)
		b.Write(m.val)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// withMember returns a copy of obj with key set to val (nil deletes it);
// an existing key keeps its place, a new one goes last.
func withMember(obj []byte, key string, val []byte) []byte {
	ms := members(obj)
	for i := range ms {
		if keyName(ms[i].key) == key {
			ms[i].val = val
			return encodeObject(ms)
		}
	}
	if val == nil {
		return encodeObject(ms)
	}
	return encodeObject(append(ms, kv{key: encodeKeyRaw(key), val: val}))
}

func encodeKeyRaw(k string) []byte {
	b := jsonString(k)
	return b[1 : len(b)-1]
}

// jsonString encodes s as a JSON string without HTML escaping; invalid
// UTF-8 becomes U+FFFD.
func jsonString(s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return bytes.TrimRight(b.Bytes(), "\n")
}

func trimWS(raw []byte) []byte { return bytes.Trim(raw, " \t\r\n") }

func isObject(raw []byte) bool {
	raw = trimWS(raw)
	return len(raw) > 0 && raw[0] == '{'
}

func isArray(raw []byte) bool {
	raw = trimWS(raw)
	return len(raw) > 0 && raw[0] == '['
}

// nullish is JavaScript's "== null": absent or null.
func nullish(raw []byte) bool { return raw == nil || string(trimWS(raw)) == "null" }

// elements returns the elements of a raw array (nil when not an array).
func elements(raw []byte) [][]byte {
	var out [][]byte
	jsonl.Elements(trimWS(raw), func(v []byte) bool {
		out = append(out, v)
		return true
	})
	return out
}

// encodeArray writes values as an array.
func encodeArray(vs [][]byte) []byte {
	var b bytes.Buffer
	b.WriteByte('[')
	for i, v := range vs {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(v)
	}
	b.WriteByte(']')
	return b.Bytes()
}

// strOf decodes a raw string value.
func strOf(raw []byte) (string, bool) { return jsonl.String(trimWS(raw)) }

// isStr reports whether raw is a string equal to s.
func isStr(raw []byte, s string) bool {
	v, ok := strOf(raw)
	return ok && v == s
}

// truthy is JavaScript truthiness of a raw value (absent is falsy).
func truthy(raw []byte) bool {
	if raw == nil {
		return false
	}
	return jsonl.Truthy(trimWS(raw))
}

// setKey is the identity of a value as a JavaScript Set or Map key for the
// primitive values ids are made of; objects never equal anything.
func setKey(raw []byte) (string, bool) {
	raw = trimWS(raw)
	if raw == nil {
		return "u", true
	}
	if s, ok := jsonl.KeyString(raw); ok { // lone surrogates kept, as JavaScript's strings keep them
		return "s" + s, true
	}
	if len(raw) > 0 && (raw[0] == '{' || raw[0] == '[') {
		return "", false
	}
	if f, err := strconv.ParseFloat(string(raw), 64); err == nil {
		return "n" + strconv.FormatFloat(f, 'g', -1, 64), true
	}
	return "l" + string(raw), true
}

// jsString is String(v) / template-literal interpolation of a raw value.
func jsString(raw []byte) string {
	raw = trimWS(raw)
	if raw == nil {
		return "undefined"
	}
	if s, ok := jsonl.String(raw); ok {
		return s
	}
	switch raw[0] {
	case '{':
		return "[object Object]"
	case '[':
		var parts []string
		for _, e := range elements(raw) {
			if nullish(e) {
				parts = append(parts, "")
			} else {
				parts = append(parts, jsString(e))
			}
		}
		return strings.Join(parts, ",")
	case 'n', 't', 'f':
		return string(raw)
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil {
		return string(raw)
	}
	return jsNumber(f)
}

// jsNumber formats a number as JavaScript's Number.prototype.toString.
func jsNumber(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0:
		return "0"
	}
	a := math.Abs(f)
	if a >= 1e-6 && a < 1e21 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	s := strconv.FormatFloat(f, 'e', -1, 64) // 1e+21, 1.5e-7
	mant, exp, _ := strings.Cut(s, "e")
	if exp[0] == '+' {
		return mant + "e+" + strings.TrimLeft(exp[1:], "0")
	}
	return mant + "e-" + strings.TrimLeft(exp[1:], "0")
}

// isJSSpace reports whether r is white space or a line terminator for
// String.prototype.trim.
func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

func jsTrim(s string) string      { return strings.TrimFunc(s, isJSSpace) }
func jsTrimEnd(s string) string   { return strings.TrimRightFunc(s, isJSSpace) }
func jsTrimStart(s string) string { return strings.TrimLeftFunc(s, isJSSpace) }
