package jsonl

// baseScanner is the Scanner of e43e672 (the start of the issue 14 work),
// kept verbatim but for the names (its helpers copied too, but for the
// AVX2/SWAR long-string scan scanStringLong, which it shares with the
// current Scanner), so that BenchmarkScanBaseNew compares the two in one
// binary and TestBaseScannerAgrees and FuzzScanBase hold the current one
// equal to it, verdict and every capture.

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"
	"unsafe"
)

// baseScanner validates JSON exactly as JSON.parse accepts it (RFC 8259; UTF-8
// is not checked, as the agents' decoders substitute U+FFFD) and captures
// the raw bytes of the members named in its Capture, in one pass and without
// building a tree. Strings are scanned 64 bytes a step with AVX2 on amd64
// (scanstr_amd64.s), eight bytes a step elsewhere, so a line is read about
// once. Captures are valid until the next Scan; a repeated key
// resolves to its last occurrence, as in JSON.parse.
type baseScanner struct {
	f        *Capture
	top      baseKeyTable // f.Top
	sub      baseKeyTable // f.SubKeys
	elem     baseKeyTable // f.ElemKeys
	subSlot  int
	elemSlot int // index of f.Elems in f.SubKeys (-1: none)
	nSub     int // len(f.SubKeys)
	object   bool
	Top      [][]byte // raw values of f.Top members (nil when absent)
	// Sub holds the raw values of the f.SubKeys members of the Sub object,
	// then those of the f.ElemKeys members of each object element of its
	// f.Elems array.
	Sub [][]byte
}

// newBaseScanner returns a scanner capturing f (nil: validate only).
func newBaseScanner(f *Capture) *baseScanner {
	if f == nil {
		f = &Capture{}
	}
	s := &baseScanner{f: f, subSlot: -1, elemSlot: -1, nSub: len(f.SubKeys), Top: make([][]byte, len(f.Top)), Sub: make([][]byte, len(f.SubKeys))}
	s.top, s.sub = newBaseKeyTable(f.Top), newBaseKeyTable(f.SubKeys)
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
			s.elem = newBaseKeyTable(f.ElemKeys)
		}
	}
	return s
}

// Scan validates b as exactly one JSON value (surrounding whitespace
// allowed) and captures the named members when it is an object.
func (s *baseScanner) Scan(b []byte) bool {
	s.object = false
	clear(s.Top)
	s.Sub = s.Sub[:s.nSub]
	clear(s.Sub)
	i := baseSkipSpace(b, 0)
	if i < len(b) && b[i] == '{' {
		s.object = true
	}
	i, ok := s.value(b, i, 0, capTop)
	return ok && baseSkipSpace(b, i) == len(b)
}

// IsObject reports whether the last valid Scan was of an object.
func (s *baseScanner) IsObject() bool { return s.object }

// baseKeyIndex returns the index of the key raw (its bytes between the quotes)
// in keys, or -1; escaped says whether raw holds an escape.
func baseKeyIndex(raw []byte, keys []string, escaped bool) int {
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

// elemSlots appends the nil slots of an element's ElemKeys captures to
// s.Sub and returns the first one's index: in place when s.Sub has room
// (it keeps the capacity it grew to), without the clearing call and bulk
// write barrier of an append of a made slice.
func (s *baseScanner) elemSlots() int {
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

// baseKeyTable finds a key of up to 15 bytes without escapes among names by
// its length and its first two little-endian words, as baseKeyIndex does.
type baseKeyTable struct {
	names []string
	ents  []baseKeyWords // the names of up to 15 bytes, by length, in order
	start [17]uint8      // ents[start[n]:start[n+1]] are of length n
}

type baseKeyWords struct {
	w0, w1 uint64
	slot   int
}

func newBaseKeyTable(names []string) baseKeyTable {
	t := baseKeyTable{names: names}
	for n := 0; n < 16; n++ {
		t.start[n] = uint8(len(t.ents))
		for k, name := range names {
			if len(name) == n && len(t.ents) < 255 {
				var w [16]byte
				copy(w[:], name)
				t.ents = append(t.ents, baseKeyWords{binary.LittleEndian.Uint64(w[:]), binary.LittleEndian.Uint64(w[8:]), k})
			}
		}
	}
	t.start[16] = uint8(len(t.ents))
	return t
}

// baseLowBytes[n] is the mask of the low n bytes of a word (n up to 8), and
// baseHighWord[n] that of the bytes of a key of n bytes (n < 16) in its second
// word.
var baseLowBytes, baseHighWord = func() (lo [9]uint64, hi [16]uint64) {
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
func (t *baseKeyTable) find(n int, w0, w1 uint64) int {
	n &= 15
	w0 &= baseLowBytes[min(n, 8)]
	w1 &= baseHighWord[n]
	for k := int(t.start[n]); k < int(t.start[n+1]); k++ {
		if e := &t.ents[k]; e.w0 == w0 && e.w1 == w1 {
			return e.slot
		}
	}
	return -1
}

// baseSkipSpace returns the index of the first byte of b at or after i that is
// not JSON white space.
func baseSkipSpace(b []byte, i int) int {
	for i < len(b) {
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
// baseScanner so that it stays in a register.
func (s *baseScanner) value(b []byte, i, depth, mode int) (int, bool) {
	if i >= len(b) {
		return i, false
	}
	var ok bool
	switch c := b[i]; {
	case c == '{':
		if depth >= MaxDepth {
			return i, false
		}
		i = baseSkipSpace(b, i+1)
		base := 0 // capElem: the element's first slot in s.Sub
		if mode == capElem {
			base = s.elemSlots()
		}
		if i < len(b) && b[i] == '}' {
			return i + 1, true
		}
		for {
			if i >= len(b) || b[i] != '"' {
				return i, false
			}
			ks := i
			esc := false
			// The key's first two words (keys of up to 15 bytes), as
			// baseShortString (too big to be inlined, so written out here).
			// They are kept: such a key is looked up by them (baseKeyTable).
			e := 0
			var w0, w1 uint64
			if i+17 <= len(b) {
				j := i + 1
				w0 = binary.LittleEndian.Uint64(b[j:])
				t := baseSpecial(w0)
				if t == 0 {
					j += 8
					w1 = binary.LittleEndian.Uint64(b[j:])
					t = baseSpecial(w1)
				}
				if t != 0 {
					if k := j + bits.TrailingZeros64(t)>>3; b[k] == '"' {
						e = k + 1
					}
				}
			}
			if e > 0 {
				i = e
			} else if i, esc, ok = scanStringLong(b, i); !ok {
				return i, false
			}
			slot, sub := -1, capNone
			if mode != capNone {
				var tab *baseKeyTable
				switch mode {
				case capTop:
					tab = &s.top
				case capSub:
					tab = &s.sub
				case capElem:
					tab = &s.elem
				}
				if tab != nil {
					if e > 0 {
						slot = tab.find(e-ks-2, w0, w1)
					} else {
						slot = baseKeyIndex(b[ks+1:i-1], tab.names, esc)
					}
				}
				switch {
				case slot < 0:
				case mode == capTop && slot == s.subSlot:
					s.Sub = s.Sub[:s.nSub]
					clear(s.Sub)
					sub = capSub
				case mode == capSub && slot == s.elemSlot:
					s.Sub = s.Sub[:s.nSub] // the elements of an earlier one go
					sub = capElems
				}
			}
			i = baseSkipSpace(b, i)
			if i >= len(b) || b[i] != ':' {
				return i, false
			}
			i = baseSkipSpace(b, i+1)
			vs := i
			if i < len(b) && b[i] == '"' { // a string member: no call to value
				// Its first two words (strings of up to 15 bytes: ids,
				// roles, names), as for a key.
				e := 0
				if i+17 <= len(b) {
					j := i + 1
					t := baseSpecial(binary.LittleEndian.Uint64(b[j:]))
					if t == 0 {
						j += 8
						t = baseSpecial(binary.LittleEndian.Uint64(b[j:]))
					}
					if t != 0 {
						if k := j + bits.TrailingZeros64(t)>>3; b[k] == '"' {
							e = k + 1
						}
					}
				}
				if e > 0 {
					i = e
				} else if i, _, ok = scanStringLong(b, i); !ok {
					return i, false
				}
			} else if i, ok = s.value(b, i, depth+1, sub); !ok {
				return i, false
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
			i = baseSkipSpace(b, i)
			if i >= len(b) {
				return i, false
			}
			switch b[i] {
			case ',':
				i = baseSkipSpace(b, i+1)
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
		i = baseSkipSpace(b, i+1)
		if i < len(b) && b[i] == ']' {
			return i + 1, true
		}
		elem := capNone
		if mode == capElems {
			elem = capElem
		}
		for {
			if i, ok = s.value(b, i, depth+1, elem); !ok {
				return i, false
			}
			i = baseSkipSpace(b, i)
			if i >= len(b) {
				return i, false
			}
			switch b[i] {
			case ',':
				i = baseSkipSpace(b, i+1)
			case ']':
				return i + 1, true
			default:
				return i, false
			}
		}
	case c == '"':
		i, _, ok = baseScanString(b, i)
		return i, ok
	case c == 't':
		return baseLit(b, i, "true")
	case c == 'f':
		return baseLit(b, i, "false")
	case c == 'n':
		return baseLit(b, i, "null")
	case c == '-' || (c >= '0' && c <= '9'):
		return baseScanNumber(b, i)
	}
	return i, false
}

func baseLit(b []byte, i int, w string) (int, bool) {
	if len(b)-i >= len(w) && string(b[i:i+len(w)]) == w {
		return i + len(w), true
	}
	return i, false
}

func baseIsDigit(c byte) bool { return c >= '0' && c <= '9' }

// baseScanNumber validates the number starting at b[i] ('-' or a digit).
func baseScanNumber(b []byte, i int) (int, bool) {
	if b[i] == '-' {
		i++
	}
	if i >= len(b) {
		return i, false
	}
	switch {
	case b[i] == '0':
		i++
	case baseIsDigit(b[i]):
		i = baseDigits(b, i+1)
	default:
		return i, false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if i >= len(b) || !baseIsDigit(b[i]) {
			return i, false
		}
		i = baseDigits(b, i+1)
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || !baseIsDigit(b[i]) {
			return i, false
		}
		i = baseDigits(b, i+1)
	}
	return i, true
}

// baseDigits returns the index of the first byte at or after i that is not a
// decimal digit, eight bytes a step: in a word x, the bytes below '0' set
// their high bit in x-'0', those above '9' in x+0x46, and the bytes before
// the first such byte are baseDigits, which neither borrows nor carries leave
// (they may mark later bytes falsely, but only the first mark is read).
func baseDigits(b []byte, i int) int {
	for i+8 <= len(b) {
		x := binary.LittleEndian.Uint64(b[i:])
		if t := ((x - baseLsb*'0') | (x + baseLsb*0x46)) & baseMsb; t != 0 {
			return i + bits.TrailingZeros64(t)>>3
		}
		i += 8
	}
	for i < len(b) && baseIsDigit(b[i]) {
		i++
	}
	return i
}

const (
	baseLsb = 0x0101010101010101
	baseMsb = 0x8080808080808080
)

// baseSpecial returns, in the high bit of each byte of the little-endian word
// x, a mask whose lowest set bit marks the first byte of x that is '"',
// '\\' or below 0x20 (0 when there is none; bits above the first may be
// false positives, as borrows run upward). Bytes of 0x80 and more never
// match, and x^'"' and x^'\\' have the high bit of x, so one &^x serves
// the three tests.
func baseSpecial(x uint64) uint64 {
	q := x ^ (baseLsb * '"')
	e := x ^ (baseLsb * '\\')
	return ((x - baseLsb*0x20) | (q - baseLsb) | (e - baseLsb)) &^ x & baseMsb
}

// baseScanString validates the string starting at b[i] == '"' and returns the
// index just past its closing quote and whether it held an escape (on
// failure, end is where the scan stopped): baseShortString, then
// the package's scanStringLong (its string scan, the same then and now).
func baseScanString(b []byte, i int) (end int, esc, ok bool) {
	if e := baseShortString(b, i); e > 0 {
		return e, false, true
	}
	return scanStringLong(b, i)
}

// baseShortString returns the index just past the closing quote of the string
// starting at b[i] == '"' when that quote is among the next eight bytes and
// nothing before it needs a look (no backslash or control byte), else 0.
// Most keys and many values end so; one word test settles them without a
// call (it is small enough to be inlined).
func baseShortString(b []byte, i int) int {
	if i+9 <= len(b) {
		if t := baseSpecial(binary.LittleEndian.Uint64(b[i+1:])); t != 0 {
			if k := i + 1 + bits.TrailingZeros64(t)>>3; b[k] == '"' {
				return k + 1
			}
		}
	}
	return 0
}

// baseCaptures are the captures the Scanner is held to baseScanner's with:
// none, pi's index, check's (with Elems), the fuzz ones, and keys of 16
// bytes and more, escaped and empty.
var baseCaptures = []*Capture{nil, piCapture, fuzzCapture, fuzzElemCapture,
	{Top: []string{"type", "id", "parentId", "message", "timestamp", "name", "title", "model", "cwd", "parentSession", "firstKeptEntryId"},
		Sub: "message", SubKeys: []string{"role", "content", "timestamp", "stopReason", "toolCallId"}, Elems: "content", ElemKeys: []string{"type", "id", "name"}},
	{Top: []string{"a", "abcdefghijklmnop", "é", "a\\b", "abcdefgh"}, Sub: "a", SubKeys: []string{"b", "c", "abcdefghi"}, Elems: "c", ElemKeys: []string{"d", ""}}}

// sameBytesOf reports how two Scanners' captures of the same line b
// differ: each must be nil in both, or the same bytes at the same place of b.
func sameBytesOf(b []byte, x, y [][]byte) error {
	if len(x) != len(y) {
		return fmt.Errorf("%d captures, %d", len(x), len(y))
	}
	for k := range x {
		if (x[k] == nil) != (y[k] == nil) {
			return fmt.Errorf("capture %d: %q, %q", k, x[k], y[k])
		}
		if x[k] == nil {
			continue
		}
		ox, oy := offsetIn(b, x[k]), offsetIn(b, y[k])
		if ox != oy || len(x[k]) != len(y[k]) {
			return fmt.Errorf("capture %d: %q at %d, %q at %d", k, x[k], ox, y[k], oy)
		}
	}
	return nil
}

// offsetIn is the offset of the slice c in b (c is a capture of b).
func offsetIn(b, c []byte) int {
	return int(uintptr(unsafe.Pointer(unsafe.SliceData(c))) - uintptr(unsafe.Pointer(unsafe.SliceData(b))))
}

// checkBase holds the Scanner equal to baseScanner on b, for every capture
// of baseCaptures: the verdict, IsObject, and every capture, of a valid
// line and of a malformed one (its partial captures) alike.
func checkBase(t *testing.T, b []byte) {
	t.Helper()
	if bytes.IndexByte(b, '\n') >= 0 {
		// baseScanner took '\n' for white space; a Scanner, which scans
		// one line of JSON Lines, rejects it wherever it is.
		for ci, c := range baseCaptures {
			if NewScanner(c).Scan(b) {
				t.Fatalf("capture %d: %q: a '\\n' was taken for white space", ci, b)
			}
		}
		return
	}
	for ci, c := range baseCaptures {
		base, cur := newBaseScanner(c), NewScanner(c)
		okBase, okCur := base.Scan(b), cur.Scan(b)
		if okBase != okCur || base.IsObject() != cur.IsObject() {
			t.Fatalf("capture %d: %q: base %v (object %v), new %v (object %v)", ci, b, okBase, base.IsObject(), okCur, cur.IsObject())
		}
		if err := sameBytesOf(b, cur.Top, base.Top); err != nil {
			t.Fatalf("capture %d: %q (valid %v): Top: %v", ci, b, okBase, err)
		}
		if err := sameBytesOf(b, cur.Sub, base.Sub); err != nil {
			t.Fatalf("capture %d: %q (valid %v): Sub: %v", ci, b, okBase, err)
		}
	}
}

// FuzzScanBase holds the Scanner equal to baseScanner (checkBase) and to
// encoding/json, on the input, behind prefixes of white space and in front
// of 64 bytes of it (so that the string scans meet the end of the buffer
// in every way).
func FuzzScanBase(f *testing.F) {
	for _, s := range fuzzSeeds() {
		f.Add(s)
	}
	f.Add([]byte(`{"type":"message","id":"a","message":{"role":"user","id":"m1","role":"assistant"},"id":"b"}`))
	f.Add([]byte(`{"message":{"content":[{"type":"toolCall","id":"c1","name":"bash","arguments":{"id":2}},"s",{},{"i\u0064":"x","id":"y"}],"role":"assistant"}}`))
	f.Add([]byte(`{"message":{"content":[{"type":"a"}],"content":[[{"id":1}],{"name":null}]},"message":{"content":[{"type":"b"}]}}`))
	f.Add([]byte(` { "a" : 1 , "b" : [ true , false , null ] , "c" : { } , "d" : "x" } `))
	f.Add([]byte(`{"a":1}x`))
	f.Add([]byte(`{"a":tru}`))
	f.Add([]byte(`{"a":1"b"}`))
	f.Add([]byte(`[-0,0.5e-7,1E+2,-12.5E-3,123456789012345678901234567890,01,1.,1e,-,.5]`))
	f.Add([]byte("{\"k\":\"a\x01,\"x\":\"b\"}"))
	f.Add([]byte(`{"cost":{"input":0.014361,"total":1.040155},"n":[1.5,2e3,31.25E-2,4,9.0],"m":12.,"k":[7.e1]}`))
	f.Add([]byte(`{"t":"2026-07-12T23:15:28.474Z","m":"claude-sonnet-4-5","c":"toolu_b5c8a5fc931f85c6f500d7f7","x":"0123456789abcdef0123456789abcdef0123456789"}`))
	f.Add([]byte(`{"abcdefghijklmnop":1,"\u00e9":2,"a\\b":3,"a\u005cb":4,"abcdefghi":{"abcdefghi":5}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkBase(t, data)
		if maxDepth(data) < 299 {
			// A '\n' is rejected wherever it is (see checkBase).
			want := json.Valid(data) && bytes.IndexByte(data, '\n') < 0
			if ok := NewScanner(nil).Scan(data); ok != want {
				t.Fatalf("Scan(%q) = %v, want %v", data, ok, want)
			}
		}
		for _, pad := range []int{1, 17, 64} {
			checkBase(t, append(bytes.Repeat([]byte{' '}, pad), data...))
			checkBase(t, append(bytes.Clone(data), bytes.Repeat([]byte{' '}, pad)...))
		}
	})
}

// TestBaseScannerAgrees holds the Scanner equal to baseScanner on every
// line of the generated pi corpus, on random cuts of them and on random
// byte changes (quotes, backslashes, brackets, digits, control bytes).
func TestBaseScannerAgrees(t *testing.T) {
	lines := getCorpusN("pi", 2<<20).lines
	r := rand.New(rand.NewPCG(14, 1))
	const alphabet = "\"\\{}[],: \x01u0a.-e+9tfn"
	for i, l := range lines {
		checkBase(t, l)
		if i%2 != 0 || len(l) == 0 {
			continue
		}
		checkBase(t, l[:r.IntN(len(l))])
		m := bytes.Clone(l)
		for range 1 + r.IntN(3) {
			m[r.IntN(len(m))] = alphabet[r.IntN(len(alphabet))]
		}
		checkBase(t, m)
	}
}

// BenchmarkScanBaseNew compares baseScanner (e43e672) with the current
// Scanner on the lines of SESSCTL_BENCH_FILE (else the in-memory pi
// corpus), capturing as list does (listCapture's keys) and as pi's check
// does. The machine is shared, so the two alternate on chunks of about 4
// MB, SESSCTL_BENCH_ROUNDS times (default 9), and each chunk counts with its
// fastest time per scanner: MB per second of undisturbed CPU.
//
//	SESSCTL_BENCH_FILE=/tmp/sessctl-bench-data/pi-1GB.jsonl SESSCTL_BENCH_BYTES=67108864 \
//	  go test -run='^$' -bench=ScanBaseNew -benchtime=1x ./internal/jsonl
func BenchmarkScanBaseNew(b *testing.B) {
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
			base, cur := newBaseScanner(cc.c), NewScanner(cc.c)
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
									if base.Scan(l) {
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
				b.Fatalf("last chunk: %d valid lines by base, %d by new", valid[0], valid[1])
			}
			b.ReportMetric(float64(total)/sum[0].Seconds()/1e6, "base-MB/s")
			b.ReportMetric(float64(total)/sum[1].Seconds()/1e6, "new-MB/s")
			b.ReportMetric(sum[0].Seconds()/sum[1].Seconds(), "speedup")
		})
	}
}
