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
	// Elems, when set, names a member of SubKeys whose value, when it is
	// an array, has the ElemKeys members of each of its object elements
	// captured too: appended to Scanner.Sub after the SubKeys slots,
	// len(ElemKeys) slots per object element (other elements get none),
	// in order, nil when absent; a repeated key resolves to its last
	// occurrence, and a repeated Elems member keeps only the elements of
	// the last. Only Scanner captures them (not the streaming scanner of
	// lines longer than a chunk).
	Elems    string
	ElemKeys []string
}

// Scanner validates one line of JSON Lines exactly as JSON.parse accepts
// it (RFC 8259; UTF-8 is not checked, as the agents' decoders substitute
// U+FFFD) and captures the raw bytes of the members named in its Capture,
// in one pass and without building a tree. A line holds no '\n' (lines are
// split at '\n', and a JSON value never needs one: in a string it must be
// escaped), so a '\n' is not white space to a Scanner: an input holding a
// '\n' anywhere is rejected, pretty-printed JSON included, which JSON.parse
// of a single line never sees. A scan thus never goes past a line's end. Strings are scanned 64 bytes a step with AVX2 on amd64
// (scanstr_amd64.s), eight bytes a step elsewhere, so a line is read about
// once. Captures are valid until the next Scan; a repeated key
// resolves to its last occurrence, as in JSON.parse.
type Scanner struct {
	f        *Capture
	top      keyTable // f.Top
	sub      keyTable // f.SubKeys
	elem     keyTable // f.ElemKeys
	subSlot  int
	elemSlot int // index of f.Elems in f.SubKeys (-1: none)
	nSub     int // len(f.SubKeys)
	object   bool
	Top      [][]byte // raw values of f.Top members (nil when absent)
	// Sub holds the raw values of the f.SubKeys members of the Sub object,
	// then those of the f.ElemKeys members of each object element of its
	// f.Elems array.
	Sub [][]byte

	tabs [8]*keyTable // by capture mode: &top, &sub, &elem; nil: none
}

// NewScanner returns a scanner capturing f (nil: validate only).
func NewScanner(f *Capture) *Scanner {
	if f == nil {
		f = &Capture{}
	}
	s := &Scanner{f: f, subSlot: -1, elemSlot: -1, nSub: len(f.SubKeys), Top: make([][]byte, len(f.Top)), Sub: make([][]byte, len(f.SubKeys))}
	s.top, s.sub = newKeyTable(f.Top), newKeyTable(f.SubKeys)
	s.tabs[capTop], s.tabs[capSub], s.tabs[capElem] = &s.top, &s.sub, &s.elem
	for k, name := range f.Top {
		if name == f.Sub && f.Sub != "" {
			s.subSlot = k
		}
	}
	if f.Elems != "" && len(f.ElemKeys) > 0 {
		for k, name := range f.SubKeys {
			if name == f.Elems {
				s.elemSlot = k
			}
		}
		if s.elemSlot >= 0 {
			s.Sub = make([][]byte, s.nSub, s.nSub+8*len(f.ElemKeys))
			s.elem = newKeyTable(f.ElemKeys)
		}
	}
	return s
}

// Scan validates b, one line without its '\n', as exactly one JSON value
// (surrounding ' ', '\t' and '\r' allowed) and captures the named members
// when it is an object. A '\n' anywhere in b makes it invalid (see
// Scanner): b is taken for one line of JSON Lines, not a JSON text.
func (s *Scanner) Scan(b []byte) bool {
	s.object = false
	clear(s.Top)
	s.Sub = s.Sub[:s.nSub]
	clear(s.Sub)
	i := skipSpace(b, 0)
	if i < len(b) && b[i] == '{' {
		s.object = true
	}
	i, ok := s.value(b, i, 0, capTop)
	return ok && skipSpace(b, i) == len(b)
}

// IsObject reports whether the last valid Scan was of an object.
func (s *Scanner) IsObject() bool { return s.object }

const (
	capNone  = iota
	capTop   // the line's object: f.Top
	capSub   // the Sub object: f.SubKeys
	capElems // the Elems array: its object elements are capElem
	capElem  // an element of the Elems array: f.ElemKeys
)

// keyIndex returns the index of the key raw (its bytes between the quotes)
// in keys, or -1; escaped says whether raw holds an escape.
func keyIndex(raw []byte, keys []string, escaped bool) int {
	if !escaped {
		for k, name := range keys {
			if string(raw) == name {
				return k
			}
		}
	} else { // an escaped key: only what it decodes to counts
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

// elemSlots appends the nil slots of an element's ElemKeys captures to
// s.Sub and returns the first one's index: in place when s.Sub has room
// (it keeps the capacity it grew to), without the clearing call and bulk
// write barrier of an append of a made slice.
func (s *Scanner) elemSlots() int {
	base, n := len(s.Sub), len(s.f.ElemKeys)
	if base+n > cap(s.Sub) {
		s.Sub = append(s.Sub, make([][]byte, n)...)
		return base
	}
	s.Sub = s.Sub[:base+n]
	for k := base; k < base+n; k++ {
		s.Sub[k] = nil
	}
	return base
}

// keyTable finds a key of up to 15 bytes without escapes among names by
// its length and its first two little-endian words, as keyIndex does.
type keyTable struct {
	names []string
	ents  []keyWords // the names of up to 15 bytes, by length, in order
	start [17]uint16 // ents[start[n]:start[n+1]] are of length n
}

type keyWords struct {
	w0, w1 uint64
	slot   int
}

func newKeyTable(names []string) keyTable {
	t := keyTable{names: names}
	for n := 0; n < 16; n++ {
		t.start[n] = uint16(len(t.ents))
		for k, name := range names {
			if len(name) == n {
				var w [16]byte
				copy(w[:], name)
				t.ents = append(t.ents, keyWords{binary.LittleEndian.Uint64(w[:]), binary.LittleEndian.Uint64(w[8:]), k})
			}
		}
	}
	t.start[16] = uint16(len(t.ents))
	return t
}

// lowBytes[n] is the mask of the low n bytes of a word (n up to 8), and
// highWord[n] that of the bytes of a key of n bytes (n < 16) in its second
// word.
var lowBytes, highWord = func() (lo [9]uint64, hi [16]uint64) {
	for n := 0; n <= 8; n++ {
		lo[n] = 1<<(8*n) - 1
	}
	lo[8] = ^uint64(0)
	for n := 9; n < 16; n++ {
		hi[n] = lo[n-8]
	}
	return lo, hi
}()

// find returns the index in t.names of the key of n bytes (0 <= n < 16, no
// escape) whose bytes begin the words w0 and w1 (w1 is read only when n
// is above 8), or -1.
func (t *keyTable) find(n int, w0, w1 uint64) int {
	n &= 15
	w0 &= lowBytes[min(n, 8)]
	w1 &= highWord[n]
	for _, e := range t.ents[t.start[n]:t.start[n+1]] { // one bounds check
		if e.w0 == w0 && e.w1 == w1 {
			return e.slot
		}
	}
	return -1
}

// skipSpace returns the index of the first byte of b at or after i that is
// not ' ', '\t' or '\r'. A '\n' is not white space to a Scanner, which
// scans one line of JSON Lines at a time (see Scanner): the scan stops at
// it, and fails there, as the line it would go past ends.
func skipSpace(b []byte, i int) int {
	for uint(i) < uint(len(b)) { // uint: b[i] needs no bounds check
		// Compact JSON has no white space: one test for every byte above it.
		if c := b[i]; c > ' ' || (c != ' ' && c != '\t' && c != '\r') {
			return i
		}
		i++
	}
	return i
}

// scanLine is Scan for the line of b starting at b[i] (past a BOM), whose
// end it finds itself: when the line holds a valid value, with only ' ',
// '\t' or '\r' before and after it, it returns the index of the '\n' that
// ends the line (len(b) when none) and ok, with the captures Scan gives
// for the line's bytes. The value is scanned over the rest of b, which
// gives the verdict of the line alone: the scan reads ahead of a token
// (keyShort, stringShort, the AVX2 string scan, digits) only up to a
// control byte, and goes past none: a '\n' is no byte of any token nor
// white space (skipSpace), so a line whose value does not end before its
// '\n' fails there, without a look at the next line. When !ok, the line
// must be found and scanned again (classifyScan) for its kind.
func (s *Scanner) scanLine(b []byte, i int) (end int, ok bool) {
	s.object = false
	clear(s.Top)
	s.Sub = s.Sub[:s.nSub]
	clear(s.Sub)
	i = skipSpace(b, i)
	if uint(i) < uint(len(b)) && b[i] == '{' {
		s.object = true
	}
	if i, ok = s.value(b, i, 0, capTop); !ok {
		return i, false
	}
	i = skipSpace(b, i)
	return i, i == len(b) || b[i] == '\n'
}

// value validates the value starting at b[i] and returns the index just
// past it. The position is passed and returned rather than kept in the
// Scanner so that it stays in a register. The members and elements that
// are strings, numbers or literals are validated in the loops themselves,
// without a call to value: most are (a pi line has some 20 strings and 6
// numbers to 5 objects), and each call costs more than the check.
func (s *Scanner) value(b []byte, i, depth, mode int) (int, bool) {
	if uint(i) >= uint(len(b)) {
		return i, false
	}
	var ok bool
	switch c := b[i]; {
	case c == '{':
		if depth >= MaxDepth {
			return i, false
		}
		i = skipSpace(b, i+1)
		base := 0 // capElem: the element's first slot in s.Sub
		if mode == capElem {
			base = s.elemSlots()
		}
		if uint(i) < uint(len(b)) && b[i] == '}' {
			return i + 1, true
		}
		tab := s.tabs[mode&7] // nil: no member of this object is captured
		for {
			if uint(i) >= uint(len(b)) || b[i] != '"' {
				return i, false
			}
			sub := capNone
			e, slot := keyShort(b, i, tab)
			if e > 0 {
				i = e
			} else if i, slot, ok = scanKey(b, i, tab); !ok {
				return i, false
			}
			if slot >= 0 {
				switch {
				case mode == capTop && slot == s.subSlot:
					s.Sub = s.Sub[:s.nSub]
					clear(s.Sub)
					sub = capSub
				case mode == capSub && slot == s.elemSlot:
					s.Sub = s.Sub[:s.nSub] // the elements of an earlier one go
					sub = capElems
				}
			}
			i = skipSpace(b, i)
			if uint(i) >= uint(len(b)) || b[i] != ':' {
				return i, false
			}
			i = skipSpace(b, i+1)
			vs := i
			if uint(i) >= uint(len(b)) {
				return i, false
			}
			switch c := b[i]; {
			case c == '"':
				if e := stringShort(b, i); e > 0 {
					i = e
				} else if i, ok = scanStringMember(b, -e); !ok {
					return i, false
				}
			case c >= '1' && c <= '9':
				if i, ok = scanPositive(b, i); !ok {
					return i, false
				}
			case c == '-' || c == '0':
				if i, ok = scanNumber(b, i); !ok {
					return i, false
				}
			default:
				if sub == capNone {
					i, ok = skipFree(b, i, depth+1)
				} else {
					i, ok = s.value(b, i, depth+1, sub)
				}
				if !ok {
					return i, false
				}
			}
			if slot >= 0 {
				switch mode {
				case capTop:
					s.Top[slot] = b[vs:i]
				case capSub:
					s.Sub[slot] = b[vs:i]
				default:
					s.Sub[base+slot] = b[vs:i]
				}
			}
			i = skipSpace(b, i)
			if uint(i) >= uint(len(b)) {
				return i, false
			}
			switch b[i] {
			case ',':
				i = skipSpace(b, i+1)
			case '}':
				return i + 1, true
			default:
				return i, false
			}
		}
	case c == '[':
		if depth >= MaxDepth {
			return i, false
		}
		i = skipSpace(b, i+1)
		if uint(i) < uint(len(b)) && b[i] == ']' {
			return i + 1, true
		}
		elem := capNone
		if mode == capElems {
			elem = capElem
		}
		for {
			if uint(i) >= uint(len(b)) {
				return i, false
			}
			switch c := b[i]; {
			case c == '"':
				if e := stringShort(b, i); e > 0 {
					i = e
				} else if i, ok = scanStringMember(b, -e); !ok {
					return i, false
				}
			case c >= '1' && c <= '9':
				if i, ok = scanPositive(b, i); !ok {
					return i, false
				}
			default:
				if elem == capNone {
					i, ok = skipFree(b, i, depth+1)
				} else {
					i, ok = s.value(b, i, depth+1, elem)
				}
				if !ok {
					return i, false
				}
			}
			i = skipSpace(b, i)
			if uint(i) >= uint(len(b)) {
				return i, false
			}
			switch b[i] {
			case ',':
				i = skipSpace(b, i+1)
			case ']':
				return i + 1, true
			default:
				return i, false
			}
		}
	case c == '"':
		i, _, ok = scanString(b, i)
		return i, ok
	case c == 't':
		return lit(b, i, "true")
	case c == 'f':
		return lit(b, i, "false")
	case c == 'n':
		return lit(b, i, "null")
	case c == '-' || (c >= '0' && c <= '9'):
		return scanNumber(b, i)
	}
	return i, false
}

// skipFree validates the value starting at b[i] as value does, when
// nothing in it is captured (mode capNone: usage, cost, tool arguments and
// the like): a loop of its own, without the capture bookkeeping, whose
// keys are scanned as string values (stringShort) and looked up nowhere,
// and with fewer values live across its calls than value has. Its member
// and element loops are value's without the captures, kept apart on
// purpose (folding them into one loop spilled registers and cost 4-6 %);
// FuzzScanner and FuzzScanBase hold both to encoding/json.
func skipFree(b []byte, i, depth int) (int, bool) {
	if uint(i) >= uint(len(b)) {
		return i, false
	}
	var ok bool
	switch c := b[i]; {
	case c == '{':
		if depth >= MaxDepth {
			return i, false
		}
		i = skipSpace(b, i+1)
		if uint(i) < uint(len(b)) && b[i] == '}' {
			return i + 1, true
		}
		for {
			if uint(i) >= uint(len(b)) || b[i] != '"' {
				return i, false
			}
			if e := stringShort(b, i); e > 0 {
				i = e
			} else if i, ok = scanStringMember(b, -e); !ok {
				return i, false
			}
			i = skipSpace(b, i)
			if uint(i) >= uint(len(b)) || b[i] != ':' {
				return i, false
			}
			i = skipSpace(b, i+1)
			if uint(i) >= uint(len(b)) {
				return i, false
			}
			switch c := b[i]; {
			case c == '"':
				if e := stringShort(b, i); e > 0 {
					i = e
				} else if i, ok = scanStringMember(b, -e); !ok {
					return i, false
				}
			case c >= '1' && c <= '9':
				if i, ok = scanPositive(b, i); !ok {
					return i, false
				}
			case c == '-' || c == '0':
				if i, ok = scanNumber(b, i); !ok {
					return i, false
				}
			default:
				if i, ok = skipFree(b, i, depth+1); !ok {
					return i, false
				}
			}
			i = skipSpace(b, i)
			if uint(i) >= uint(len(b)) {
				return i, false
			}
			switch b[i] {
			case ',':
				i = skipSpace(b, i+1)
			case '}':
				return i + 1, true
			default:
				return i, false
			}
		}
	case c == '[':
		if depth >= MaxDepth {
			return i, false
		}
		i = skipSpace(b, i+1)
		if uint(i) < uint(len(b)) && b[i] == ']' {
			return i + 1, true
		}
		for {
			if uint(i) >= uint(len(b)) {
				return i, false
			}
			switch c := b[i]; {
			case c == '"':
				if e := stringShort(b, i); e > 0 {
					i = e
				} else if i, ok = scanStringMember(b, -e); !ok {
					return i, false
				}
			case c >= '1' && c <= '9':
				if i, ok = scanPositive(b, i); !ok {
					return i, false
				}
			default:
				if i, ok = skipFree(b, i, depth+1); !ok {
					return i, false
				}
			}
			i = skipSpace(b, i)
			if uint(i) >= uint(len(b)) {
				return i, false
			}
			switch b[i] {
			case ',':
				i = skipSpace(b, i+1)
			case ']':
				return i + 1, true
			default:
				return i, false
			}
		}
	case c == '"':
		i, _, ok = scanString(b, i)
		return i, ok
	case c == 't':
		return lit(b, i, "true")
	case c == 'f':
		return lit(b, i, "false")
	case c == 'n':
		return lit(b, i, "null")
	case c == '-' || (c >= '0' && c <= '9'):
		return scanNumber(b, i)
	}
	return i, false
}

// keyShort returns the index just past the key starting at b[i] == '"'
// and its index in tab (-1: none, or tab is nil) when the key is shorter
// than 16 bytes and holds no backslash or control byte, else 0: its first
// two words are read at once (special), and looked up in tab as they are
// (keyTable.find). It calls nothing, so it needs no stack frame.
func keyShort(b []byte, i int, tab *keyTable) (int, int) {
	if i < 0 || i+17 > len(b) {
		return 0, -1
	}
	w := (*[16]byte)(b[i+1 : i+17]) // one bounds check for the 16 bytes
	w0 := binary.LittleEndian.Uint64(w[:8])
	var w1 uint64
	t := special(w0)
	z := 0
	if t == 0 {
		w1 = binary.LittleEndian.Uint64(w[8:])
		t = special(w1)
		z = 8
	}
	if t == 0 {
		return 0, -1
	}
	k := z + bits.TrailingZeros64(t)>>3
	if w[k&15] != '"' {
		return 0, -1
	}
	if tab == nil {
		return i + 2 + k, -1
	}
	return i + 2 + k, tab.find(k, w0, w1)
}

// scanKey validates the key starting at b[i] == '"' that keyShort has not
// settled (of 16 bytes or more, or escaped) and returns the index just
// past it and its index in tab (keyIndex; -1: none, or tab is nil).
func scanKey(b []byte, i int, tab *keyTable) (int, int, bool) {
	e, esc, ok := scanStringLong(b, i)
	if !ok || tab == nil {
		return e, -1, ok
	}
	return e, keyIndex(b[i+1:e-1], tab.names, esc), true
}

// stringShort returns the index just past the string starting at b[i] ==
// '"' (a member's or an element's value) when its closing quote is within
// its first five words and nothing before it needs a look (no backslash
// or control byte): eight bytes a step (special), which settles ids,
// names, roles, models and timestamps (most strings of a line are shorter
// than 40 bytes) without the set-up of the AVX2 scan. Else it returns -p,
// p being the last byte of the words it found clean (i when none), from
// which scanStringMember goes on. It calls nothing, so it needs no stack
// frame.
func stringShort(b []byte, i int) int {
	if i < 0 || i+41 > len(b) {
		return -i
	}
	w := (*[40]byte)(b[i+1 : i+41]) // one bounds check for the 40 bytes
	for j := 0; j < 40; j += 8 {
		if t := special(binary.LittleEndian.Uint64(w[j : j+8])); t != 0 {
			if k := j + bits.TrailingZeros64(t)>>3; k < 40 && w[k] == '"' {
				return i + 2 + k
			}
			return -(i + j)
		}
	}
	return -(i + 40)
}

// scanStringMember validates the rest of a string that stringShort has
// not settled, from b[p+1] (b[p] is its opening quote, or a byte of it that
// stringShort found clean, so that b[p+1] is not escaped), and returns the
// index just past it.
func scanStringMember(b []byte, p int) (int, bool) {
	e, _, ok := scanStringLong(b, p)
	return e, ok
}

// scanPositive validates the number starting at b[i] (a digit 1-9): an
// integer's digits by digits, and scanNumber from b[i] when a fraction or
// an exponent follows them.
func scanPositive(b []byte, i int) (int, bool) {
	j := digits(b, i+1)
	if uint(j) < uint(len(b)) && (b[j] == '.' || b[j]|0x20 == 'e') {
		return scanNumber(b, i)
	}
	return j, true
}

func lit(b []byte, i int, w string) (int, bool) {
	if len(b)-i >= len(w) && string(b[i:i+len(w)]) == w {
		return i + len(w), true
	}
	return i, false
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// scanNumber validates the number starting at b[i] ('-' or a digit).
func scanNumber(b []byte, i int) (int, bool) {
	// uint(i) < uint(len(b)): i is in b (b[i] needs no bounds check).
	if uint(i) < uint(len(b)) && b[i] == '-' {
		i++
	}
	if uint(i) >= uint(len(b)) {
		return i, false
	}
	switch {
	case b[i] == '0':
		i++
	case isDigit(b[i]):
		i = digits(b, i+1)
	default:
		return i, false
	}
	if uint(i) < uint(len(b)) && b[i] == '.' {
		i++
		if uint(i) >= uint(len(b)) || !isDigit(b[i]) {
			return i, false
		}
		i = digits(b, i+1)
	}
	if uint(i) < uint(len(b)) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if uint(i) < uint(len(b)) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if uint(i) >= uint(len(b)) || !isDigit(b[i]) {
			return i, false
		}
		i = digits(b, i+1)
	}
	return i, true
}

// digits returns the index of the first byte at or after i that is not a
// decimal digit, eight bytes a step: in a word x, the bytes below '0' set
// their high bit in x-'0', those above '9' in x+0x46, and the bytes before
// the first such byte are digits, which neither borrows nor carries leave
// (they may mark later bytes falsely, but only the first mark is read).
func digits(b []byte, i int) int {
	if uint(i) > uint(len(b)) {
		return i
	}
	r := b[i:] // the rest, so that the loops need no bounds checks
	for len(r) >= 8 {
		x := binary.LittleEndian.Uint64(r)
		if t := ((x - lsb*'0') | (x + lsb*0x46)) & msb; t != 0 {
			return len(b) - len(r) + bits.TrailingZeros64(t)>>3
		}
		r = r[8:]
	}
	for len(r) > 0 && isDigit(r[0]) {
		r = r[1:]
	}
	return len(b) - len(r)
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
// the three tests. The terms are grouped so that the longest path from x
// to the result is five steps (x-0x20 and msb&^x take fewer than the
// quote's and the backslash's tests, which go first): the position of the
// next token waits on it.
func special(x uint64) uint64 {
	q := x ^ (lsb * '"')
	e := x ^ (lsb * '\\')
	return ((q - lsb) | (e - lsb) | (x - lsb*0x20)) & (x&msb ^ msb) // x&msb^msb: msb&^x, which the compiler would move last
}

// scanString validates the string starting at b[i] == '"' and returns the
// index just past its closing quote and whether it held an escape (on
// failure, end is where the scan stopped): shortString, then
// scanStringLong (AVX2 assembly on amd64, scanStringSWAR elsewhere and
// with the purego tag). It checks a top-level string; value checks
// members, elements and keys with stringShort, keyShort, scanKey and
// scanStringMember.
func scanString(b []byte, i int) (end int, esc, ok bool) {
	if e := shortString(b, i); e > 0 {
		return e, false, true
	}
	return scanStringLong(b, i)
}

// shortString returns the index just past the closing quote of the string
// starting at b[i] == '"' when that quote is among the next eight bytes and
// nothing before it needs a look (no backslash or control byte), else 0.
// Most keys and many values end so; one word test settles them without a
// call (it is small enough to be inlined).
func shortString(b []byte, i int) int {
	if i+9 <= len(b) {
		if t := special(binary.LittleEndian.Uint64(b[i+1:])); t != 0 {
			if k := i + 1 + bits.TrailingZeros64(t)>>3; b[k] == '"' {
				return k + 1
			}
		}
	}
	return 0
}

// scanStringSWAR validates the string starting at b[i] == '"', eight bytes
// at a time (special) up to each '"', '\\' or control character, as
// scanString. It is the portable scan (every architecture but amd64, and
// amd64 with the purego tag or without AVX2), and the reference the
// assembly scan is fuzzed against.
func scanStringSWAR(b []byte, i int) (end int, esc, ok bool) {
	i++
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
				return i, esc, false
			}
		}
		if b[i] == '"' {
			return i + 1, esc, true
		}
		if b[i] != '\\' || i+1 >= len(b) { // a control character, or a cut escape
			return i, esc, false
		}
		esc = true
		if i, ok = skipEscape(b, i); !ok {
			return i, esc, false
		}
	}
}

// skipEscape validates the escape at b[i] == '\\' (i+1 < len(b)) and
// returns the index just past it.
func skipEscape(b []byte, i int) (int, bool) {
	switch escapes[b[i+1]] {
	case 2:
		return i + 2, true
	case 6:
		if i+6 > len(b) {
			return i, false
		}
		for _, h := range b[i+2 : i+6] {
			if !(isDigit(h) || (h >= 'a' && h <= 'f') || (h >= 'A' && h <= 'F')) {
				return i, false
			}
		}
		return i + 6, true
	}
	return i, false
}

// escapes gives, for the byte after a backslash, the length of the escape
// it starts (0: not an escape).
var escapes = [256]uint8{'"': 2, '\\': 2, '/': 2, 'b': 2, 'f': 2, 'n': 2, 'r': 2, 't': 2, 'u': 6}
