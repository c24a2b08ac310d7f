package jsonl

import "encoding/json"

// headScanner is Scanner as of commit 31833fa (the session's start: the
// portable eight-bytes-a-step string scan on every architecture, string
// members scanned through value), kept verbatim but for the names, with
// the helpers it called, so that BenchmarkScannerOldNew compares it with
// the current Scanner in one binary.
type headScanner struct {
	f       *Capture
	subSlot int
	object  bool
	Top     [][]byte // raw values of f.Top members (nil when absent)
	Sub     [][]byte // raw values of f.SubKeys members of the Sub object
}

func newHeadScanner(f *Capture) *headScanner {
	if f == nil {
		f = &Capture{}
	}
	s := &headScanner{f: f, subSlot: -1, Top: make([][]byte, len(f.Top)), Sub: make([][]byte, len(f.SubKeys))}
	for k, name := range f.Top {
		if name == f.Sub && f.Sub != "" {
			s.subSlot = k
		}
	}
	return s
}

// Scan validates b as exactly one JSON value (surrounding whitespace
// allowed) and captures the named members when it is an object.
func (s *headScanner) Scan(b []byte) bool {
	s.object = false
	clear(s.Top)
	clear(s.Sub)
	i := headSkipSpace(b, 0)
	if i < len(b) && b[i] == '{' {
		s.object = true
	}
	i, ok := s.value(b, i, 0, capTop)
	return ok && headSkipSpace(b, i) == len(b)
}

// keyIndex returns the index of the key raw (its bytes between the quotes)
// in keys, or -1; escaped says whether raw holds an escape.
func headKeyIndex(raw []byte, keys []string, escaped bool) int {
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

// skipSpace returns the index of the first byte of b at or after i that is
// not JSON white space.
func headSkipSpace(b []byte, i int) int {
	for i < len(b) {
		// Compact JSON has no white space: one test for every byte above it.
		if c := b[i]; c > ' ' || (c != ' ' && c != '\t' && c != '\r' && c != '\n') {
			return i
		}
		i++
	}
	return i
}

func (s *headScanner) value(b []byte, i, depth, mode int) (int, bool) {
	if i >= len(b) {
		return i, false
	}
	var ok bool
	switch c := b[i]; {
	case c == '{':
		if depth >= MaxDepth {
			return i, false
		}
		i = headSkipSpace(b, i+1)
		if i < len(b) && b[i] == '}' {
			return i + 1, true
		}
		for {
			if i >= len(b) || b[i] != '"' {
				return i, false
			}
			ks := i
			var esc bool
			if i, esc, ok = scanStringSWAR(b, i); !ok {
				return i, false
			}
			slot, sub := -1, capNone
			switch mode {
			case capTop:
				slot = headKeyIndex(b[ks+1:i-1], s.f.Top, esc)
				if slot >= 0 && slot == s.subSlot {
					clear(s.Sub)
					sub = capSub
				}
			case capSub:
				slot = headKeyIndex(b[ks+1:i-1], s.f.SubKeys, esc)
			}
			i = headSkipSpace(b, i)
			if i >= len(b) || b[i] != ':' {
				return i, false
			}
			i = headSkipSpace(b, i+1)
			vs := i
			if i, ok = s.value(b, i, depth+1, sub); !ok {
				return i, false
			}
			if slot >= 0 {
				if mode == capTop {
					s.Top[slot] = b[vs:i]
				} else {
					s.Sub[slot] = b[vs:i]
				}
			}
			i = headSkipSpace(b, i)
			if i >= len(b) {
				return i, false
			}
			switch b[i] {
			case ',':
				i = headSkipSpace(b, i+1)
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
		i = headSkipSpace(b, i+1)
		if i < len(b) && b[i] == ']' {
			return i + 1, true
		}
		for {
			if i, ok = s.value(b, i, depth+1, capNone); !ok {
				return i, false
			}
			i = headSkipSpace(b, i)
			if i >= len(b) {
				return i, false
			}
			switch b[i] {
			case ',':
				i = headSkipSpace(b, i+1)
			case ']':
				return i + 1, true
			default:
				return i, false
			}
		}
	case c == '"':
		i, _, ok = scanStringSWAR(b, i)
		return i, ok
	case c == 't':
		return headLit(b, i, "true")
	case c == 'f':
		return headLit(b, i, "false")
	case c == 'n':
		return headLit(b, i, "null")
	case c == '-' || (c >= '0' && c <= '9'):
		return headScanNumber(b, i)
	}
	return i, false
}

func headLit(b []byte, i int, w string) (int, bool) {
	if len(b)-i >= len(w) && string(b[i:i+len(w)]) == w {
		return i + len(w), true
	}
	return i, false
}

func headIsDigit(c byte) bool { return c >= '0' && c <= '9' }

// scanNumber validates the number starting at b[i] ('-' or a digit).
func headScanNumber(b []byte, i int) (int, bool) {
	if b[i] == '-' {
		i++
	}
	if i >= len(b) {
		return i, false
	}
	switch {
	case b[i] == '0':
		i++
	case headIsDigit(b[i]):
		for i < len(b) && headIsDigit(b[i]) {
			i++
		}
	default:
		return i, false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if i >= len(b) || !headIsDigit(b[i]) {
			return i, false
		}
		for i < len(b) && headIsDigit(b[i]) {
			i++
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || !headIsDigit(b[i]) {
			return i, false
		}
		for i < len(b) && headIsDigit(b[i]) {
			i++
		}
	}
	return i, true
}
