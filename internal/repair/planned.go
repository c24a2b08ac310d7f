package repair

import (
	"errors"
	"io"
	"sort"
)

// plannedAt reads the repaired content (what emit writes) at any offset,
// for the verifier's read-backs: with it the re-reading of the content
// (pi.Read, claude.Read) takes the path for a file, which validates a
// line longer than its limit as it streams by and reads back by offset the
// rare one it must look at, instead of holding every line it is given.
// It keeps one offset per line; a line is made when it is read: an
// unchanged line from the original file (its bytes are the output's), any
// other as emit makes it.
type plannedAt struct {
	p      *planner
	ra     io.ReaderAt
	starts []int64 // output offset of each line, then the content's size
	nl     []bool  // unchanged line i ends with its newline in the file
}

// plannedContent measures every line of the repaired content. size is the
// original file's size: only a line that reaches it may lack a newline.
func (p *planner) plannedContent(ra io.ReaderAt, size int64) (*plannedAt, error) {
	c := &plannedAt{p: p, ra: ra, starts: make([]int64, 0, len(p.lines)+1), nl: make([]bool, len(p.lines))}
	var at int64
	for i, v := range p.lines {
		c.starts = append(c.starts, at)
		if unchanged(v) {
			c.nl[i] = true
			if v.off+v.n >= size && v.n > 0 {
				var last [1]byte
				if _, err := ra.ReadAt(last[:], v.off+v.n-1); err != nil {
					return nil, err
				}
				c.nl[i] = last[0] == '\n'
			}
			at += v.n
			if !c.nl[i] {
				at++
			}
			continue
		}
		b, err := c.line(v)
		if err != nil {
			return nil, err
		}
		at += int64(len(b))
	}
	c.starts = append(c.starts, at)
	return c, nil
}

// unchanged reports whether line v is written as it is in the file.
func unchanged(v *vline) bool { return v.bytes == nil && len(v.edits) == 0 }

// line makes a line that is not unchanged, as emit writes it.
func (c *plannedAt) line(v *vline) ([]byte, error) {
	b, err := c.p.lineBytes(c.ra, v)
	if err != nil {
		return nil, err
	}
	if len(v.edits) > 0 {
		if b, err = v.render(b); err != nil {
			return nil, err
		}
	}
	out := append([]byte(nil), b...)
	if v.crlf {
		out = append(out, '\r')
	}
	return append(out, '\n'), nil
}

// ReadAt reads the repaired content at off.
func (c *plannedAt) ReadAt(b []byte, off int64) (int, error) {
	lines := c.p.lines
	i := sort.Search(len(lines), func(i int) bool { return c.starts[i+1] > off })
	n := 0
	for n < len(b) && i < len(lines) {
		v := lines[i]
		rel := off + int64(n) - c.starts[i]
		want := min(int64(len(b)-n), c.starts[i+1]-c.starts[i]-rel)
		dst := b[n : n+int(want)]
		if unchanged(v) {
			// the file's bytes, and a newline the file's last line lacks
			k := min(want, v.n-rel)
			if k > 0 {
				m, err := c.ra.ReadAt(dst[:k], v.off+rel)
				if int64(m) < k {
					if err == nil || errors.Is(err, io.EOF) {
						err = io.ErrUnexpectedEOF
					}
					return n + m, err
				}
			}
			if k < want {
				dst[k] = '\n'
			}
		} else {
			lb, err := c.line(v)
			if err != nil {
				return n, err
			}
			copy(dst, lb[rel:])
		}
		n += int(want)
		i++
	}
	if n < len(b) {
		return n, io.EOF
	}
	return n, nil
}

// verifyReader is what the verifier reads: the content emit writes,
// streamed, and the same content at any offset.
type verifyReader struct {
	io.Reader
	io.ReaderAt
}
