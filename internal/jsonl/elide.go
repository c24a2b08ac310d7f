package jsonl

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"io"
	"math/bits"
	"strconv"
	"strings"
)

// Elided is a string value an Elider left out of its copy.
type Elided struct {
	// Off and Len locate the raw string, quotes included: Off is the
	// base given to Elide plus the string's position in its input.
	Off, Len int64
	// Escaped reports that the raw string holds a backslash (without one,
	// String keeps its bytes as they are).
	Escaped bool
}

// Elider copies JSON text, leaving out every string value longer than Min
// raw bytes (quotes included): each is replaced by a placeholder string
// and recorded in Refs, so a line of hundreds of megabytes whose size is
// one long text becomes a small object that the usual decoders read, and
// the text is decoded from the file later, in pieces (DecodeString), where
// it is printed. Member names are never left out.
//
// A placeholder is a fixed prefix holding a random nonce made once per
// process, then the number of its entry in Refs: content cannot hold one
// without knowing the nonce, so a decoded string is a placeholder exactly
// when Lookup finds it, and holds one exactly when Holds says so. The
// Elider does not validate: its input is a line that the index already
// found to be valid JSON.
type Elider struct {
	Min  int
	Refs []Elided

	buf []byte
	// state of the copy
	inStr, esc, isKey, eliding, escaped bool
	expectKey                           bool
	stack                               []byte
	pend                                []byte
	start, length                       int64

	// line mode (longelide.go): the validator fed the same pieces, the
	// copy being made, where it started, the next byte's offset, the
	// number of Refs before the line, whether the copy was dropped (the
	// line is not valid JSON, or not an object), and whether it has begun
	// (white space before the first other byte is not copied).
	v       *streamScanner
	out     []byte
	outFrom int
	pos     int64
	refsAt  int
	dropped bool
	started bool
	last    byte // the last byte written
}

// elidePrefix is the start of every placeholder of this process.
var elidePrefix = func() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand does not fail on supported systems
	}
	return "sessctl-elided-" + hex.EncodeToString(b[:]) + "-"
}()

// ElidedMin is the default Min: strings longer than this are elided.
const ElidedMin = 64 << 10

// NewElider returns an Elider leaving out string values longer than min
// raw bytes.
func NewElider(min int) *Elider { return &Elider{Min: min} }

// Elide appends to dst the copy of the JSON text read from r with long
// string values replaced by placeholders; base is added to the offsets it
// records (the input's offset in its file). It reads r in pieces of
// StringPiece bytes.
func (e *Elider) Elide(dst []byte, r io.Reader, base int64) ([]byte, error) {
	e.reset()
	if e.buf == nil {
		e.buf = make([]byte, StringPiece)
	}
	pos := base
	for {
		n, err := r.Read(e.buf)
		if n > 0 {
			dst = e.copy(dst, e.buf[:n], pos)
			pos += int64(n)
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return dst, err
		}
	}
	if e.inStr {
		// An unterminated string (the file changed): keep what was kept.
		dst = append(dst, e.pend...)
		e.inStr = false
	}
	return dst, nil
}

// reset readies the copy for a new text.
func (e *Elider) reset() {
	e.inStr, e.esc, e.expectKey = false, false, false
	e.stack = e.stack[:0]
}

// copy processes one piece of input starting at file offset pos.
func (e *Elider) copy(dst, b []byte, pos int64) []byte {
	for i := 0; i < len(b); {
		if e.inStr {
			if e.esc {
				e.esc = false
				e.str(b[i : i+1])
				i++
				continue
			}
			j := indexQuoteOrBackslash(b[i:])
			if j < 0 {
				e.str(b[i:])
				break
			}
			e.str(b[i : i+j+1])
			i += j + 1
			if b[i-1] == '\\' {
				e.esc, e.escaped = true, true
				continue
			}
			dst = e.endString(dst)
			continue
		}
		c := b[i]
		switch c {
		case '"':
			e.inStr, e.eliding, e.escaped = true, false, false
			e.isKey = e.expectKey && len(e.stack) > 0 && e.stack[len(e.stack)-1] == '{'
			e.start, e.length = pos+int64(i), 1
			e.pend = append(e.pend[:0], '"')
			i++
			continue
		case '{', '[':
			e.stack = append(e.stack, c)
			e.expectKey = c == '{'
		case '}', ']':
			if len(e.stack) > 0 {
				e.stack = e.stack[:len(e.stack)-1]
			}
			e.expectKey = false
		case ',':
			e.expectKey = len(e.stack) > 0 && e.stack[len(e.stack)-1] == '{'
		case ':':
			e.expectKey = false
		}
		dst = append(dst, c)
		i++
	}
	return dst
}

// indexQuoteOrBackslash is bytes.IndexAny(b, "\"\\"), eight bytes at a
// time (a word has a byte equal to c iff w^(c*0x01..01) has a zero byte;
// the lowest zero byte the test finds is exact): the strings left out are
// most of a long line, and IndexAny tests them byte by byte.
func indexQuoteOrBackslash(b []byte) int {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		q := x ^ (lo * '"')
		e := x ^ (lo * '\\')
		if t := ((q-lo)&^q | (e-lo)&^e) & hi; t != 0 {
			return i + bits.TrailingZeros64(t)>>3
		}
	}
	for ; i < len(b); i++ {
		if b[i] == '"' || b[i] == '\\' {
			return i
		}
	}
	return -1
}

// str takes the next bytes of the current string.
func (e *Elider) str(p []byte) {
	e.length += int64(len(p))
	if e.eliding {
		return
	}
	e.pend = append(e.pend, p...)
	if !e.isKey && len(e.pend) > e.Min {
		e.eliding = true
		e.pend = e.pend[:0]
	}
}

// endString writes the string just closed, or its placeholder.
func (e *Elider) endString(dst []byte) []byte {
	e.inStr = false
	if !e.eliding {
		return append(dst, e.pend...)
	}
	dst = append(dst, '"')
	dst = append(dst, elidePrefix...)
	dst = strconv.AppendInt(dst, int64(len(e.Refs)), 10)
	dst = append(dst, '"')
	e.Refs = append(e.Refs, Elided{Off: e.start, Len: e.length, Escaped: e.escaped})
	return dst
}

// Lookup returns the elided string that s, a decoded string value, stands
// for, and false when s is not one of this Elider's placeholders.
func (e *Elider) Lookup(s string) (Elided, bool) {
	if !strings.HasPrefix(s, elidePrefix) {
		return Elided{}, false
	}
	k, err := strconv.Atoi(s[len(elidePrefix):])
	if err != nil || k < 0 || k >= len(e.Refs) || strconv.Itoa(k) != s[len(elidePrefix):] {
		return Elided{}, false
	}
	return e.Refs[k], true
}

// Holds reports whether s holds a placeholder (of any Elider of this
// process).
func Holds(s string) bool { return strings.Contains(s, elidePrefix) }

// HoldsBytes is Holds for raw bytes.
func HoldsBytes(b []byte) bool { return bytes.Contains(b, []byte(elidePrefix)) }

// Expand appends to dst the elided copy small with every placeholder
// replaced by the raw string it stands for, read from ra: the bytes Elide
// was given, where the copy is not changed otherwise (ExpandTo writes
// them instead).
func (e *Elider) Expand(dst, small []byte, ra io.ReaderAt) ([]byte, error) {
	w := appendWriter{dst}
	err := e.ExpandTo(&w, small, ra)
	return w.b, err
}

type appendWriter struct{ b []byte }

func (w *appendWriter) Write(p []byte) (int, error) {
	w.b = append(w.b, p...)
	return len(p), nil
}

// ExpandTo writes small to w with every placeholder replaced by the raw
// string it stands for, copied from ra through a small buffer, never held.
func (e *Elider) ExpandTo(w io.Writer, small []byte, ra io.ReaderAt) error {
	return e.ExpandWith(w, small, func(w io.Writer, ref Elided) error {
		n, err := io.Copy(w, io.NewSectionReader(ra, ref.Off, ref.Len))
		if err == nil && n != ref.Len {
			err = io.ErrUnexpectedEOF
		}
		return err
	})
}

// ExpandWith is ExpandTo with each placeholder (quotes included) written
// by put instead of copied: for a reader that wrote some strings
// re-encoded, not as stored.
func (e *Elider) ExpandWith(w io.Writer, small []byte, put func(w io.Writer, ref Elided) error) error {
	q := []byte(`"` + elidePrefix)
	for {
		j := bytes.Index(small, q)
		if j < 0 {
			_, err := w.Write(small)
			return err
		}
		rest := small[j+len(q):]
		end := bytes.IndexByte(rest, '"')
		if end < 0 {
			_, err := w.Write(small)
			return err
		}
		ref, ok := e.Lookup(elidePrefix + string(rest[:end]))
		if !ok {
			j += len(q) + end + 1
		}
		if _, err := w.Write(small[:j]); err != nil {
			return err
		}
		small = rest[end+1:]
		if !ok {
			continue
		}
		if err := put(w, ref); err != nil {
			return err
		}
	}
}
