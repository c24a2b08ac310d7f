package jsonl

import (
	"bytes"
	"encoding/binary"
	"math/bits"
)

// streamScanner validates one JSON text fed to it in pieces, exactly as
// Scanner.Scan validates it whole, and captures the same members. It holds
// no part of the text but the captured values: it is how the Reader reads a
// line longer than its long-line limit without keeping it (a 200 MB line
// costs a few kilobytes). It runs byte by byte outside strings, so it is
// slower than Scanner (strings, most of a long line, are skipped eight bytes
// at a time); FuzzStreamScanner holds the two equal.
//
// One difference: the raw value of the Top member that holds the Sub object
// (e.g. "message") is not kept, only its Sub captures are: it is what makes
// a line long.
type streamScanner struct {
	f       *Capture
	subSlot int
	// keepTop and keepSub, when above 0, capture only the first keepTop
	// Top and keepSub SubKeys members (ParallelOptions.LongTop, LongSub).
	keepTop, keepSub int

	stack []byte // open containers, '{' or '['
	st    uint8
	lit   string // literal being matched, and the next byte of it
	litI  int
	uHex  int // hex digits still expected in a \u escape

	// key collection: the raw bytes of the current member key when it is a
	// member of the top object or of the Sub object
	isKey   bool
	keyOn   bool
	key     []byte
	keyOver bool

	pending     int // capture slot for the next value (-1: none)
	pendingMode int
	pendingSub  bool // the next value, if an object, is the Sub object
	subDepth    int  // stack depth of the open Sub object (0: none)

	capOn    bool
	capDepth int
	capSlot  int
	capMode  int
	capBuf   []byte
	capMax   int  // keep at most this many bytes of a captured value (0: all)
	capOver  bool // the value being captured went over capMax
	subFirst byte // the first byte of the Sub member's value (0: no such member)

	// TopClipped and SubClipped mark the captures cut to capMax bytes.
	TopClipped []bool
	SubClipped []bool

	object  bool // the text is an object
	nonWS   bool // a byte other than white space was seen
	hasNUL  bool
	Top     [][]byte
	Sub     [][]byte
	started bool
}

const (
	sBeginValue = iota
	sBeginValueOrEnd
	sBeginKeyOrEnd
	sBeginKey
	sAfterKey
	sAfterValue
	sEnd
	sString
	sEsc
	sU
	sNeg
	sZero
	sInt
	sDot
	sFrac
	sE
	sESign
	sExp
	sLit
	sError
)

// maxKey is the longest key compared with the capture names (an escaped
// form of any of them is far shorter).
const maxKey = 1024

func newStreamScanner(f *Capture) *streamScanner {
	if f == nil {
		f = &Capture{}
	}
	s := &streamScanner{f: f, subSlot: -1, Top: make([][]byte, len(f.Top)), Sub: make([][]byte, len(f.SubKeys))}
	for k, name := range f.Top {
		if name == f.Sub && f.Sub != "" {
			s.subSlot = k
		}
	}
	s.reset()
	return s
}

func (s *streamScanner) reset() {
	s.stack = s.stack[:0]
	s.st = sBeginValue
	s.pending, s.pendingSub, s.subDepth = -1, false, 0
	s.capOn, s.keyOn, s.keyOver = false, false, false
	s.object, s.nonWS, s.hasNUL, s.started = false, false, false, false
	clear(s.Top)
	clear(s.Sub)
	clear(s.TopClipped)
	clear(s.SubClipped)
	s.subFirst = 0
}

// capAppend adds bytes to the value being captured, up to capMax.
func (s *streamScanner) capAppend(b ...byte) {
	if s.capMax > 0 && len(s.capBuf)+len(b) > s.capMax {
		s.capOver = true
		b = b[:max(0, s.capMax-len(s.capBuf))]
	}
	s.capBuf = append(s.capBuf, b...)
}

// Write feeds the next piece of the text.
func (s *streamScanner) Write(b []byte) {
	for i := 0; i < len(b); {
		if s.st == sError {
			// Only a NUL byte can still change the verdict (NUL run).
			s.nonWS = true
			if bytes.IndexByte(b[i:], 0) >= 0 {
				s.hasNUL = true
			}
			return
		}
		if s.st == sString {
			// Skip plain string bytes eight at a time, as Scanner.str does.
			j := i
			for j+8 <= len(b) {
				x := binary.LittleEndian.Uint64(b[j:])
				q := x ^ (lsb * '"')
				e := x ^ (lsb * '\\')
				t := ((x-lsb*0x20)&^x | (q-lsb)&^q | (e-lsb)&^e) & msb
				if t != 0 {
					j += bits.TrailingZeros64(t) >> 3
					break
				}
				j += 8
			}
			for j < len(b) && b[j] != '"' && b[j] != '\\' && b[j] >= 0x20 {
				j++
			}
			if j > i {
				s.plain(b[i:j])
				i = j
				continue
			}
		}
		s.step(b[i])
		i++
	}
}

// plain takes string bytes that need no decision.
func (s *streamScanner) plain(b []byte) {
	if s.capOn {
		s.capAppend(b...)
	}
	if s.keyOn {
		s.addKey(b...)
	}
}

func (s *streamScanner) addKey(b ...byte) {
	if len(s.key)+len(b) > maxKey {
		s.keyOver = true
		return
	}
	s.key = append(s.key, b...)
}

func isWS(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

func (s *streamScanner) step(c byte) {
	if c == 0 {
		s.hasNUL = true
	}
	if !isWS(c) {
		s.nonWS = true
	}
	// A number ends at the first byte that cannot continue it; that byte
	// then belongs to what follows the number.
	switch s.st {
	case sZero, sInt, sFrac, sExp:
		if !s.numCont(c) {
			s.valueDone()
		}
	}
	if s.capOn {
		s.capAppend(c)
	}
	switch s.st {
	case sBeginValue, sBeginValueOrEnd:
		if isWS(c) {
			return
		}
		if s.st == sBeginValueOrEnd && c == ']' {
			s.close('[')
			return
		}
		s.beginValue(c)
	case sBeginKeyOrEnd, sBeginKey:
		switch {
		case isWS(c):
		case c == '}' && s.st == sBeginKeyOrEnd:
			s.close('{')
		case c == '"':
			s.st, s.isKey = sString, true
			d := len(s.stack)
			s.keyOn = d == 1 || (s.subDepth > 0 && d == s.subDepth)
			s.key, s.keyOver = s.key[:0], false
		default:
			s.st = sError
		}
	case sAfterKey:
		switch {
		case isWS(c):
		case c == ':':
			s.st = sBeginValue
		default:
			s.st = sError
		}
	case sAfterValue:
		top := s.stack[len(s.stack)-1]
		switch {
		case isWS(c):
		case c == ',' && top == '{':
			s.st = sBeginKey
		case c == ',':
			s.st = sBeginValue
		case c == '}' || c == ']':
			s.close(c - 2) // '}'-2 == '{', ']'-2 == '['
		default:
			s.st = sError
		}
	case sEnd:
		if !isWS(c) {
			s.st = sError
		}
	case sString:
		switch {
		case c == '"':
			if s.isKey {
				s.endKey()
			} else {
				s.valueDone()
			}
		case c == '\\':
			s.st = sEsc
			if s.keyOn {
				s.addKey(c)
			}
		case c < 0x20:
			s.st = sError
		default: // reached only when plain could not take it (never in practice)
			if s.keyOn {
				s.addKey(c)
			}
		}
	case sEsc:
		switch c {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			s.st = sString
		case 'u':
			s.st, s.uHex = sU, 4
		default:
			s.st = sError
			return
		}
		if s.keyOn {
			s.addKey(c)
		}
	case sU:
		if !(isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')) {
			s.st = sError
			return
		}
		if s.keyOn {
			s.addKey(c)
		}
		if s.uHex--; s.uHex == 0 {
			s.st = sString
		}
	case sNeg:
		switch {
		case c == '0':
			s.st = sZero
		case isDigit(c):
			s.st = sInt
		default:
			s.st = sError
		}
	case sZero, sInt, sFrac, sExp:
		// numCont said c continues the number
		switch {
		case c == '.':
			s.st = sDot
		case c == 'e' || c == 'E':
			s.st = sE
		}
	case sDot:
		if isDigit(c) {
			s.st = sFrac
		} else {
			s.st = sError
		}
	case sE:
		switch {
		case c == '+' || c == '-':
			s.st = sESign
		case isDigit(c):
			s.st = sExp
		default:
			s.st = sError
		}
	case sESign:
		if isDigit(c) {
			s.st = sExp
		} else {
			s.st = sError
		}
	case sLit:
		if c != s.lit[s.litI] {
			s.st = sError
			return
		}
		if s.litI++; s.litI == len(s.lit) {
			s.valueDone()
		}
	}
}

// numCont reports whether c continues the number in state s.st.
func (s *streamScanner) numCont(c byte) bool {
	switch s.st {
	case sZero:
		return c == '.' || c == 'e' || c == 'E'
	case sInt:
		return isDigit(c) || c == '.' || c == 'e' || c == 'E'
	case sFrac:
		return isDigit(c) || c == 'e' || c == 'E'
	}
	return isDigit(c) // sExp
}

func (s *streamScanner) beginValue(c byte) {
	if !s.started {
		s.started = true
		s.object = c == '{'
	}
	sub := s.pendingSub
	s.pendingSub = false
	if sub {
		s.subFirst = c
	}
	if s.pending >= 0 {
		s.capOn, s.capDepth, s.capSlot, s.capMode = true, len(s.stack), s.pending, s.pendingMode
		s.capBuf = append(s.capBuf[:0], c)
		s.capOver = false
		s.pending = -1
	}
	switch {
	case c == '{' || c == '[':
		if len(s.stack) >= MaxDepth {
			s.st = sError
			return
		}
		s.stack = append(s.stack, c)
		if c == '{' {
			s.st = sBeginKeyOrEnd
			if sub {
				s.subDepth = len(s.stack)
			}
		} else {
			s.st = sBeginValueOrEnd
		}
	case c == '"':
		s.st, s.isKey, s.keyOn = sString, false, false
	case c == 't':
		s.st, s.lit, s.litI = sLit, "true", 1
	case c == 'f':
		s.st, s.lit, s.litI = sLit, "false", 1
	case c == 'n':
		s.st, s.lit, s.litI = sLit, "null", 1
	case c == '-':
		s.st = sNeg
	case c == '0':
		s.st = sZero
	case isDigit(c):
		s.st = sInt
	default:
		s.st = sError
	}
}

// close closes the innermost container if it is open.
func (s *streamScanner) close(open byte) {
	n := len(s.stack)
	if n == 0 || s.stack[n-1] != open {
		s.st = sError
		return
	}
	if open == '{' && s.subDepth == n {
		s.subDepth = 0
	}
	s.stack = s.stack[:n-1]
	s.valueDone()
}

// valueDone ends the value that just completed.
func (s *streamScanner) valueDone() {
	if s.capOn && len(s.stack) == s.capDepth {
		s.capOn = false
		v := append([]byte(nil), s.capBuf...)
		if s.capMode == capTop {
			s.Top[s.capSlot] = v
			if s.TopClipped != nil {
				s.TopClipped[s.capSlot] = s.capOver
			}
		} else {
			s.Sub[s.capSlot] = v
			if s.SubClipped != nil {
				s.SubClipped[s.capSlot] = s.capOver
			}
		}
	}
	if len(s.stack) == 0 {
		s.st = sEnd
	} else {
		s.st = sAfterValue
	}
}

// endKey ends a member key: the next value is captured when the key names
// a captured member.
func (s *streamScanner) endKey() {
	s.st = sAfterKey
	if !s.keyOn {
		return
	}
	s.keyOn = false
	if s.keyOver {
		return
	}
	if len(s.stack) == 1 {
		slot := keyIndex(s.key, s.f.Top, bytes.IndexByte(s.key, '\\') >= 0)
		if slot >= 0 && slot == s.subSlot {
			clear(s.Sub)
			clear(s.SubClipped)
			s.Top[slot] = nil
			s.pendingSub = true
			return
		}
		if s.keepTop > 0 && slot >= s.keepTop {
			slot = -1
		}
		s.pending, s.pendingMode = slot, capTop
		return
	}
	slot := keyIndex(s.key, s.f.SubKeys, bytes.IndexByte(s.key, '\\') >= 0)
	if s.keepSub > 0 && slot >= s.keepSub {
		slot = -1
	}
	s.pending, s.pendingMode = slot, capSub
}

// Close ends the text and reports whether it was exactly one valid JSON
// value (white space around it allowed).
func (s *streamScanner) Close() bool {
	switch s.st {
	case sZero, sInt, sFrac, sExp:
		s.valueDone()
	}
	return s.st == sEnd
}
