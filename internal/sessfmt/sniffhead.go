package sessfmt

import (
	"bufio"
	"bytes"
	"errors"
	"io"

	"github.com/sessctl/sessctl/internal/jsonl"
)

// longHead is what SniffFile's second look hands to Sniff in place of the
// file's first SniffMaxBytes bytes: the same lines, except that a line
// longer than SniffBytes is never held. Such a line is validated and
// elided in the one read of it (jsonl.Elider.ScanLine, which classifies a
// line as the Reader does); if it is an object, its elided copy (string
// values over jsonl.ElidedMin replaced by placeholder strings) stands in
// for it, and otherwise a one-byte non-JSON line does. Either way the
// Reader that Sniff's HeadObjects uses sees the same kinds on the same
// line numbers and, on object lines, the same members (only long strings
// read differently, and no format sniffs by a long string's text). The
// line that crosses SniffMaxBytes is cut there, as the raw head was. A
// file whose first line is hundreds of MB is thus sniffed in a few MiB
// (TestLongHeadSameSniff, TestLongHeadNotHeld).
func longHead(ra io.ReaderAt, size int64) ([]byte, error) {
	limit := min(size, SniffMaxBytes)
	br := bufio.NewReaderSize(io.NewSectionReader(ra, 0, limit), SniffBytes)
	var (
		out  []byte
		pos  int64
		el   *jsonl.Elider
		line int
	)
	for pos < limit {
		line++
		piece, err := br.ReadSlice('\n')
		if err == nil || errors.Is(err, io.EOF) {
			out = append(out, piece...) // a line that fits: as it is
			pos += int64(len(piece))
			if err != nil {
				break
			}
			continue
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return nil, err
		}
		start := pos
		head := piece
		bom := line == 1 && bytes.HasPrefix(head, jsonl.BOM)
		if bom {
			head = head[len(jsonl.BOM):]
		}
		if el == nil {
			el = jsonl.NewElider(jsonl.ElidedMin)
		}
		el.Refs = el.Refs[:0]
		at := len(out)
		from := start
		if bom {
			out = append(out, jsonl.BOM...)
			from += int64(len(jsonl.BOM))
		}
		// ScanLine reads the rest of the line from br; head is the slice
		// ReadSlice returned, whose bytes the next read overwrites, so
		// it is fed first, before any read.
		small, kind, newline, n, err := el.ScanLine(out, head, br, from)
		if err != nil {
			return nil, err
		}
		pos = start + int64(len(piece)) + n
		out = small
		if kind != jsonl.Object {
			out = append(out[:at], '-')
		}
		if newline {
			out = append(out, '\n')
		}
	}
	return out, nil
}
