package jsonl

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// ElidingReader reads lines as a capture-mode Reader (SetCapture(nil))
// with a long-line limit (SetLongLines) does, with the same records, for
// a caller that reads a long object line through its elided copy: a line
// over the limit is validated and elided in the one read of it (Elider
// line mode) instead of validated by the Reader and then read again to be
// elided. FuzzElidingReader holds its records to the Reader's.
type ElidingReader struct {
	br     *bufio.Reader
	scan   *Scanner
	el     *Elider
	long   int
	rec    Record
	held   []byte // a line longer than the buffer, up to the limit
	small  []byte // the elided copy of the current streamed line
	offset int64
	line   int
	err    error
	done   bool
}

// NewElidingReader returns an ElidingReader reading r whose long-line
// limit is long bytes (at least BufferSize, as SetLongLines); long
// strings are those over ElidedMin bytes.
func NewElidingReader(r io.Reader, long int) *ElidingReader {
	return newElidingReaderSize(r, BufferSize, long)
}

func newElidingReaderSize(r io.Reader, size, long int) *ElidingReader {
	br := bufio.NewReaderSize(r, size)
	return &ElidingReader{br: br, scan: NewScanner(nil), el: NewElider(ElidedMin), long: max(long, br.Size())}
}

// Next advances to the next line; false at the end of the input or on a
// read error (Err).
func (r *ElidingReader) Next() bool {
	if r.done {
		return false
	}
	if cap(r.held) > 4*BufferSize {
		r.held = nil // do not keep a huge line's buffer for the rest of the input
	}
	raw, err := r.br.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		r.held = append(r.held[:0], raw...)
		for errors.Is(err, bufio.ErrBufferFull) {
			if len(r.held) >= r.long {
				return r.nextLong()
			}
			raw, err = r.br.ReadSlice('\n')
			r.held = append(r.held, raw...)
		}
		raw = r.held
	}
	nl := err == nil
	if err != nil && !errors.Is(err, io.EOF) {
		r.err, r.done = err, true
		return false
	}
	if nl {
		raw = raw[:len(raw)-1]
	}
	if len(raw) == 0 && !nl {
		r.done = true
		return false
	}
	r.line++
	rec := &r.rec
	*rec = Record{Line: r.line, Offset: r.offset, Raw: raw, Newline: nl}
	rec.Size = rec.Len()
	r.offset += rec.Size
	rec.BOM = rec.Line == 1 && bytes.HasPrefix(raw, BOM)
	rec.CRLF = nl && len(raw) > 0 && raw[len(raw)-1] == '\r'
	b := rec.Body()
	switch {
	case isBlank(b):
		rec.Kind = Blank
	case bytes.IndexByte(b, 0) >= 0:
		rec.Kind = NULRun
	default:
		rec.Kind = classifyScan(r.scan, b, nl)
	}
	r.done = !nl
	return true
}

// nextLong validates and elides the rest of a line over the limit
// (r.held holds its start).
func (r *ElidingReader) nextLong() bool {
	r.line++
	rec := &r.rec
	*rec = Record{Line: r.line, Offset: r.offset, Streamed: true}
	head, base := r.held, r.offset
	if rec.Line == 1 && bytes.HasPrefix(head, BOM) {
		rec.BOM = true
		head, base = head[len(BOM):], base+int64(len(BOM))
	}
	r.el.Refs = r.el.Refs[:0]
	small, kind, nl, n, err := r.el.ScanLine(r.small[:0], head, r.br, base)
	r.small = small
	if err != nil {
		r.err, r.done = err, true
		return false
	}
	rec.Kind, rec.Newline = kind, nl
	rec.Size = int64(len(r.held)) + n
	r.offset += rec.Size
	rec.CRLF = nl && r.el.last == '\r'
	r.done = !nl
	return true
}

// Record returns the current record, overwritten by the next call to
// Next. A Streamed record has no Raw bytes (see Elided).
func (r *ElidingReader) Record() *Record { return &r.rec }

// Elided returns, for the current record when it is a Streamed object
// line, the body of its elided copy (without BOM and newline, a '\r'
// before the newline kept) and the Elider whose Refs its placeholders
// stand for; both are valid until the next call to Next.
func (r *ElidingReader) Elided() ([]byte, *Elider) { return r.small, r.el }

// Err returns the first read error, if any (io.EOF is not an error).
func (r *ElidingReader) Err() error { return r.err }
