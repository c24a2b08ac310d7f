package pi

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math/bits"
)

// maxDepth is the nesting limit, as in the jsonl reader (fastjson.MaxDepth):
// deeper values count as malformed.
const maxDepth = 300

// validJSON reports whether b is exactly one valid JSON value (RFC 8259,
// surrounding whitespace allowed), with nesting at most maxDepth. It accepts
// what JSON.parse accepts, except that it does not check UTF-8 (neither do
// the agents' decoders, which substitute U+FFFD). Strings are scanned eight
// bytes at a time, which makes it several times faster than a byte loop on
// session files, where almost all bytes are inside strings.
func validJSON(b []byte) bool {
	var v validator
	return v.scan(b)
}

// Members of a line that the listing looks at, captured while validating
// (the raw value bytes; the last occurrence of a repeated key wins, as in
// JSON.parse).
const (
	kType = iota
	kID
	kParentID
	kMessage
	kTimestamp
	kName
	kTitle
	kModel
	kCwd
	kParentSession
	nTop
)

var topKeys = [nTop]string{"type", "id", "parentId", "message", "timestamp", "name", "title", "model", "cwd", "parentSession"}

// Members of the "message" object.
const (
	mRole = iota
	mContent
	mTimestamp
	nMsg
)

var msgKeys = [nMsg]string{"role", "content", "timestamp"}

type validator struct {
	b   []byte
	i   int
	top [nTop][]byte
	msg [nMsg][]byte
}

// scan validates b as validJSON does and captures the top-level members
// named in topKeys and the members of a top-level "message" object named
// in msgKeys.
func (v *validator) scan(b []byte) bool {
	*v = validator{b: b}
	v.ws()
	if !v.value(0, capTop) {
		return false
	}
	v.ws()
	return v.i == len(v.b)
}

// Capture modes of an object.
const (
	capNone = iota
	capTop
	capMsg
)

func keyIndex(raw []byte, keys []string) int {
	for k, name := range keys {
		if string(raw) == name {
			return k
		}
	}
	if bytes.IndexByte(raw, '\\') >= 0 { // an escaped key: decode it
		var s string
		if json.Unmarshal(append(append([]byte{'"'}, raw...), '"'), &s) == nil {
			for k, name := range keys {
				if s == name {
					return k
				}
			}
		}
	}
	return -1
}

func (v *validator) ws() {
	for v.i < len(v.b) {
		switch v.b[v.i] {
		case ' ', '\t', '\r', '\n':
			v.i++
		default:
			return
		}
	}
}

func (v *validator) value(depth int, mode int) bool {
	if v.i >= len(v.b) {
		return false
	}
	switch c := v.b[v.i]; {
	case c == '{':
		if depth >= maxDepth {
			return false
		}
		v.i++
		v.ws()
		if v.i < len(v.b) && v.b[v.i] == '}' {
			v.i++
			return true
		}
		for {
			if v.i >= len(v.b) || v.b[v.i] != '"' {
				return false
			}
			ks := v.i
			if !v.str() {
				return false
			}
			slot, sub := -1, capNone
			switch mode {
			case capTop:
				slot = keyIndex(v.b[ks+1:v.i-1], topKeys[:])
				if slot == kMessage {
					v.msg = [nMsg][]byte{}
					sub = capMsg
				}
			case capMsg:
				slot = keyIndex(v.b[ks+1:v.i-1], msgKeys[:])
			}
			v.ws()
			if v.i >= len(v.b) || v.b[v.i] != ':' {
				return false
			}
			v.i++
			v.ws()
			vs := v.i
			if !v.value(depth+1, sub) {
				return false
			}
			if slot >= 0 {
				if mode == capTop {
					v.top[slot] = v.b[vs:v.i]
				} else {
					v.msg[slot] = v.b[vs:v.i]
				}
			}
			v.ws()
			if v.i >= len(v.b) {
				return false
			}
			switch v.b[v.i] {
			case ',':
				v.i++
				v.ws()
			case '}':
				v.i++
				return true
			default:
				return false
			}
		}
	case c == '[':
		if depth >= maxDepth {
			return false
		}
		v.i++
		v.ws()
		if v.i < len(v.b) && v.b[v.i] == ']' {
			v.i++
			return true
		}
		for {
			if !v.value(depth+1, capNone) {
				return false
			}
			v.ws()
			if v.i >= len(v.b) {
				return false
			}
			switch v.b[v.i] {
			case ',':
				v.i++
				v.ws()
			case ']':
				v.i++
				return true
			default:
				return false
			}
		}
	case c == '"':
		return v.str()
	case c == 't':
		return v.lit("true")
	case c == 'f':
		return v.lit("false")
	case c == 'n':
		return v.lit("null")
	case c == '-' || (c >= '0' && c <= '9'):
		return v.num()
	}
	return false
}

func (v *validator) lit(s string) bool {
	if len(v.b)-v.i >= len(s) && string(v.b[v.i:v.i+len(s)]) == s {
		v.i += len(s)
		return true
	}
	return false
}

func digit(c byte) bool { return c >= '0' && c <= '9' }

func (v *validator) num() bool {
	b := v.b
	if b[v.i] == '-' {
		v.i++
	}
	if v.i >= len(b) {
		return false
	}
	switch {
	case b[v.i] == '0':
		v.i++
	case digit(b[v.i]):
		for v.i < len(b) && digit(b[v.i]) {
			v.i++
		}
	default:
		return false
	}
	if v.i < len(b) && b[v.i] == '.' {
		v.i++
		if v.i >= len(b) || !digit(b[v.i]) {
			return false
		}
		for v.i < len(b) && digit(b[v.i]) {
			v.i++
		}
	}
	if v.i < len(b) && (b[v.i] == 'e' || b[v.i] == 'E') {
		v.i++
		if v.i < len(b) && (b[v.i] == '+' || b[v.i] == '-') {
			v.i++
		}
		if v.i >= len(b) || !digit(b[v.i]) {
			return false
		}
		for v.i < len(b) && digit(b[v.i]) {
			v.i++
		}
	}
	return true
}

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// str validates the string starting at b[i] == '"'. It looks at eight
// bytes at a time for the first '"', '\\' or control character (word tricks
// whose lowest hit is exact), so long runs and dense escapes are both cheap.
func (v *validator) str() bool {
	b := v.b
	i := v.i + 1
	for {
		for i+8 <= len(b) {
			x := binary.LittleEndian.Uint64(b[i:])
			q := x ^ (lsb * '"')
			s := x ^ (lsb * '\\')
			t := ((x-lsb*0x20)&^x | (q-lsb)&^q | (s-lsb)&^s) & msb
			if t != 0 {
				i += bits.TrailingZeros64(t) >> 3
				break
			}
			i += 8
		}
		for i < len(b) && b[i] != '"' && b[i] != '\\' && b[i] >= 0x20 {
			i++
		}
		if i >= len(b) {
			return false
		}
		switch c := b[i]; {
		case c == '"':
			v.i = i + 1
			return true
		case c < 0x20:
			return false
		}
		// an escape
		if i+1 >= len(b) {
			return false
		}
		switch b[i+1] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			i += 2
		case 'u':
			if i+6 > len(b) {
				return false
			}
			for _, h := range b[i+2 : i+6] {
				if !(digit(h) || (h >= 'a' && h <= 'f') || (h >= 'A' && h <= 'F')) {
					return false
				}
			}
			i += 6
		default:
			return false
		}
	}
}
