package jsonl

import (
	"encoding/binary"
	"encoding/json"
	"math/bits"
)

// MaxDepth is the nesting limit: deeper values count as malformed (as with
// fastjson.MaxDepth), so validation cannot exhaust the stack.
const MaxDepth = 300

// Capture names the members a Scanner picks out of an object while it
// validates it: top-level members, and the members of one top-level object
// member (e.g. "message"). Sub must also be listed in Top.
type Capture struct {
	Top     []string
	Sub     string
	SubKeys []string
}

// Scanner validates JSON exactly as JSON.parse accepts it (RFC 8259; UTF-8
// is not checked, as the agents' decoders substitute U+FFFD) and captures
// the raw bytes of the members named in its Capture, in one pass and without
// building a tree. Strings are scanned eight bytes at a time, so a line is
// read about once. Captures are valid until the next Scan; a repeated key
// resolves to its last occurrence, as in JSON.parse.
type Scanner struct {
	f       *Capture
	subSlot int
	b       []byte
	i       int
	object  bool
	esc     bool     // the last string scanned held an escape
	Top     [][]byte // raw values of f.Top members (nil when absent)
	Sub     [][]byte // raw values of f.SubKeys members of the Sub object
}

// NewScanner returns a scanner capturing f (nil: validate only).
func NewScanner(f *Capture) *Scanner {
	if f == nil {
		f = &Capture{}
	}
	s := &Scanner{f: f, subSlot: -1, Top: make([][]byte, len(f.Top)), Sub: make([][]byte, len(f.SubKeys))}
	for k, name := range f.Top {
		if name == f.Sub && f.Sub != "" {
			s.subSlot = k
		}
	}
	return s
}

// Scan validates b as exactly one JSON value (surrounding whitespace
// allowed) and captures the named members when it is an object.
func (s *Scanner) Scan(b []byte) bool {
	s.b, s.i, s.object = b, 0, false
	clear(s.Top)
	clear(s.Sub)
	s.ws()
	if s.i < len(b) && b[s.i] == '{' {
		s.object = true
	}
	if !s.value(0, capTop) {
		return false
	}
	s.ws()
	return s.i == len(s.b)
}

// IsObject reports whether the last valid Scan was of an object.
func (s *Scanner) IsObject() bool { return s.object }

const (
	capNone = iota
	capTop
	capSub
)

// keyIndex returns the index of the key raw (its bytes between the quotes)
// in keys, or -1; escaped says whether raw holds an escape.
func keyIndex(raw []byte, keys []string, escaped bool) int {
	for k, name := range keys {
		if string(raw) == name {
			return k
		}
	}
	if escaped { // an escaped key: decode it
		var str string
		if json.Unmarshal(append(append([]byte{'"'}, raw...), '"'), &str) == nil {
			for k, name := range keys {
				if str == name {
					return k
				}
			}
		}
	}
	return -1
}

func (s *Scanner) ws() {
	for s.i < len(s.b) {
		// Compact JSON has no white space: one test for every byte above it.
		if c := s.b[s.i]; c > ' ' || (c != ' ' && c != '\t' && c != '\r' && c != '\n') {
			return
		}
		s.i++
	}
}

func (s *Scanner) value(depth int, mode int) bool {
	if s.i >= len(s.b) {
		return false
	}
	switch c := s.b[s.i]; {
	case c == '{':
		if depth >= MaxDepth {
			return false
		}
		s.i++
		s.ws()
		if s.i < len(s.b) && s.b[s.i] == '}' {
			s.i++
			return true
		}
		for {
			if s.i >= len(s.b) || s.b[s.i] != '"' {
				return false
			}
			ks := s.i
			if !s.str() {
				return false
			}
			slot, sub := -1, capNone
			switch mode {
			case capTop:
				slot = keyIndex(s.b[ks+1:s.i-1], s.f.Top, s.esc)
				if slot >= 0 && slot == s.subSlot {
					clear(s.Sub)
					sub = capSub
				}
			case capSub:
				slot = keyIndex(s.b[ks+1:s.i-1], s.f.SubKeys, s.esc)
			}
			s.ws()
			if s.i >= len(s.b) || s.b[s.i] != ':' {
				return false
			}
			s.i++
			s.ws()
			vs := s.i
			if !s.value(depth+1, sub) {
				return false
			}
			if slot >= 0 {
				if mode == capTop {
					s.Top[slot] = s.b[vs:s.i]
				} else {
					s.Sub[slot] = s.b[vs:s.i]
				}
			}
			s.ws()
			if s.i >= len(s.b) {
				return false
			}
			switch s.b[s.i] {
			case ',':
				s.i++
				s.ws()
			case '}':
				s.i++
				return true
			default:
				return false
			}
		}
	case c == '[':
		if depth >= MaxDepth {
			return false
		}
		s.i++
		s.ws()
		if s.i < len(s.b) && s.b[s.i] == ']' {
			s.i++
			return true
		}
		for {
			if !s.value(depth+1, capNone) {
				return false
			}
			s.ws()
			if s.i >= len(s.b) {
				return false
			}
			switch s.b[s.i] {
			case ',':
				s.i++
				s.ws()
			case ']':
				s.i++
				return true
			default:
				return false
			}
		}
	case c == '"':
		return s.str()
	case c == 't':
		return s.lit("true")
	case c == 'f':
		return s.lit("false")
	case c == 'n':
		return s.lit("null")
	case c == '-' || (c >= '0' && c <= '9'):
		return s.num()
	}
	return false
}

func (s *Scanner) lit(w string) bool {
	if len(s.b)-s.i >= len(w) && string(s.b[s.i:s.i+len(w)]) == w {
		s.i += len(w)
		return true
	}
	return false
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func (s *Scanner) num() bool {
	b := s.b
	if b[s.i] == '-' {
		s.i++
	}
	if s.i >= len(b) {
		return false
	}
	switch {
	case b[s.i] == '0':
		s.i++
	case isDigit(b[s.i]):
		for s.i < len(b) && isDigit(b[s.i]) {
			s.i++
		}
	default:
		return false
	}
	if s.i < len(b) && b[s.i] == '.' {
		s.i++
		if s.i >= len(b) || !isDigit(b[s.i]) {
			return false
		}
		for s.i < len(b) && isDigit(b[s.i]) {
			s.i++
		}
	}
	if s.i < len(b) && (b[s.i] == 'e' || b[s.i] == 'E') {
		s.i++
		if s.i < len(b) && (b[s.i] == '+' || b[s.i] == '-') {
			s.i++
		}
		if s.i >= len(b) || !isDigit(b[s.i]) {
			return false
		}
		for s.i < len(b) && isDigit(b[s.i]) {
			s.i++
		}
	}
	return true
}

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// special returns, in the high bit of each byte of the little-endian word
// x, a mask whose lowest set bit marks the first byte of x that is '"',
// '\\' or below 0x20 (0 when there is none; bits above the first may be
// false positives, as borrows run upward). Bytes of 0x80 and more never
// match, and x^'"' and x^'\\' have the high bit of x, so one &^x serves
// the three tests.
func special(x uint64) uint64 {
	q := x ^ (lsb * '"')
	e := x ^ (lsb * '\\')
	return ((x - lsb*0x20) | (q - lsb) | (e - lsb)) &^ x & msb
}

// str validates the string starting at b[i] == '"', eight bytes at a time
// (special) up to each '"', '\\' or control character.
func (s *Scanner) str() bool {
	b := s.b
	i := s.i + 1
	s.esc = false
	for {
		if i+8 <= len(b) {
			t := special(binary.LittleEndian.Uint64(b[i:]))
			if t == 0 {
				i += 8
				continue
			}
			i += bits.TrailingZeros64(t) >> 3
		} else {
			for i < len(b) && b[i] != '"' && b[i] != '\\' && b[i] >= 0x20 {
				i++
			}
			if i >= len(b) {
				return false
			}
		}
		if b[i] == '"' {
			s.i = i + 1
			return true
		}
		if b[i] != '\\' || i+1 >= len(b) { // a control character, or a cut escape
			return false
		}
		s.esc = true
		switch escapes[b[i+1]] {
		case 2:
			i += 2
		case 6:
			if i+6 > len(b) {
				return false
			}
			for _, h := range b[i+2 : i+6] {
				if !(isDigit(h) || (h >= 'a' && h <= 'f') || (h >= 'A' && h <= 'F')) {
					return false
				}
			}
			i += 6
		default:
			return false
		}
	}
}

// escapes gives, for the byte after a backslash, the length of the escape
// it starts (0: not an escape).
var escapes = [256]uint8{'"': 2, '\\': 2, '/': 2, 'b': 2, 'f': 2, 'n': 2, 'r': 2, 't': 2, 'u': 6}
