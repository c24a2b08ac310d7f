package pi

import (
	"os"

	"github.com/sessctl/sessctl/internal/sessfmt"
)

// longTexts is the long-line callback of Texts with opts.Long set: each
// line longer than jsonl.LongLine goes to long unread, with texts (Texts'
// reader of one line: entry id, on-path, time and the entry's texts) to
// read the line's elided copy as the line itself.
func longTexts(long func(*sessfmt.LongLine) error, texts func(line int, raw []byte, fn func(*sessfmt.Text) error) error) func(fh *os.File, line int, off, n int64) error {
	return func(fh *os.File, line int, off, n int64) error {
		return long(&sessfmt.LongLine{
			Line: line, File: fh, Off: off, Len: n,
			Texts: func(small []byte, fn func(*sessfmt.Text) error) error { return texts(line, small, fn) },
		})
	}
}
