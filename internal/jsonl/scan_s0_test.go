package jsonl

// s0Scanner is the Scanner of 816b3d7 (the start of the 23:50 session of
// issue 14), kept verbatim but for the names (it shares the AVX2/SWAR
// long-string scan scanStringLong with the current Scanner), so that
// BenchmarkScanS0New compares the two in one binary and checkS0 holds the
// current one equal to it.

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math/bits"
	"os"
	"strconv"
	"testing"
	"time"
)

// s0Scanner validates JSON exactly as JSON.parse accepts it (RFC 8259; UTF-8
// is not checked, as the agents' decoders substitute U+FFFD) and captures
// the raw bytes of the members named in its Capture, in one pass and without
// building a tree. Strings are scanned 64 bytes a step with AVX2 on amd64
// (scanstr_amd64.s), eight bytes a step elsewhere, so a line is read about
// once. Captures are valid until the next Scan; a repeated key
// resolves to its last occurrence, as in JSON.parse.
type s0Scanner struct {
	f        *Capture
	top      s0KeyTable // f.Top
	sub      s0KeyTable // f.SubKeys
	elem     s0KeyTable // f.ElemKeys
	subSlot  int
	elemSlot int // index of f.Elems in f.SubKeys (-1: none)
	nSub     int // len(f.SubKeys)
	object   bool
	Top      [][]byte // raw values of f.Top members (nil when absent)
	// Sub holds the raw values of the f.SubKeys members of the Sub object,
	// then those of the f.ElemKeys members of each object element of its
	// f.Elems array.
	Sub [][]byte

	tabs [8]*s0KeyTable // by capture mode: &top, &sub, &elem; nil: none
}

// s0NewScanner returns a scanner capturing f (nil: validate only).
func s0NewScanner(f *Capture) *s0Scanner {
	if f == nil {
		f = &Capture{}
	}
	s := &s0Scanner{f: f, subSlot: -1, elemSlot: -1, nSub: len(f.SubKeys), Top: make([][]byte, len(f.Top)), Sub: make([][]byte, len(f.SubKeys))}
	s.top, s.sub = s0NewKeyTable(f.Top), s0NewKeyTable(f.SubKeys)
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
			s.elem = s0NewKeyTable(f.ElemKeys)
		}
	}
	return s
}

// Scan validates b as exactly one JSON value (surrounding whitespace
// allowed) and captures the named members when it is an object.
func (s *s0Scanner) Scan(b []byte) bool {
	s.object = false
	clear(s.Top)
	s.Sub = s.Sub[:s.nSub]
	clear(s.Sub)
	i := s0SkipSpace(b, 0)
	if i < len(b) && b[i] == '{' {
		s.object = true
	}
	i, ok := s.value(b, i, 0, capTop)
	return ok && s0SkipSpace(b, i) == len(b)
}

// IsObject reports whether the last valid Scan was of an object.
func (s *s0Scanner) IsObject() bool { return s.object }

// s0KeyIndex returns the index of the key raw (its bytes between the quotes)
// in keys, or -1; escaped says whether raw holds an escape.
func s0KeyIndex(raw []byte, keys []string, escaped bool) int {
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
func (s *s0Scanner) elemSlots() int {
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

// s0KeyTable finds a key of up to 15 bytes without s0Escapes among names by
// its length and its first two little-endian words, as s0KeyIndex does.
type s0KeyTable struct {
	names []string
	ents  []s0KeyWords // the names of up to 15 bytes, by length, in order
	start [17]uint16   // ents[start[n]:start[n+1]] are of length n
}

type s0KeyWords struct {
	w0, w1 uint64
	slot   int
}

func s0NewKeyTable(names []string) s0KeyTable {
	t := s0KeyTable{names: names}
	for n := 0; n < 16; n++ {
		t.start[n] = uint16(len(t.ents))
		for k, name := range names {
			if len(name) == n {
				var w [16]byte
				copy(w[:], name)
				t.ents = append(t.ents, s0KeyWords{binary.LittleEndian.Uint64(w[:]), binary.LittleEndian.Uint64(w[8:]), k})
			}
		}
	}
	t.start[16] = uint16(len(t.ents))
	return t
}

// s0LowBytes[n] is the mask of the low n bytes of a word (n up to 8), and
// s0HighWord[n] that of the bytes of a key of n bytes (n < 16) in its second
// word.
var s0LowBytes, s0HighWord = func() (lo [9]uint64, hi [16]uint64) {
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
func (t *s0KeyTable) find(n int, w0, w1 uint64) int {
	n &= 15
	w0 &= s0LowBytes[min(n, 8)]
	w1 &= s0HighWord[n]
	for _, e := range t.ents[t.start[n]:t.start[n+1]] { // one bounds check
		if e.w0 == w0 && e.w1 == w1 {
			return e.slot
		}
	}
	return -1
}

// s0SkipSpace returns the index of the first byte of b at or after i that is
// not JSON white space.
func s0SkipSpace(b []byte, i int) int {
	for uint(i) < uint(len(b)) { // uint: b[i] needs no bounds check
		// Compact JSON has no white space: one test for every byte above it.
		if c := b[i]; c > ' ' || (c != ' ' && c != '\t' && c != '\r' && c != '\n') {
			return i
		}
		i++
	}
	return i
}

// value validates the value starting at b[i] and returns the index just
// past it. The position is passed and returned rather than kept in the
// s0Scanner so that it stays in a register. The members and elements that
// are strings, numbers or literals are validated in the loops themselves,
// without a call to value: most are (a pi line has some 20 strings and 6
// numbers to 5 objects), and each call costs more than the check.
func (s *s0Scanner) value(b []byte, i, depth, mode int) (int, bool) {
	if uint(i) >= uint(len(b)) {
		return i, false
	}
	var ok bool
	switch c := b[i]; {
	case c == '{':
		if depth >= MaxDepth {
			return i, false
		}
		i = s0SkipSpace(b, i+1)
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
			e, slot := s0KeyShort(b, i, tab)
			if e > 0 {
				i = e
			} else if i, slot, ok = s0ScanKey(b, i, tab); !ok {
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
			i = s0SkipSpace(b, i)
			if uint(i) >= uint(len(b)) || b[i] != ':' {
				return i, false
			}
			i = s0SkipSpace(b, i+1)
			vs := i
			if uint(i) >= uint(len(b)) {
				return i, false
			}
			switch c := b[i]; {
			case c == '"':
				if e := s0StringShort(b, i); e > 0 {
					i = e
				} else if i, ok = s0ScanStringMember(b, -e); !ok {
					return i, false
				}
			case c >= '1' && c <= '9':
				if i, ok = s0ScanPositive(b, i); !ok {
					return i, false
				}
			case c == '-' || c == '0':
				if i, ok = s0ScanNumber(b, i); !ok {
					return i, false
				}
			default:
				if i, ok = s.value(b, i, depth+1, sub); !ok {
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
			i = s0SkipSpace(b, i)
			if uint(i) >= uint(len(b)) {
				return i, false
			}
			switch b[i] {
			case ',':
				i = s0SkipSpace(b, i+1)
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
		i = s0SkipSpace(b, i+1)
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
				if e := s0StringShort(b, i); e > 0 {
					i = e
				} else if i, ok = s0ScanStringMember(b, -e); !ok {
					return i, false
				}
			case c >= '1' && c <= '9':
				if i, ok = s0ScanPositive(b, i); !ok {
					return i, false
				}
			default:
				if i, ok = s.value(b, i, depth+1, elem); !ok {
					return i, false
				}
			}
			i = s0SkipSpace(b, i)
			if uint(i) >= uint(len(b)) {
				return i, false
			}
			switch b[i] {
			case ',':
				i = s0SkipSpace(b, i+1)
			case ']':
				return i + 1, true
			default:
				return i, false
			}
		}
	case c == '"':
		i, _, ok = s0ScanString(b, i)
		return i, ok
	case c == 't':
		return s0Lit(b, i, "true")
	case c == 'f':
		return s0Lit(b, i, "false")
	case c == 'n':
		return s0Lit(b, i, "null")
	case c == '-' || (c >= '0' && c <= '9'):
		return s0ScanNumber(b, i)
	}
	return i, false
}

// s0KeyShort returns the index just past the key starting at b[i] == '"'
// and its index in tab (-1: none, or tab is nil) when the key is shorter
// than 16 bytes and holds no backslash or control byte, else 0: its first
// two words are read at once (s0Special), and looked up in tab as they are
// (s0KeyTable.find). It calls nothing, so it needs no stack frame.
func s0KeyShort(b []byte, i int, tab *s0KeyTable) (int, int) {
	if i < 0 || i+17 > len(b) {
		return 0, -1
	}
	w := (*[16]byte)(b[i+1 : i+17]) // one bounds check for the 16 bytes
	w0 := binary.LittleEndian.Uint64(w[:8])
	var w1 uint64
	t := s0Special(w0)
	z := 0
	if t == 0 {
		w1 = binary.LittleEndian.Uint64(w[8:])
		t = s0Special(w1)
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

// s0ScanKey validates the key starting at b[i] == '"' that s0KeyShort has not
// settled (of 16 bytes or more, or escaped) and returns the index just
// past it and its index in tab (s0KeyIndex; -1: none, or tab is nil).
func s0ScanKey(b []byte, i int, tab *s0KeyTable) (int, int, bool) {
	e, esc, ok := scanStringLong(b, i)
	if !ok || tab == nil {
		return e, -1, ok
	}
	return e, s0KeyIndex(b[i+1:e-1], tab.names, esc), true
}

// s0StringShort returns the index just past the string starting at b[i] ==
// '"' (a member's or an element's value) when its closing quote is within
// its first five words and nothing before it needs a look (no backslash
// or control byte): eight bytes a step (s0Special), which settles ids,
// names, roles, models and timestamps (most strings of a line are shorter
// than 40 bytes) without the set-up of the AVX2 scan. Else it returns -p,
// p being the last byte of the words it found clean (i when none), from
// which s0ScanStringMember goes on. It calls nothing, so it needs no stack
// frame.
func s0StringShort(b []byte, i int) int {
	if i < 0 || i+41 > len(b) {
		return -i
	}
	w := (*[40]byte)(b[i+1 : i+41]) // one bounds check for the 40 bytes
	for j := 0; j < 40; j += 8 {
		if t := s0Special(binary.LittleEndian.Uint64(w[j : j+8])); t != 0 {
			if k := j + bits.TrailingZeros64(t)>>3; k < 40 && w[k] == '"' {
				return i + 2 + k
			}
			return -(i + j)
		}
	}
	return -(i + 40)
}

// s0ScanStringMember validates the rest of a string that s0StringShort has
// not settled, from b[p+1] (b[p] is its opening quote, or a byte of it that
// s0StringShort found clean, so that b[p+1] is not escaped), and returns the
// index just past it.
func s0ScanStringMember(b []byte, p int) (int, bool) {
	e, _, ok := scanStringLong(b, p)
	return e, ok
}

// s0ScanPositive validates the number starting at b[i] (a digit 1-9): an
// integer's s0Digits by s0Digits, and s0ScanNumber from b[i] when a fraction or
// an exponent follows them.
func s0ScanPositive(b []byte, i int) (int, bool) {
	j := s0Digits(b, i+1)
	if uint(j) < uint(len(b)) && (b[j] == '.' || b[j]|0x20 == 'e') {
		return s0ScanNumber(b, i)
	}
	return j, true
}

func s0Lit(b []byte, i int, w string) (int, bool) {
	if len(b)-i >= len(w) && string(b[i:i+len(w)]) == w {
		return i + len(w), true
	}
	return i, false
}

func s0IsDigit(c byte) bool { return c >= '0' && c <= '9' }

// s0ScanNumber validates the number starting at b[i] ('-' or a digit).
func s0ScanNumber(b []byte, i int) (int, bool) {
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
	case s0IsDigit(b[i]):
		i = s0Digits(b, i+1)
	default:
		return i, false
	}
	if uint(i) < uint(len(b)) && b[i] == '.' {
		i++
		if uint(i) >= uint(len(b)) || !s0IsDigit(b[i]) {
			return i, false
		}
		i = s0Digits(b, i+1)
	}
	if uint(i) < uint(len(b)) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if uint(i) < uint(len(b)) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if uint(i) >= uint(len(b)) || !s0IsDigit(b[i]) {
			return i, false
		}
		i = s0Digits(b, i+1)
	}
	return i, true
}

// s0Digits returns the index of the first byte at or after i that is not a
// decimal digit, eight bytes a step: in a word x, the bytes below '0' set
// their high bit in x-'0', those above '9' in x+0x46, and the bytes before
// the first such byte are s0Digits, which neither borrows nor carries leave
// (they may mark later bytes falsely, but only the first mark is read).
func s0Digits(b []byte, i int) int {
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
	for len(r) > 0 && s0IsDigit(r[0]) {
		r = r[1:]
	}
	return len(b) - len(r)
}

// s0Special returns, in the high bit of each byte of the little-endian word
// x, a mask whose lowest set bit marks the first byte of x that is '"',
// '\\' or below 0x20 (0 when there is none; bits above the first may be
// false positives, as borrows run upward). Bytes of 0x80 and more never
// match, and x^'"' and x^'\\' have the high bit of x, so one &^x serves
// the three tests.
func s0Special(x uint64) uint64 {
	q := x ^ (lsb * '"')
	e := x ^ (lsb * '\\')
	return ((x - lsb*0x20) | (q - lsb) | (e - lsb)) &^ x & msb
}

// s0ScanString validates the string starting at b[i] == '"' and returns the
// index just past its closing quote and whether it held an escape (on
// failure, end is where the scan stopped): s0ShortString, then
// scanStringLong (AVX2 assembly on amd64, s0ScanStringSWAR elsewhere and
// with the purego tag). It checks a top-level string; value checks
// members, elements and keys with s0StringShort, s0KeyShort, s0ScanKey and
// s0ScanStringMember.
func s0ScanString(b []byte, i int) (end int, esc, ok bool) {
	if e := s0ShortString(b, i); e > 0 {
		return e, false, true
	}
	return scanStringLong(b, i)
}

// s0ShortString returns the index just past the closing quote of the string
// starting at b[i] == '"' when that quote is among the next eight bytes and
// nothing before it needs a look (no backslash or control byte), else 0.
// Most keys and many values end so; one word test settles them without a
// call (it is small enough to be inlined).
func s0ShortString(b []byte, i int) int {
	if i+9 <= len(b) {
		if t := s0Special(binary.LittleEndian.Uint64(b[i+1:])); t != 0 {
			if k := i + 1 + bits.TrailingZeros64(t)>>3; b[k] == '"' {
				return k + 1
			}
		}
	}
	return 0
}

// s0ScanStringSWAR validates the string starting at b[i] == '"', eight bytes
// at a time (s0Special) up to each '"', '\\' or control character, as
// s0ScanString. It is the portable scan (every architecture but amd64, and
// amd64 with the purego tag or without AVX2), and the reference the
// assembly scan is fuzzed against.
func s0ScanStringSWAR(b []byte, i int) (end int, esc, ok bool) {
	i++
	for {
		if i+8 <= len(b) {
			t := s0Special(binary.LittleEndian.Uint64(b[i:]))
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
		if i, ok = s0SkipEscape(b, i); !ok {
			return i, esc, false
		}
	}
}

// s0SkipEscape validates the escape at b[i] == '\\' (i+1 < len(b)) and
// returns the index just past it.
func s0SkipEscape(b []byte, i int) (int, bool) {
	switch s0Escapes[b[i+1]] {
	case 2:
		return i + 2, true
	case 6:
		if i+6 > len(b) {
			return i, false
		}
		for _, h := range b[i+2 : i+6] {
			if !(s0IsDigit(h) || (h >= 'a' && h <= 'f') || (h >= 'A' && h <= 'F')) {
				return i, false
			}
		}
		return i + 6, true
	}
	return i, false
}

// s0Escapes gives, for the byte after a backslash, the length of the escape
// it starts (0: not an escape).
var s0Escapes = [256]uint8{'"': 2, '\\': 2, '/': 2, 'b': 2, 'f': 2, 'n': 2, 'r': 2, 't': 2, 'u': 6}

// BenchmarkScanS0New compares s0Scanner (816b3d7) with the current Scanner
// as BenchmarkScanBaseNew compares baseScanner: on the lines of
// SESSCTL_BENCH_FILE (else the in-memory pi corpus), capturing as list and
// check do, alternating on chunks of about 4 MB, SESSCTL_BENCH_ROUNDS times
// (default 9), each chunk counted with its fastest time per scanner.
//
//	SESSCTL_BENCH_FILE=/tmp/sessctl-bench-data/pi-100MB.jsonl SESSCTL_BENCH_BYTES=33554432 \
//	  go test -run='^$' -bench=ScanS0New -benchtime=1x -cpu=1 ./internal/jsonl
func BenchmarkScanS0New(b *testing.B) {
	_, lines := loadBenchFileOpt()
	if lines == nil {
		lines = getCorpus("pi").lines
	}
	rounds := 9
	if n, err := strconv.Atoi(os.Getenv("SESSCTL_BENCH_ROUNDS")); err == nil && n > 0 {
		rounds = n
	}
	var chunks [][][]byte
	total := 0
	for len(lines) > 0 {
		n, size := 0, 0
		for n < len(lines) && size < 4<<20 {
			size += len(lines[n]) + 1
			n++
		}
		chunks = append(chunks, lines[:n])
		lines = lines[n:]
		total += size
	}
	listCap := &Capture{Top: []string{"type", "id", "parentId", "message", "timestamp", "name", "title", "model", "cwd", "parentSession"},
		Sub: "message", SubKeys: []string{"role", "content", "timestamp"}}
	for _, cc := range []struct {
		name string
		c    *Capture
	}{{"list", listCap}, {"check", baseCaptures[4]}} {
		b.Run(cc.name, func(b *testing.B) {
			old, cur := s0NewScanner(cc.c), NewScanner(cc.c)
			best := [2][]time.Duration{make([]time.Duration, len(chunks)), make([]time.Duration, len(chunks))}
			var valid [2]int
			for b.Loop() {
				for r := 0; r < rounds; r++ {
					for k, ch := range chunks {
						for impl := range 2 {
							n := 0
							t0 := time.Now()
							if impl == 0 {
								for _, l := range ch {
									if old.Scan(l) {
										n++
									}
								}
							} else {
								for _, l := range ch {
									if cur.Scan(l) {
										n++
									}
								}
							}
							d := time.Since(t0)
							if r == 0 || d < best[impl][k] {
								best[impl][k] = d
							}
							valid[impl] = n
						}
					}
				}
			}
			var sum [2]time.Duration
			for impl := range sum {
				for _, d := range best[impl] {
					sum[impl] += d
				}
			}
			if valid[0] != valid[1] {
				b.Fatalf("last chunk: %d valid lines by s0, %d by new", valid[0], valid[1])
			}
			b.ReportMetric(float64(total)/sum[0].Seconds()/1e6, "s0-MB/s")
			b.ReportMetric(float64(total)/sum[1].Seconds()/1e6, "new-MB/s")
			b.ReportMetric(sum[0].Seconds()/sum[1].Seconds(), "speedup")
		})
	}
}

// BenchmarkScanCheckCapture is one Scanner, capturing as pi's check (and
// list) does, over the lines of SESSCTL_BENCH_FILE (else the pi corpus):
// for profiles.
func BenchmarkScanCheckCapture(b *testing.B) {
	_, lines := loadBenchFileOpt()
	if lines == nil {
		lines = getCorpus("pi").lines
	}
	n := 0
	for _, l := range lines {
		n += len(l) + 1
	}
	s := NewScanner(baseCaptures[4])
	b.SetBytes(int64(n))
	for b.Loop() {
		for _, l := range lines {
			if s.Scan(l) {
				sinkInt++
			}
		}
	}
}

// BenchmarkScanS0NewLine scans one pi assistant line of about 1 KB (the
// first of SESSCTL_BENCH_FILE, else of the pi corpus) 1000 times with
// s0Scanner and with the current Scanner, alternately, 50 rounds, and
// reports each one's fastest round per line: the branches are all
// predicted, so it is the steadiest figure on a shared machine for small
// changes of the scan's instructions (it says nothing of mispredictions or
// of long strings; BenchmarkScanS0New does).
//
//	SESSCTL_BENCH_FILE=/tmp/sessctl-bench-data/pi-100MB.jsonl SESSCTL_BENCH_BYTES=4000000 \
//	  go test -run='^$' -bench=ScanS0NewLine -benchtime=1x -cpu=1 ./internal/jsonl
func BenchmarkScanS0NewLine(b *testing.B) {
	_, lines := loadBenchFileOpt()
	if lines == nil {
		lines = getCorpus("pi").lines
	}
	var pick []byte
	for _, l := range lines {
		if len(l) > 900 && len(l) < 1200 && bytes.Contains(l, []byte(`"role":"assistant"`)) {
			pick = l
			break
		}
	}
	if pick == nil {
		b.Skip("no pi assistant line of about 1 KB")
	}
	old, cur := s0NewScanner(baseCaptures[4]), NewScanner(baseCaptures[4])
	best := [2]time.Duration{time.Hour, time.Hour}
	for b.Loop() {
		for r := 0; r < 50; r++ {
			for impl := range 2 {
				t0 := time.Now()
				for range 1000 {
					if impl == 0 {
						old.Scan(pick)
					} else {
						cur.Scan(pick)
					}
				}
				best[impl] = min(best[impl], time.Since(t0))
			}
		}
	}
	if !old.Scan(pick) || !cur.Scan(pick) {
		b.Fatal("the line is not valid")
	}
	b.ReportMetric(float64(best[0].Nanoseconds())/1000, "s0-ns/line")
	b.ReportMetric(float64(best[1].Nanoseconds())/1000, "new-ns/line")
	b.ReportMetric(float64(best[0])/float64(best[1]), "speedup")
}
