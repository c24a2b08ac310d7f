package jsonl

import (
	"bufio"
	"bytes"
)

// A line too long to hold is validated and elided in one read of it: in
// line mode (StartLine, Write, EndLine, or ScanLine for a caller that
// splits lines with a bufio.Reader) each piece read goes first to the
// validating stream scanner that LongScanner and the Reader use for such
// a line (the same code, so the same verdict: Blank, NULRun, TornTail,
// Malformed, NonObject or Object), then, while it is still in the cache,
// to the copy. The copy stops at the first byte that makes the line
// invalid (a 200 MB run of NUL bytes is not copied) or shows it is not an
// object (nor is a long blank line or array), and a line that is not an
// object gives no copy and no Refs. White space before the object is not
// copied (the copy is Elide's of the line from its first other byte).
// FuzzElideLine holds the verdict to LongScanner's, Classify's and
// encoding/json's, and the copy and Refs to Elide's.

// StartLine begins a line in line mode: its bytes (without BOM and
// newline), which are at offset base in the file, are then given to Write
// in order, and EndLine classifies the line and returns dst with its
// elided copy appended. Refs recorded before are kept.
func (e *Elider) StartLine(dst []byte, base int64) {
	if e.v == nil {
		e.v = newStreamScanner(nil)
	}
	e.v.reset()
	e.reset()
	e.out, e.outFrom = dst, len(dst)
	e.pos, e.refsAt, e.dropped, e.last, e.started = base, len(e.Refs), false, 0, false
}

// Write feeds the next bytes of the line begun by StartLine. It never
// fails (io.Writer, so that a line can be copied to it).
func (e *Elider) Write(p []byte) (int, error) {
	e.v.Write(p)
	if !e.dropped {
		if e.v.st == sError || e.v.nonWS && !e.v.object {
			// Invalid, or not an object: no copy is given, so none is
			// made (a long blank line or array is not held).
			e.dropped = true
			e.out = e.out[:e.outFrom]
			e.Refs = e.Refs[:e.refsAt]
		} else if e.v.nonWS {
			q, at := p, e.pos
			if !e.started {
				k := len(p) - len(bytes.TrimLeft(p, " \t\r\n"))
				q, at = p[k:], at+int64(k)
				e.started = true
			}
			e.out = e.copy(e.out, q, at)
		}
	}
	e.pos += int64(len(p))
	if len(p) > 0 {
		e.last = p[len(p)-1]
	}
	return len(p), nil
}

// EndLine ends the line begun by StartLine: newline tells whether it
// ended with a newline (a line that does not and is not valid JSON is a
// torn tail). It returns the line's kind, as the Reader classifies it, and
// the dst given to StartLine with, when the line is an object, its elided
// copy appended (the Refs of its long strings appended to Refs); when it
// is not, dst and Refs as they were.
func (e *Elider) EndLine(newline bool) (small []byte, kind Kind) {
	rec := Record{Newline: newline}
	streamedKind(e.v, &rec)
	small = e.out
	e.out = nil
	if rec.Kind != Object {
		e.Refs = e.Refs[:e.refsAt]
		return small[:e.outFrom], rec.Kind
	}
	return small, Object
}

// ScanLine is LongScanner.Scan and Elide in one read: it validates the
// line whose first bytes are head (without a BOM; at offset base in the
// file) and whose rest is read from br up to its newline, which is
// consumed, and returns dst with the line's elided copy appended when it
// is an object (see EndLine), its kind, whether it ended with a newline,
// and the number of bytes read from br.
func (e *Elider) ScanLine(dst, head []byte, br *bufio.Reader, base int64) (small []byte, kind Kind, newline bool, n int64, err error) {
	e.StartLine(dst, base)
	e.Write(head)
	newline, n, err = feedLineRest(br, func(p []byte) { e.Write(p) })
	if err != nil {
		e.EndLine(false)
		return dst, 0, false, n, err
	}
	small, kind = e.EndLine(newline)
	return small, kind, newline, n, nil
}
