package pi

import (
	"bufio"
	"io"
	"os"

	"github.com/sessctl/sessctl/internal/sessfmt"
)

// WritePi writes the file as stored, byte for byte (export --format pi of a
// pi-family session is a copy), and counts its lines.
func (s *Session) WritePi(w io.Writer) (int, error) {
	fh, err := os.Open(s.File.Path)
	if err != nil {
		return 0, err
	}
	defer fh.Close()
	br := bufio.NewReaderSize(fh, 1<<20)
	n := 0
	for {
		chunk, err := br.ReadSlice('\n')
		if len(chunk) > 0 {
			if _, werr := w.Write(chunk); werr != nil {
				return n, werr
			}
			if chunk[len(chunk)-1] == '\n' {
				n++
			}
		}
		switch err {
		case nil, bufio.ErrBufferFull:
			continue
		case io.EOF:
			if len(chunk) > 0 && chunk[len(chunk)-1] != '\n' {
				n++
			}
			return n, nil
		default:
			return n, err
		}
	}
}

var _ sessfmt.PiWriter = (*Session)(nil)
