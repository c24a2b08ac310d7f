package pi

import (
	"bufio"
	"errors"
	"io"
	"os"
)

// lineReader reads entry lines back by offset into one reusable buffer.
// Path entries are mostly in file order, so it reads forward through a
// buffer, skipping the lines in between, and seeks only to go back or to
// jump far ahead: a path of a million entries costs a few thousand reads,
// not a million.
type lineReader struct {
	f   *File
	fh  *os.File
	br  *bufio.Reader
	pos int64 // file offset of br's next byte
	buf []byte
	mig []byte // the migrated form of a legacy line
}

// maxSkip is the largest gap read through instead of seeking over.
const maxSkip = 1 << 20

func (f *File) openLines() (*lineReader, error) {
	fh, err := os.Open(f.Path)
	if err != nil {
		return nil, err
	}
	return &lineReader{f: f, fh: fh, br: bufio.NewReaderSize(fh, 1<<20)}, nil
}

func (r *lineReader) close() { r.fh.Close() }

// entry returns the path entry of entry i; its line is valid until the next call.
func (r *lineReader) entry(i int) (pathEntry, error) {
	b, err := r.raw(i)
	if err != nil {
		return pathEntry{}, err
	}
	return newPathEntry(i, b, r.f.Entries[i].Type()), nil
}

// raw returns entry i's line as stored, without its newline; valid until
// the next call.
func (r *lineReader) raw(i int) ([]byte, error) {
	e := r.f.Entries[i]
	if e.Offset() < r.pos || e.Offset()-r.pos > maxSkip {
		if _, err := r.fh.Seek(e.Offset(), io.SeekStart); err != nil {
			return nil, err
		}
		r.br.Reset(r.fh)
		r.pos = e.Offset()
	} else if gap := e.Offset() - r.pos; gap > 0 {
		if _, err := r.br.Discard(int(gap)); err != nil {
			return nil, err
		}
		r.pos = e.Offset()
	}
	if int64(cap(r.buf)) < e.Len() {
		r.buf = make([]byte, e.Len())
	}
	b := r.buf[:e.Len()]
	n, err := io.ReadFull(r.br, b)
	r.pos += int64(n)
	if err != nil && !(errors.Is(err, io.ErrUnexpectedEOF) && int64(n) == e.Len()-1) {
		return nil, err
	}
	b = b[:n]
	if len(b) > 0 && b[len(b)-1] == '\n' {
		b = b[:len(b)-1]
	}
	if r.f.edits != nil {
		b = r.f.legacyLine(i, b, &r.mig) // a v1/v2 file, read as migrated
	}
	return b, nil
}

// prefix returns at most n bytes from the start of entry i's line (the
// whole line without its newline when it is shorter); valid until the next
// call. A line longer than n is not read past n.
func (r *lineReader) prefix(i int, n int64) ([]byte, error) {
	e := r.f.Entries[i]
	if e.Len() <= n || r.f.edits != nil {
		return r.raw(i)
	}
	if e.Offset() < r.pos || e.Offset()-r.pos > maxSkip {
		if _, err := r.fh.Seek(e.Offset(), io.SeekStart); err != nil {
			return nil, err
		}
		r.br.Reset(r.fh)
		r.pos = e.Offset()
	} else if gap := e.Offset() - r.pos; gap > 0 {
		if _, err := r.br.Discard(int(gap)); err != nil {
			return nil, err
		}
		r.pos = e.Offset()
	}
	if int64(cap(r.buf)) < n {
		r.buf = make([]byte, n)
	}
	b := r.buf[:n]
	m, err := io.ReadFull(r.br, b)
	r.pos += int64(m)
	if err != nil {
		return nil, err
	}
	return b, nil
}

func clone(b []byte) []byte {
	if b == nil {
		return nil
	}
	return append([]byte(nil), b...)
}

// EachLine calls fn with the line of each entry in idx as stored (without
// its newline: a '\r' is kept), in that order, one line in memory at a time;
// line is valid only during the call. Entries in file order are read forward
// through one buffer.
func (f *File) EachLine(idx []int, fn func(i int, line []byte) error) error {
	lr, err := f.openLines()
	if err != nil {
		return err
	}
	defer lr.close()
	for _, i := range idx {
		line, err := lr.raw(i)
		if err != nil {
			return err
		}
		if err := fn(i, line); err != nil {
			return err
		}
	}
	return nil
}
