package jsonl

import (
	"bufio"
	"errors"
	"io"
)

// LongScanner validates and captures a line too long to hold, as the
// Reader does past its long-line limit (SetLongLines), for callers that
// split lines themselves (the pi listing's scanner): the start of the line
// they already read is fed first, the rest is read from their bufio.Reader
// chunk by chunk and never held. Captured values keep at most the first
// maxCapture bytes (TopClipped, SubClipped tell which were cut), so a
// captured member that is itself the long part costs maxCapture bytes.
type LongScanner struct {
	st *streamScanner
	// Top and Sub are the captures of the last line (as Scanner's), valid
	// until the next Scan.
	Top, Sub [][]byte
	// TopClipped and SubClipped mark the captures cut to maxCapture bytes.
	TopClipped, SubClipped []bool
	// SubFirst is the first byte of the value of the Capture's Sub member
	// (its raw value is not kept: it is what makes a line long), 0 when the
	// line has no such member.
	SubFirst byte
}

// NewLongScanner returns a LongScanner capturing c, keeping at most
// maxCapture bytes of each captured value (0: all of it).
func NewLongScanner(c *Capture, maxCapture int) *LongScanner {
	st := newStreamScanner(c)
	st.capMax = maxCapture
	st.TopClipped = make([]bool, len(st.Top))
	st.SubClipped = make([]bool, len(st.Sub))
	return &LongScanner{st: st}
}

// Scan validates the line whose first bytes are head (without a BOM) and
// whose rest is read from br up to its newline, which is consumed. It
// returns the line's kind as the Reader classifies it, whether it ended
// with a newline, and the number of bytes read from br.
func (l *LongScanner) Scan(head []byte, br *bufio.Reader) (kind Kind, newline bool, n int64, err error) {
	st := l.st
	st.reset()
	st.Write(head)
	if newline, n, err = feedLineRest(br, st.Write); err != nil {
		return 0, false, n, err
	}
	var rec Record
	rec.Newline = newline
	streamedKind(st, &rec)
	l.Top, l.Sub, l.TopClipped, l.SubClipped, l.SubFirst = st.Top, st.Sub, st.TopClipped, st.SubClipped, st.subFirst
	return rec.Kind, newline, n, nil
}

// feedLineRest reads br up to and including its next newline and gives
// feed the bytes before it, piece by piece as they are read (never the
// whole line at once). It returns whether the line ended with a newline
// (false: at the end of the input), the number of bytes read from br, and
// a read error other than io.EOF. LongScanner, Elider.ScanLine and the
// Reader's long lines read the rest of a line with it.
func feedLineRest(br *bufio.Reader, feed func([]byte)) (newline bool, n int64, err error) {
	for {
		chunk, rerr := br.ReadSlice('\n')
		n += int64(len(chunk))
		if rerr == nil {
			feed(chunk[:len(chunk)-1])
			return true, n, nil
		}
		feed(chunk)
		switch {
		case errors.Is(rerr, bufio.ErrBufferFull):
		case errors.Is(rerr, io.EOF):
			return false, n, nil
		default:
			return false, n, rerr
		}
	}
}
