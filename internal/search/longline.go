package search

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"unicode/utf8"

	"github.com/sessctl/sessctl/internal/jsonl"
)

// eachLine is sessfmt.EachLine for firstLineHit, from line from on, except
// that a line longer than jsonl.LongLine is never held: long is called with
// its offset and length (newline excluded) in fh instead.
func eachLine(fh *os.File, candidate func(raw []byte) bool, from int,
	short func(line int, raw []byte) error, long func(line int, off, n int64) error) error {
	if _, err := fh.Seek(0, io.SeekStart); err != nil {
		return err
	}
	br := bufio.NewReaderSize(fh, 64<<10)
	var acc []byte
	line := 0
	var pos, start int64 // file offsets: of the next byte read, of the line
	skipping := false    // the line is long: counted, not held
	for {
		chunk, err := br.ReadSlice('\n')
		pos += int64(len(chunk))
		if err == bufio.ErrBufferFull {
			if !skipping {
				if len(acc)+len(chunk) > jsonl.LongLine || line+1 < from {
					skipping, acc = true, acc[:0]
				} else {
					acc = grow(acc, len(chunk))
					acc = append(acc, chunk...)
				}
			}
			continue
		}
		if err != nil && err != io.EOF {
			return err
		}
		if len(chunk) == 0 && len(acc) == 0 && !skipping && err == io.EOF {
			return nil
		}
		line++
		if skipping {
			n := pos - start
			if len(chunk) > 0 && chunk[len(chunk)-1] == '\n' {
				n--
			}
			if line >= from {
				if ferr := long(line, start, n); ferr != nil {
					return ferr
				}
			}
		} else if line >= from {
			raw := chunk
			if len(acc) > 0 {
				acc = append(acc, chunk...)
				raw = acc
			}
			raw = bytes.TrimSuffix(raw, []byte{'\n'})
			if candidate(raw) {
				if ferr := short(line, raw); ferr != nil {
					return ferr
				}
			}
		}
		skipping, acc, start = false, acc[:0], pos
		if err == io.EOF {
			return nil
		}
	}
}

// grow makes room for n more bytes in b, doubling (append grows a large
// slice by a quarter: about five times a long line's size allocated).
func grow(b []byte, n int) []byte {
	if len(b)+n <= cap(b) {
		return b
	}
	c := 2 * cap(b)
	if c < len(b)+n {
		c = len(b) + n
	}
	nb := make([]byte, len(b), c)
	copy(nb, b)
	return nb
}

// looseTexter is a LineTexter whose strings are decoded as fastjson does
// (Claude Code's): a left-out string is decoded so too.
type looseTexter interface{ LooseStrings() bool }

// decodeElided decodes a left-out string of ra in pieces: as fastjson
// does when loose (jsonl.DecodeStringLoose), else as encoding/json.
func decodeElided(ra io.ReaderAt, e jsonl.Elided, loose bool, fn func([]byte) error) error {
	return jsonl.DecodeStringAs(io.NewSectionReader(ra, e.Off, e.Len), !e.Escaped, loose, fn)
}

// streamMatch counts a fixed pattern's matches (Matcher.Find's) in a text
// handed to it in pieces, and keeps the text around the first match that
// Snippet needs (local, from offset localAt, with the spans in it).
type streamMatch struct {
	m      *Matcher
	lit    []byte
	before int // bytes kept before a match: Snippet's width/2 and a rune
	after  int // bytes kept after the first match's end

	win    []byte // the text from winAt on not yet done with
	winAt  int64
	from   int64 // matches start here or later
	total  int
	first  [2]int64
	local  []byte // the text from localAt: around the first match
	spans  [][2]int
	doneAt int64 // local is complete when it reaches here
}

func newStreamMatch(m *Matcher, width int) *streamMatch {
	return &streamMatch{m: m, lit: []byte(m.lit), before: width/2 + 2*utf8.UTFMax, after: width + 2*utf8.UTFMax, first: [2]int64{-1, -1}}
}

// piece matches in the text so far with piece appended.
func (s *streamMatch) piece(p []byte) error {
	s.win = append(s.win, p...)
	s.scan(false)
	return nil
}

func (s *streamMatch) end() { s.scan(true) }

// scan finds the matches starting at s.from or later that lie whole in the
// window (all of them when final: the text ends there), and drops the
// window's start that no later match or snippet needs.
func (s *streamMatch) scan(final bool) {
	w := s.win
	limit := len(w) // a match starting before limit is decided
	if !final {
		limit = len(w) - s.m.pieceLen() + 1
		if s.m.ctxRe != nil {
			// The byte after a match's end is in the window.
			limit--
		}
	}
	rel := int(s.from - s.winAt)
	for rel < limit && rel <= len(w) {
		var a, b int
		if s.m.re == nil {
			i := bytes.Index(w[rel:], s.lit)
			if i < 0 {
				break
			}
			a, b = rel+i, rel+i+len(s.m.lit)
		} else if s.m.ctxRe != nil && s.winAt+int64(rel) > 0 {
			// The byte before rel is in the window (scan keeps it).
			loc := s.m.ctxRe.FindSubmatchIndex(w[rel-1:])
			if loc == nil {
				break
			}
			a, b = rel-1+loc[2], rel-1+loc[3]
		} else {
			loc := s.m.re.FindIndex(w[rel:])
			if loc == nil {
				break
			}
			a, b = rel+loc[0], rel+loc[1]
		}
		if a >= limit {
			break
		}
		s.hit(s.winAt+int64(a), s.winAt+int64(b))
		rel = b
	}
	if rel < limit {
		rel = limit
		for rel > 0 && rel < len(w) && !utf8.RuneStart(w[rel]) {
			rel--
		}
	}
	if rel > len(w) {
		rel = len(w)
	}
	s.from = s.winAt + int64(rel)
	// The snippet's text after the first match.
	if s.first[0] >= 0 && s.local != nil && len(s.local) < int(s.doneAt-s.localAt()) {
		have := s.localAt() + int64(len(s.local))
		if have < s.winAt+int64(len(w)) {
			i := int(have - s.winAt)
			j := len(w)
			if k := int(s.doneAt - s.winAt); k < j {
				j = k
			}
			if i < j {
				s.local = append(s.local, w[i:j]...)
			}
		}
	}
	if final {
		return
	}
	// Keep what a later match or the snippet's start may need.
	keep := rel
	if s.first[0] < 0 {
		keep -= s.before
	}
	if s.m.ctxRe != nil {
		keep-- // the byte before the next search's start
	}
	if keep < 0 {
		keep = 0
	}
	for keep > 0 && keep < len(w) && !utf8.RuneStart(w[keep]) {
		keep--
	}
	if keep > 0 {
		n := copy(s.win, w[keep:])
		s.win = s.win[:n]
		s.winAt += int64(keep)
	}
}

// localAt is the text offset of local's first byte.
func (s *streamMatch) localAt() int64 { return s.first[0] - s.lead() }

func (s *streamMatch) lead() int64 {
	if s.first[0] < int64(s.before) {
		return s.first[0]
	}
	return int64(s.before)
}

// hit counts a match at text offsets [a, b) and, for the first, starts
// local; spans in local are kept while local is being made.
func (s *streamMatch) hit(a, b int64) {
	s.total++
	if s.first[0] < 0 {
		s.first = [2]int64{a, b}
		s.doneAt = b + int64(s.after)
		at := a - s.lead()
		i := int(at - s.winAt)
		s.local = append(make([]byte, 0, int(s.doneAt-at)), s.win[i:]...)
		if over := len(s.local) - int(s.doneAt-at); over > 0 {
			s.local = s.local[:len(s.local)-over]
		}
	}
	at := s.localAt()
	if a < s.doneAt {
		s.spans = append(s.spans, [2]int{int(a - at), int(b - at)})
	}
}
