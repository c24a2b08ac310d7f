package search

import (
	"bytes"
	"io"
	"strings"
	"unicode/utf8"
)

// Prefilter picks, from raw JSON bytes, the records that may hold a match
// on their decoded text. It never drops a record that could match:
//
//   - It looks for the longest run S of the literal that JSON writers store
//     as is: no '"', '\\' or control characters (always escaped), and, when
//     folding case, ASCII only (a non-ASCII letter's other case is other
//     bytes). With case folding the comparison is ASCII-case-insensitive.
//   - A writer may still escape any character as \uXXXX (Go escapes < > &,
//     Python everything past ASCII) and '/' as \/: a record holding such an
//     escape of a character of S is a candidate too ("alarm").
//   - Unicode case folding (a -E pattern with -i or (?i)) also maps K
//     (U+212A, Kelvin) to k and ſ (U+017F) to s: if S holds k or s, a record
//     holding either (raw or escaped) is a candidate. A fixed string with -i
//     folds ASCII letters with ASCII only, so it needs no such alarm.
//
// A pattern with no such run gets no prefilter (Compile returns nil).
type Prefilter struct {
	s      []byte // the run, lowered when fold
	fold   bool
	rare   int           // index in s of the byte searched first
	pair   int           // len(s) > 1: index in s of the rarest pair (searched first when fold)
	danger map[rune]bool // characters of s (both cases when fold)
	slash  bool          // s holds '/'
	ks     bool          // fold and s holds k or s
	alarms [][]byte      // extra raw sequences that make a candidate
	maxAlm int           // longest alarm sequence
	_      [0]func()     // not comparable
}

func plainByte(c byte, fold bool) bool {
	if c < 0x20 || c == '"' || c == '\\' || c == 0x7f {
		return false
	}
	if fold && c >= 0x80 {
		return false
	}
	return true
}

func newPrefilter(lit string, fold, unicodeFold bool) *Prefilter {
	// Longest run of plain bytes; runs are cut at whole characters.
	bestStart, bestLen := 0, 0
	start := 0
	for i := 0; i <= len(lit); {
		if i == len(lit) {
			if i-start > bestLen {
				bestStart, bestLen = start, i-start
			}
			break
		}
		r, size := utf8.DecodeRuneInString(lit[i:])
		plain := true
		for j := 0; j < size; j++ {
			if !plainByte(lit[i+j], fold) {
				plain = false
			}
		}
		if r == 0x2028 || r == 0x2029 { // escaped by some writers; alarms cover it below
			plain = true
		}
		if !plain {
			if i-start > bestLen {
				bestStart, bestLen = start, i-start
			}
			start = i + size
		}
		i += size
	}
	if bestLen == 0 {
		return nil
	}
	s := []byte(lit[bestStart : bestStart+bestLen])
	p := &Prefilter{fold: fold, danger: map[rune]bool{}}
	for _, r := range string(s) {
		p.danger[r] = true
		if fold && r < 0x80 {
			p.danger[toLowerRune(r)] = true
			p.danger[toUpperRune(r)] = true
		}
		if r == '/' {
			p.slash = true
		}
		if fold && unicodeFold && (r == 'k' || r == 'K' || r == 's' || r == 'S') {
			p.ks = true
		}
	}
	if fold {
		for i, c := range s {
			s[i] = lower(c)
		}
	}
	p.s = s
	p.rare = rarest(s)
	p.pair = -1
	if len(s) > 1 {
		p.pair = rarestPair(s)
	}
	if p.ks {
		p.alarms = append(p.alarms, []byte("\u212a"), []byte("\u017f"))
	}
	p.maxAlm = 12 // \uD83D\uDE00
	for _, a := range p.alarms {
		if len(a) > p.maxAlm {
			p.maxAlm = len(a)
		}
	}
	return p
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 32
	}
	return c
}

func toLowerRune(r rune) rune {
	if 'A' <= r && r <= 'Z' {
		return r + 32
	}
	return r
}

func toUpperRune(r rune) rune {
	if 'a' <= r && r <= 'z' {
		return r - 32
	}
	return r
}

// rarest picks the byte of s least frequent in typical transcripts (JSON,
// English, code), so that the first search step stops rarely.
func rarest(s []byte) int {
	best, bestRank := 0, 1<<30
	for i, c := range s {
		if r := byteRank(c); r < bestRank {
			best, bestRank = i, r
		}
	}
	return best
}

// rarestPair picks the two adjacent bytes of s least frequent together:
// with case folded, a pair of letters stops a search far less often than
// either case of one letter.
func rarestPair(s []byte) int {
	best, bestRank := 0, 1<<30
	for i := 0; i+1 < len(s); i++ {
		if r := byteRank(s[i]) + byteRank(s[i+1]); r < bestRank {
			best, bestRank = i, r
		}
	}
	return best
}

// byteRank is a rough frequency rank in transcripts (JSON of English text,
// code, ids and timestamps): higher is more common.
func byteRank(c byte) int {
	const letters = "etaoinsrhldcumfpgwybvkxjqz" // English, most common first
	switch {
	case c >= 0x80:
		return 30
	case c == '"' || c == ':' || c == ',' || c == '{' || c == '}' || c == ' ':
		return 200
	case c >= '0' && c <= '9', c == '-', c == '.', c == '_', c == '/', c == '\\':
		return 150
	case c >= 'a' && c <= 'z':
		return 140 - 4*strings.IndexByte(letters, c)
	case c >= 'A' && c <= 'Z':
		return 100 - 4*strings.IndexByte(letters, c+32)
	}
	return 40
}

// Literal is the run of the pattern the prefilter looks for (lowered when
// case is folded).
func (p *Prefilter) Literal() string { return string(p.s) }

// Candidate reports whether the raw record may hold a match.
func (p *Prefilter) Candidate(raw []byte) bool {
	return p.next(raw, 0) >= 0 || p.alarm(raw) >= 0
}

// next returns the index of the first occurrence of s in b at or after
// from, or -1.
func (p *Prefilter) next(b []byte, from int) int {
	s := p.s
	if p.pair >= 0 && p.fold {
		// Case folded: the rarest pair, both ASCII-case-insensitively, in
		// one word-at-a-time pass, then the whole run around it.
		return p.nextPair(b, from)
	}
	// Look for the rarest byte of s (both cases when folding) with
	// IndexByte, which is vectorised, then compare s around it. When that
	// byte turns out common in this text (a stop every few hundred bytes),
	// go on with the pair scan, whose stops are far rarer.
	rc := s[p.rare]
	uc := rc
	if p.fold && 'a' <= rc && rc <= 'z' {
		uc = rc - 32
	}
	nextL, nextU := -2, -2
	pos := from + p.rare
	fails := 0
	for {
		if pos >= len(b) {
			return -1
		}
		if fails >= 16 && p.pair >= 0 && pos-from < fails*256 {
			return p.nextPair(b, pos-p.rare)
		}
		if nextL != -1 && nextL < pos {
			nextL = indexFrom(b, rc, pos)
		}
		if uc != rc && nextU != -1 && nextU < pos {
			nextU = indexFrom(b, uc, pos)
		}
		at := nextL
		if uc != rc && nextU >= 0 && (at < 0 || nextU < at) {
			at = nextU
		}
		if at < 0 {
			return -1
		}
		start := at - p.rare
		if start >= from && start+len(s) <= len(b) {
			if p.fold {
				if foldEqual(b[start:start+len(s)], s) {
					return start
				}
			} else if bytes.Equal(b[start:start+len(s)], s) {
				return start
			}
		}
		fails++
		pos = at + 1
	}
}

// nextPair is next by the rarest pair of s (case-folded when p.fold), found
// with the word-at-a-time scan. It finds every occurrence starting at or
// after from.
func (p *Prefilter) nextPair(b []byte, from int) int {
	s := p.s
	c0, c1 := s[p.pair], s[p.pair+1]
	var o0, o1 byte
	if p.fold {
		o0, o1 = caseBit(c0), caseBit(c1)
	}
	for pos := from + p.pair; pos < len(b); {
		i := indexPairOr(b[pos:], c0, o0, c1, o1)
		if i < 0 {
			return -1
		}
		at := pos + i
		start := at - p.pair
		if start+len(s) <= len(b) {
			if p.fold {
				if foldEqual(b[start:start+len(s)], s) {
					return start
				}
			} else if bytes.Equal(b[start:start+len(s)], s) {
				return start
			}
		}
		pos = at + 1
	}
	return -1
}

func indexFrom(b []byte, c byte, from int) int {
	if from >= len(b) {
		return -1
	}
	i := bytes.IndexByte(b[from:], c)
	if i < 0 {
		return -1
	}
	return from + i
}

// foldEqual compares b with the lowered s, ASCII-case-insensitively.
func foldEqual(b, s []byte) bool {
	for i := range s {
		if lower(b[i]) != s[i] {
			return false
		}
	}
	return true
}

// alarm returns the index of the first escape or sequence in b that may
// decode to a character of s, or -1.
func (p *Prefilter) alarm(b []byte) int {
	best := -1
	for _, a := range p.alarms {
		if i := bytes.Index(b, a); i >= 0 && (best < 0 || i < best) {
			best = i
		}
	}
	if p.slash {
		if i := indexPair(b, '\\', '/'); i >= 0 && (best < 0 || i < best) {
			best = i
		}
	}
	for off := 0; off < len(b); {
		i := indexPair(b[off:], '\\', 'u')
		if i < 0 {
			break
		}
		at := off + i
		if best >= 0 && at > best {
			break
		}
		if r, ok := unicodeEscape(b[at:]); ok && p.escapedDanger(r) {
			return at
		}
		off = at + 2
	}
	return best
}

func (p *Prefilter) escapedDanger(r rune) bool {
	if p.danger[r] {
		return true
	}
	return p.ks && (r == 0x212a || r == 0x17f)
}

// unicodeEscape decodes \uXXXX (and a following low surrogate) at b.
func unicodeEscape(b []byte) (rune, bool) {
	r, ok := hex4(b)
	if !ok {
		return 0, false
	}
	if r >= 0xd800 && r < 0xdc00 && len(b) >= 12 && b[6] == '\\' && b[7] == 'u' {
		if lo, ok := hex4(b[6:]); ok && lo >= 0xdc00 && lo < 0xe000 {
			return (r-0xd800)<<10 + (lo - 0xdc00) + 0x10000, true
		}
	}
	return r, true
}

func hex4(b []byte) (rune, bool) {
	if len(b) < 6 || b[0] != '\\' || b[1] != 'u' {
		return 0, false
	}
	var r rune
	for _, c := range b[2:6] {
		switch {
		case '0' <= c && c <= '9':
			r = r<<4 | rune(c-'0')
		case 'a' <= c && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case 'A' <= c && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

// ScanLines reads a JSONL stream and calls fn with the 1-based number of
// each line that may hold a match, in order, once per line. It holds no
// line whole: memory is the buffer, whatever the line lengths.
func (p *Prefilter) ScanLines(r io.Reader, buf []byte, fn func(line int) error) error {
	return p.scan(r, buf, true, false, func(l int, _ []byte) error { return fn(l) })
}

// ScanLineBytes is ScanLines that also gives each candidate line's bytes
// (without the newline) when the whole line lies in the block read, so that
// it can be decoded at once; raw is nil when the line does not (it goes on
// past the block or began in an earlier one), and the caller reads it
// otherwise. raw is valid only during the call. The first block read is at
// most first bytes (0: the buffer), for callers that expect an early stop.
func (p *Prefilter) ScanLineBytes(r io.Reader, buf []byte, first int, fn func(line int, raw []byte) error) error {
	return p.scanFrom(r, buf, first, true, true, fn)
}

// Any reports whether a JSONL stream holds a line that may hold a match. It
// reads the stream in blocks of buf, runs the prefilter over each whole
// block and stops at the first candidate; it counts no lines.
func (p *Prefilter) Any(r io.Reader, buf []byte) (bool, error) {
	found := false
	err := p.scan(r, buf, false, false, func(int, []byte) error { found = true; return errStop })
	if err == errStop {
		err = nil
	}
	return found, err
}

// scan runs the prefilter over the stream block by block: the literal
// (rare byte with IndexByte, then a comparison) and the escapes that could
// hide a character of it, each over the whole block. Only at a hit is the
// line found: its number (when lines is set, by counting newlines from the
// last hit) and its end, where the scan goes on. A match may straddle two
// blocks: the last bytes of a block, as many as the longest sequence looked
// for, are carried to the next.
func (p *Prefilter) scan(r io.Reader, buf []byte, lines, withRaw bool, fn func(line int, raw []byte) error) error {
	return p.scanFrom(r, buf, 0, lines, withRaw, fn)
}

// scanFrom is scan whose first block is at most first bytes (0: the
// buffer).
//
// With withRaw, a candidate line that the end of a block cuts (not the end
// of the stream) is not reported cut when it is short: the next block
// starts with it (carried whole, at most a quarter of buf) and it is
// reported from there, whole. So a small first block costs only a second
// read when the first candidate line runs past it.
func (p *Prefilter) scanFrom(r io.Reader, buf []byte, first int, lines, withRaw bool, fn func(line int, raw []byte) error) error {
	keep := len(p.s) - 1
	if p.maxAlm-1 > keep {
		keep = p.maxAlm - 1
	}
	if len(buf) < 2*keep+4096 {
		buf = make([]byte, 2*keep+1<<20)
	}
	n := 0            // bytes in buf
	line := 1         // line number of buf[0] (when lines)
	lastLine := 0     // last line reported
	lineStart := true // buf[0] starts a line
	fill := len(buf)
	if first > 2*keep && first < fill {
		fill = first
	}
	for {
		m, err := io.ReadFull(r, buf[n:fill])
		n += m
		fill = len(buf)
		eof := err == io.EOF || err == io.ErrUnexpectedEOF
		if err != nil && !eof {
			return err
		}
		b := buf[:n]
		// Positions are turned into line numbers by counting newlines from
		// a moving mark.
		mark, markLine := 0, line
		lineOf := func(pos int) int {
			if lines {
				if pos >= mark {
					markLine += bytes.Count(b[mark:pos], []byte{'\n'})
				} else { // the cut, before a hit in the carried tail
					markLine -= bytes.Count(b[pos:mark], []byte{'\n'})
				}
				mark = pos
			}
			return markLine
		}
		carry := -1 // where the cut candidate line to carry whole starts
		report := func(pos int) (next int, err error) {
			l := lineOf(pos)
			nl := bytes.IndexByte(b[pos:], '\n')
			if !lines || l > lastLine {
				var raw []byte
				if withRaw {
					start := bytes.LastIndexByte(b[:pos], '\n') + 1
					end := pos + nl
					if nl < 0 {
						end = len(b)
					}
					whole := start > 0 || lineStart
					if whole && nl < 0 && !eof && len(b)-start <= len(buf)/4 {
						carry = start // reported from the next block
						return len(b), nil
					}
					if whole && (nl >= 0 || eof) {
						raw = b[start:end:end]
					}
				}
				lastLine = l
				if err := fn(l, raw); err != nil {
					return 0, err
				}
			}
			if nl < 0 {
				return len(b), nil
			}
			return pos + nl + 1, nil
		}
		// Literal hits and alarms, merged in order; each is looked up again
		// only once the scan has passed it.
		nextLit, nextAlm := -2, -2
		for off := 0; off < len(b); {
			if nextLit != -1 && nextLit < off {
				nextLit = p.next(b, off)
			}
			if nextAlm != -1 && nextAlm < off {
				if nextAlm = p.alarm(b[off:]); nextAlm >= 0 {
					nextAlm += off
				}
			}
			i := nextLit
			if i < 0 || (nextAlm >= 0 && nextAlm < i) {
				i = nextAlm
			}
			if i < 0 {
				break
			}
			next, err := report(i)
			if err != nil {
				return err
			}
			off = next
		}
		if eof {
			return nil
		}
		// Carry the last keep bytes (a match may straddle the cut), or the
		// cut candidate line whole.
		cut := n - keep
		if cut < 0 {
			cut = 0
		}
		if carry >= 0 && carry <= cut {
			cut = carry
			lineStart = true
		} else {
			lineStart = lineStart && cut == 0
		}
		line = lineOf(cut)
		copy(buf, buf[cut:n])
		n -= cut
	}
}
