package search

import (
	"bytes"
	"io"
)

// maxHead bounds the head headReader keeps.
const maxHead = 4 << 10

// headReader passes reads through and keeps a copy of the file's first
// lines as its first read gave them (up to the end of the second line, at
// most maxHead bytes): what Target.Ident needs of a session with a hit,
// which the scan's buffer may no longer hold by then. head stays nil when
// the first read holds less than two whole lines (Ident then reads the
// head itself).
type headReader struct {
	r     io.Reader
	head  []byte
	first bool // the first read is done
}

func (h *headReader) Read(b []byte) (int, error) {
	n, err := h.r.Read(b)
	if !h.first && n > 0 {
		h.first = true
		got := b[:n]
		got = got[:min(len(got), maxHead)]
		end := 0
		for i := 0; i < 2; i++ {
			j := bytes.IndexByte(got[end:], '\n')
			if j < 0 {
				return n, err
			}
			end += j + 1
		}
		h.head = bytes.Clone(got[:end])
	}
	return n, err
}

// Opened is a session file opened by Dirs.OpenStat, which the search reads
// instead of opening it again (search -l's first pass); the search closes
// it. A nil *Opened is none.
type Opened struct{ f *rawFile }

// take returns the file, which the caller now closes (nil: none).
func (o *Opened) take() *rawFile {
	if o == nil {
		return nil
	}
	f := o.f
	o.f = nil
	return f
}

// Close closes the file unless it was taken; safe on nil and twice.
func (o *Opened) Close() error {
	if f := o.take(); f != nil {
		return f.Close()
	}
	return nil
}
