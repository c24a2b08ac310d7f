package jsonl

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math/bits"
	"testing"
)

// oldScanner is Scanner as of commit 798701b (before the issue 14 string
// scan changes), kept verbatim for BenchmarkScannerOldNew: benchmarks of
// two builds differ by up to a third on unchanged code (code layout), so
// old and new are compared in one binary.
//
// Scanner validates JSON exactly as JSON.parse accepts it (RFC 8259; UTF-8
// is not checked, as the agents' decoders substitute U+FFFD) and captures
// the raw bytes of the members named in its Capture, in one pass and without
// building a tree. Strings are scanned eight bytes at a time, so a line is
// read about once. Captures are valid until the next Scan; a repeated key
// resolves to its last occurrence, as in JSON.parse.
type oldScanner struct {
	f       *Capture
	subSlot int
	b       []byte
	i       int
	object  bool
	Top     [][]byte // raw values of f.Top members (nil when absent)
	Sub     [][]byte // raw values of f.SubKeys members of the Sub object
}

// NewScanner returns a scanner capturing f (nil: validate only).
func newOldScanner(f *Capture) *oldScanner {
	if f == nil {
		f = &Capture{}
	}
	s := &oldScanner{f: f, subSlot: -1, Top: make([][]byte, len(f.Top)), Sub: make([][]byte, len(f.SubKeys))}
	for k, name := range f.Top {
		if name == f.Sub && f.Sub != "" {
			s.subSlot = k
		}
	}
	return s
}

// Scan validates b as exactly one JSON value (surrounding whitespace
// allowed) and captures the named members when it is an object.
func (s *oldScanner) Scan(b []byte) bool {
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
func (s *oldScanner) IsObject() bool { return s.object }

func oldKeyIndex(raw []byte, keys []string) int {
	for k, name := range keys {
		if string(raw) == name {
			return k
		}
	}
	if bytes.IndexByte(raw, '\\') >= 0 { // an escaped key: decode it
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

func (s *oldScanner) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\r', '\n':
			s.i++
		default:
			return
		}
	}
}

func (s *oldScanner) value(depth int, mode int) bool {
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
				slot = oldKeyIndex(s.b[ks+1:s.i-1], s.f.Top)
				if slot >= 0 && slot == s.subSlot {
					clear(s.Sub)
					sub = capSub
				}
			case capSub:
				slot = oldKeyIndex(s.b[ks+1:s.i-1], s.f.SubKeys)
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

func (s *oldScanner) lit(w string) bool {
	if len(s.b)-s.i >= len(w) && string(s.b[s.i:s.i+len(w)]) == w {
		s.i += len(w)
		return true
	}
	return false
}

func (s *oldScanner) num() bool {
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

// str validates the string starting at b[i] == '"', eight bytes at a time
// until the first '"', '\\' or control character.
func (s *oldScanner) str() bool {
	b := s.b
	i := s.i + 1
	for {
		for i+8 <= len(b) {
			x := binary.LittleEndian.Uint64(b[i:])
			q := x ^ (lsb * '"')
			e := x ^ (lsb * '\\')
			t := ((x-lsb*0x20)&^x | (q-lsb)&^q | (e-lsb)&^e) & msb
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
			s.i = i + 1
			return true
		case c < 0x20:
			return false
		}
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

// BenchmarkScannerOldNew runs the old Scanner (798701b), the Scanner of
// 31833fa (head: the portable string scan, scan_head_test.go) and the
// current one over the same input in one binary (SESSCTL_BENCH_FILE, as
// BenchmarkScanFile, and the in-memory pi corpus of BenchmarkExtract):
//
//	SESSCTL_BENCH_FILE=/tmp/sessctl-bench-data/pi-1GB.jsonl go test -run='^$' \
//	  -bench=ScannerOldNew -benchtime=5x -count=5 -cpu=1 ./internal/jsonl
func BenchmarkScannerOldNew(b *testing.B) {
	inputs := map[string][][]byte{"corpus-pi": getCorpus("pi").lines}
	if _, lines := loadBenchFileOpt(); lines != nil {
		inputs["file"] = lines
	}
	for _, name := range []string{"file", "corpus-pi"} {
		lines, ok := inputs[name]
		if !ok {
			continue
		}
		n := 0
		for _, l := range lines {
			n += len(l) + 1
		}
		old, head, cur := newOldScanner(piCapture), newHeadScanner(piCapture), NewScanner(piCapture)
		for _, impl := range []string{"old", "head", "new"} {
			b.Run(name+"/"+impl, func(b *testing.B) {
				b.SetBytes(int64(n))
				cpu0, runs := processCPU(), 0
				for b.Loop() {
					switch impl {
					case "old":
						for _, l := range lines {
							if old.Scan(l) {
								sinkInt++
							}
						}
					case "head":
						for _, l := range lines {
							if head.Scan(l) {
								sinkInt++
							}
						}
					default:
						for _, l := range lines {
							if cur.Scan(l) {
								sinkInt++
							}
						}
					}
					runs++
				}
				if cpu := processCPU() - cpu0; cpu > 0 {
					b.ReportMetric(float64(n)*float64(runs)/cpu/1e6, "MB/cpu-s")
				}
			})
		}
	}
}

// TestOldScannerAgrees checks that the kept old and head Scanners and the new
// one give the same verdicts and captures on the pi corpus, so that the
// benchmark compares like with like.
func TestOldScannerAgrees(t *testing.T) {
	old, head, cur := newOldScanner(piCapture), newHeadScanner(piCapture), NewScanner(piCapture)
	for i, l := range getCorpusN("pi", 4<<20).lines {
		a, h, c := old.Scan(l), head.Scan(l), cur.Scan(l)
		if a != c || h != c {
			t.Fatalf("line %d: old %v, head %v, new %v", i, a, h, c)
		}
		for k := range old.Top {
			if !bytes.Equal(old.Top[k], cur.Top[k]) || !bytes.Equal(head.Top[k], cur.Top[k]) {
				t.Fatalf("line %d: Top[%d] differs", i, k)
			}
		}
		for k := range head.Sub {
			if !bytes.Equal(head.Sub[k], cur.Sub[k]) {
				t.Fatalf("line %d: Sub[%d] differs", i, k)
			}
		}
	}
}
