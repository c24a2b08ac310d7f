package export

import (
	"bufio"
	"io"

	"github.com/sessctl/sessctl/internal/safewrite"
)

// trimWriter writes what it is given with the leading and trailing ASCII
// white space left out (bytes.TrimSpace of a JSON text, whose ends are
// never other white space), holding only the count of the white space it
// has not yet written: show's JSON streamed as it is made, never held.
type trimWriter struct {
	w       io.Writer
	started bool   // something other than white space was written
	pending []span // white space seen since, maybe trailing
	buf     [256]byte
}

// span is a run of one white space byte.
type span struct {
	c byte
	n int
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\v' || c == '\f'
}

func (t *trimWriter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		// the white space that opens p
		i := 0
		for i < len(p) && isSpace(p[i]) {
			if t.started {
				if k := len(t.pending); k > 0 && t.pending[k-1].c == p[i] {
					t.pending[k-1].n++
				} else {
					t.pending = append(t.pending, span{p[i], 1})
				}
			}
			i++
		}
		p = p[i:]
		if len(p) == 0 {
			break
		}
		// it was not trailing: write it, then the text up to the next
		// white space
		if err := t.flushPending(); err != nil {
			return 0, err
		}
		j := 0
		for j < len(p) && !isSpace(p[j]) {
			j++
		}
		if _, err := t.w.Write(p[:j]); err != nil {
			return 0, err
		}
		t.started = true
		p = p[j:]
	}
	return n, nil
}

func (t *trimWriter) flushPending() error {
	// t.buf, not a local array: one passed to Write escapes, an
	// allocation per word of white space.
	buf := t.buf[:]
	for _, s := range t.pending {
		for s.n > 0 {
			k := min(s.n, len(buf))
			for i := 0; i < k; i++ {
				buf[i] = s.c
			}
			if _, err := t.w.Write(buf[:k]); err != nil {
				return err
			}
			s.n -= k
		}
	}
	t.pending = t.pending[:0]
	return nil
}

// lazyFile is -o FILE written as the export is made: the file (a temp
// file beside it, published atomically by commit) is opened at the first
// write or at commit, so an export that fails before writing anything
// creates nothing, as when the export was held and written at the end.
type lazyFile struct {
	path  string
	force bool
	sw    *safewrite.Writer
	bw    *bufio.Writer
	err   error
}

func (f *lazyFile) open() error {
	if f.sw == nil && f.err == nil {
		f.sw, f.err = beginFile(f.path, f.force)
		if f.err == nil {
			f.bw = bufio.NewWriterSize(f.sw, 1<<16)
		}
	}
	return f.err
}

func (f *lazyFile) Write(p []byte) (int, error) {
	if err := f.open(); err != nil {
		return 0, err
	}
	return f.bw.Write(p)
}

// commit publishes the file.
func (f *lazyFile) commit() error {
	if err := f.open(); err != nil {
		return err
	}
	if err := f.bw.Flush(); err != nil {
		f.sw.Abort()
		return err
	}
	_, err := f.sw.Commit()
	return err
}

// abort removes the temp file, if one was opened.
func (f *lazyFile) abort() {
	if f.sw != nil {
		f.sw.Abort()
	}
}
