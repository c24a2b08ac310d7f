// Package jsonl reads JSON Lines files tolerantly and in a streaming way.
//
// Each call to Next yields one physical line with its raw bytes, its byte
// offset and its 1-based line number, classified as an object, a blank line,
// malformed JSON, a JSON value that is not an object, a run of NUL bytes, or a
// torn tail (a last line without a newline that does not parse). There is no
// line-length cap: lines are accumulated from a 1 MiB buffered reader with
// ReadSlice, so memory grows with the longest line only while it is read.
//
// Objects are parsed once with valyala/fastjson, which validates the structure
// and gives order-independent access to fields without unescaping strings
// that are never read (see docs/benchmarks.md for the measurements behind
// that choice). Raw bytes and parsed values are only valid until the next call
// to Next; callers copy what they keep.
package jsonl

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"

	"github.com/valyala/fastjson"
)

// Kind classifies a line.
type Kind uint8

// Line kinds.
const (
	Object    Kind = iota + 1 // a JSON object
	Blank                     // empty or only whitespace
	Malformed                 // not valid JSON (and not a torn tail)
	NonObject                 // valid JSON, but not an object (42, null, [..], "s")
	NULRun                    // contains NUL bytes (zero-filled or pre-allocated tail)
	TornTail                  // last line, no trailing newline, does not parse
)

var kindNames = [...]string{"", "object", "blank", "malformed", "non-object", "nul-run", "torn-tail"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "unknown"
}

// BOM is the UTF-8 byte order mark.
var BOM = []byte{0xEF, 0xBB, 0xBF}

// Record is one physical line of the input.
type Record struct {
	Line    int    // 1-based line number
	Offset  int64  // byte offset of the first byte of the line
	Raw     []byte // the line as stored, without its terminating '\n' (BOM and '\r' included)
	Newline bool   // the line ended with '\n'
	Kind    Kind
	BOM     bool            // the line starts with a UTF-8 BOM (only ever line 1)
	CRLF    bool            // the line ended with "\r\n"
	Value   *fastjson.Value // the parsed object when Kind == Object (not in capture mode)
	// Top and Sub are the captured members in capture mode (see
	// Reader.SetCapture): raw values, nil when absent.
	Top, Sub [][]byte
	// Size is the number of bytes the line occupies, newline included (set
	// by the Reader, so that a copy of the record without its Raw bytes still
	// knows it; 0 means len(Raw) plus the newline).
	Size int64
	// Streamed is set when the line was longer than the reader's long-line
	// limit (SetLongLines): it was validated and captured as it was read and
	// not kept, so Raw is nil and Size gives its length. The captured Top
	// member that holds the Sub object is nil too (its Sub captures are
	// kept).
	Streamed bool
}

// Len is the number of bytes the line occupies in the file, newline included.
func (r *Record) Len() int64 {
	if r.Size > 0 {
		return r.Size
	}
	n := int64(len(r.Raw))
	if r.Newline {
		n++
	}
	return n
}

// Body is the line without BOM and trailing '\r': the bytes that are parsed.
func (r *Record) Body() []byte { return body(r.Raw, r.BOM) }

func body(raw []byte, bom bool) []byte {
	if bom {
		raw = raw[len(BOM):]
	}
	if n := len(raw); n > 0 && raw[n-1] == '\r' {
		raw = raw[:n-1]
	}
	return raw
}

// Str returns the top-level string field key of an object line, or "".
func (r *Record) Str(key string) string {
	s, _ := r.StrOK(key)
	return s
}

// StrOK returns the top-level string field key and whether it exists as a string.
func (r *Record) StrOK(key string) (string, bool) {
	if r.Value == nil {
		return "", false
	}
	o, err := r.Value.Object()
	if err != nil {
		return "", false
	}
	// A duplicated key resolves to its last occurrence, as in JSON.parse
	// (fastjson's Get returns the first).
	var v *fastjson.Value
	o.Visit(func(k []byte, val *fastjson.Value) {
		if string(k) == key {
			v = val
		}
	})
	if v == nil || v.Type() != fastjson.TypeString {
		return "", false
	}
	b, err := v.StringBytes()
	if err != nil {
		return "", false
	}
	return string(b), true
}

// Reader reads records from an io.Reader.
type Reader struct {
	scan     *Scanner // capture mode (SetCapture): validate and capture, no tree
	long     int      // long-line limit in capture mode (SetLongLines; 0: none)
	stream   *streamScanner
	br       *bufio.Reader
	capture  *Capture
	parser   fastjson.Parser
	rec      Record
	overflow []byte
	offset   int64
	line     int
	err      error
	done     bool
}

// LongLine is the long-line limit the pi index uses (see SetLongLines).
const LongLine = 4 * BufferSize

// BufferSize is the size of the read buffer.
const BufferSize = 1 << 20

// NewReader returns a Reader reading from r.
func NewReader(r io.Reader) *Reader {
	return &Reader{br: bufio.NewReaderSize(r, BufferSize)}
}

// newReaderSize is NewReader with a read buffer of n bytes (tests).
func newReaderSize(r io.Reader, n int) *Reader {
	return &Reader{br: bufio.NewReaderSize(r, n)}
}

// NewReaderAt returns a Reader whose offsets and line numbers start at the
// given values (for reading from the middle of a file).
func NewReaderAt(r io.Reader, offset int64, line int) *Reader {
	rd := NewReader(r)
	rd.offset = offset
	rd.line = line - 1
	return rd
}

// Next advances to the next line. It returns false at the end of the input or
// on a read error (see Err).
func (r *Reader) Next() bool {
	if r.done {
		return false
	}
	raw, nl, err := r.readLine()
	if err == errStreamed {
		return r.nextStreamed()
	}
	if err != nil && !errors.Is(err, io.EOF) {
		r.err = err
		r.done = true
		return false
	}
	if len(raw) == 0 && !nl {
		r.done = true
		return false
	}
	r.line++
	rec := &r.rec
	*rec = Record{Line: r.line, Offset: r.offset, Raw: raw, Newline: nl}
	rec.Size = rec.Len()
	r.offset += rec.Len()
	if rec.Line == 1 && bytes.HasPrefix(raw, BOM) {
		rec.BOM = true
	}
	if nl && len(raw) > 0 && raw[len(raw)-1] == '\r' {
		rec.CRLF = true
	}
	rec.Kind, rec.Value = r.classify(rec.Body(), nl)
	if r.scan != nil && rec.Kind == Object {
		rec.Top, rec.Sub = r.scan.Top, r.scan.Sub
	}
	if !nl {
		r.done = true
	}
	return true
}

// SetCapture switches the reader to capture mode: lines are validated with
// a Scanner that picks out the members c names (Record.Top, Record.Sub)
// instead of being parsed into a tree (Record.Value stays nil). It is the
// fast path for indexing: one pass over each line, nothing allocated.
func (r *Reader) SetCapture(c *Capture) { r.scan = NewScanner(c); r.capture = c }

// SetLongLines makes a capture-mode reader validate a line longer than n
// bytes as it reads it, without keeping it (Record.Streamed): memory does not
// grow with the length of a line, whatever it is. n < BufferSize means
// BufferSize; 0 turns it off.
func (r *Reader) SetLongLines(n int) {
	if n > 0 && n < r.br.Size() {
		n = r.br.Size()
	}
	r.long = n
}

// errStreamed tells Next that readLine went over the long-line limit and
// left the rest of the line to nextStreamed.
var errStreamed = errors.New("line streamed")

// nextStreamed validates the rest of a line longer than the long-line
// limit (r.overflow holds its start) chunk by chunk and yields its record.
func (r *Reader) nextStreamed() bool {
	if r.stream == nil {
		r.stream = newStreamScanner(r.capture)
	}
	st := r.stream
	st.reset()
	r.line++
	rec := &r.rec
	*rec = Record{Line: r.line, Offset: r.offset, Streamed: true}
	head := r.overflow
	if rec.Line == 1 && bytes.HasPrefix(head, BOM) {
		rec.BOM = true
		head = head[len(BOM):]
	}
	size := int64(len(r.overflow))
	var last byte // the last byte of the line before its newline
	feed := func(b []byte) {
		if len(b) > 0 {
			st.Write(b)
			last = b[len(b)-1]
		}
	}
	feed(head)
	r.overflow = r.overflow[:0]
	nl, n, err := feedLineRest(r.br, feed)
	size += n
	if err != nil {
		r.err = err
		r.done = true
		return false
	}
	rec.Newline = nl
	rec.Size = size
	r.offset += size
	rec.CRLF = nl && last == '\r'
	streamedKind(st, rec)
	if !nl {
		r.done = true
	}
	return true
}

// streamedKind classifies a streamed line once st has seen all of it, as
// classify does a held one, and sets its captures.
func streamedKind(st *streamScanner, rec *Record) {
	ok := st.Close()
	switch {
	case !st.nonWS:
		rec.Kind = Blank
	case st.hasNUL:
		rec.Kind = NULRun
	case !ok && !rec.Newline:
		rec.Kind = TornTail
	case !ok:
		rec.Kind = Malformed
	case !st.object:
		rec.Kind = NonObject
	default:
		rec.Kind = Object
		rec.Top, rec.Sub = st.Top, st.Sub
	}
}

// Record returns the current record. It is overwritten by the next call to Next.
func (r *Reader) Record() *Record { return &r.rec }

// Err returns the first read error, if any (io.EOF is not an error).
func (r *Reader) Err() error { return r.err }

func (r *Reader) readLine() ([]byte, bool, error) {
	if cap(r.overflow) > 4*BufferSize {
		r.overflow = nil // do not keep a huge line's buffer for the rest of the file
	}
	line, err := r.br.ReadSlice('\n')
	if err == nil {
		return line[:len(line)-1], true, nil
	}
	if !errors.Is(err, bufio.ErrBufferFull) {
		return line, false, err
	}
	r.overflow = append(r.overflow[:0], line...)
	for {
		if r.long > 0 && r.scan != nil && len(r.overflow) >= r.long {
			return nil, false, errStreamed
		}
		line, err = r.br.ReadSlice('\n')
		r.overflow = append(r.overflow, line...)
		if err == nil {
			return r.overflow[:len(r.overflow)-1], true, nil
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return r.overflow, false, err
		}
	}
}

func (r *Reader) classify(b []byte, newline bool) (Kind, *fastjson.Value) {
	if r.scan != nil { // blank and NUL are tested after a failed scan only
		return classifyScan(r.scan, b, newline), nil
	}
	if isBlank(b) {
		return Blank, nil
	}
	if bytes.IndexByte(b, 0) >= 0 {
		return NULRun, nil
	}
	v, err := r.parser.ParseBytes(b)
	if err == nil {
		// ParseBytes is lenient about scalars (it accepts NaN, Inf, 1.2.3,
		// +1, 01, unknown escapes and raw control characters in strings),
		// which JSON.parse in the agents' loaders rejects. Validate after a
		// successful parse: the parse bounds nesting depth (MaxDepth), so
		// the recursive validator cannot exhaust the stack on "[[[[...".
		err = fastjson.ValidateBytes(b)
	}
	if err == nil && hasControl(b) && !json.Valid(b) {
		// ValidateBytes misses raw control characters that precede an
		// escape sequence in the same string ("x<TAB>\n"), which JSON.parse
		// rejects. Such bytes are rare (JSON.stringify never writes them),
		// so the exact check only runs when one is present.
		err = errInvalidJSON
	}
	if err != nil {
		if !newline {
			return TornTail, nil
		}
		return Malformed, nil
	}
	if v.Type() != fastjson.TypeObject {
		return NonObject, nil
	}
	return Object, v
}

var errInvalidJSON = errors.New("invalid JSON")

// classifyScan classifies a line body with a capture-mode Scanner. A line
// that scans as JSON can hold no NUL byte (nor be blank), so the blank and
// NUL tests run only on lines that fail to scan: one pass over a valid line.
func classifyScan(s *Scanner, b []byte, newline bool) Kind {
	if s.Scan(b) {
		if s.IsObject() {
			return Object
		}
		return NonObject
	}
	return classifyInvalid(b, newline)
}

// classifyInvalid is the kind of a line b that holds no valid JSON value
// (its scan failed): Blank, NULRun, TornTail or Malformed.
func classifyInvalid(b []byte, newline bool) Kind {
	if isBlank(b) {
		return Blank
	}
	if bytes.IndexByte(b, 0) >= 0 {
		return NULRun
	}
	if !newline {
		return TornTail
	}
	return Malformed
}

// hasControl reports whether b contains a byte below 0x20, eight bytes at a
// time (a word has a byte < n, n <= 128, iff (w - n*0x01..01) & ^w & 0x80..80 != 0).
func hasControl(b []byte) bool {
	for len(b) >= 8 {
		w := binary.LittleEndian.Uint64(b)
		if (w-0x2020202020202020)&^w&0x8080808080808080 != 0 {
			return true
		}
		b = b[8:]
	}
	for _, c := range b {
		if c < 0x20 {
			return true
		}
	}
	return false
}

func isBlank(b []byte) bool {
	for _, c := range b {
		switch c {
		case ' ', '\t', '\r', '\n':
		default:
			return false
		}
	}
	return true
}

// Classify classifies one line on its own (raw bytes without '\n'). It is
// meant for tests and for tools that re-check single lines.
func Classify(raw []byte, first, newline bool) Kind {
	var p fastjson.Parser
	r := Reader{parser: p}
	k, _ := r.classify(body(raw, first && bytes.HasPrefix(raw, BOM)), newline)
	return k
}

// ReadLineAt reads the n bytes of a line at off from ra (n as recorded by Len,
// possibly including the newline) and returns them without the trailing newline.
func ReadLineAt(ra io.ReaderAt, off int64, n int64) ([]byte, error) {
	buf := make([]byte, n)
	m, err := ra.ReadAt(buf, off)
	if m < len(buf) {
		if err == nil || errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF // the file is shorter than recorded
		}
		return nil, err
	}
	if n > 0 && buf[n-1] == '\n' {
		buf = buf[:n-1]
	}
	return buf, nil
}
