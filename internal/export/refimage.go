package export

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"html"
	"strings"

	"github.com/sessctl/sessctl/internal/model"
	"github.com/sessctl/sessctl/internal/render"
)

// An image block whose LongText is set holds where its bytes are in the
// session file: a JSON string of base64 (Claude Code's source.data), or a
// data: URL of base64 (OpenCode's file part url). The page embeds it like a
// pi image: the bytes are decoded from the file in pieces (never held
// whole), their type told from the bytes, and only an allow-listed type is
// written, re-encoded as standard base64. There is no size limit: memory
// stays with the pieces whatever the image's size.

// errNotBase64 is what an image's text that is not base64 (or a base64
// data: URL) gives.
var errNotBase64 = errors.New("not base64")

// b64Stream decodes base64 given in pieces as images.Image.Bytes decodes a
// held string: line breaks ignored, standard base64, or unpadded. Each
// complete group of four characters but the last is decoded as it comes;
// the rest at close, where a missing padding is accepted.
type b64Stream struct {
	out  func([]byte) error
	pend []byte // characters not yet decoded
	buf  []byte
	// the data: URL header, while the text may be one
	url    bool
	header []byte
	inBody bool
}

func (d *b64Stream) write(p string) error {
	for d.url && !d.inBody && len(p) > 0 {
		// The text is a data: URL when it starts "data:"; its base64
		// follows the first ','.
		c := p[0]
		p = p[1:]
		switch {
		case len(d.header) < 5:
			d.header = append(d.header, c)
			if !bytes.HasPrefix([]byte("data:"), d.header) {
				// not a URL: what was seen is base64
				d.url, d.inBody = false, true
				if err := d.chars(string(d.header)); err != nil {
					return err
				}
			}
		case c == ',':
			if !bytes.HasSuffix(bytes.ToLower(d.header), []byte(";base64")) {
				return errNotBase64
			}
			d.inBody = true
		case len(d.header) > 256:
			return errNotBase64
		default:
			d.header = append(d.header, c)
		}
	}
	return d.chars(p)
}

// chars takes base64 characters.
func (d *b64Stream) chars(p string) error {
	for i := 0; i < len(p); i++ {
		if c := p[i]; c != '\r' && c != '\n' {
			d.pend = append(d.pend, c)
		}
	}
	if n := len(d.pend)/4*4 - 4; n >= 4<<10 {
		// all complete groups but the last: it may hold the padding
		d.buf = grow(d.buf, base64.StdEncoding.DecodedLen(n))
		m, err := base64.StdEncoding.Decode(d.buf, d.pend[:n])
		if err != nil {
			return errNotBase64
		}
		if err := d.out(d.buf[:m]); err != nil {
			return err
		}
		d.pend = d.pend[:copy(d.pend, d.pend[n:])]
	}
	return nil
}

// close decodes the rest.
func (d *b64Stream) close() error {
	if d.url && !d.inBody {
		if bytes.HasPrefix(d.header, []byte("data:")) {
			return errNotBase64 // a data: URL without its comma
		}
		// a text shorter than "data:": base64
		if err := d.chars(string(d.header)); err != nil {
			return err
		}
	}
	b, err := base64.StdEncoding.DecodeString(string(d.pend))
	if err != nil {
		b, err = base64.RawStdEncoding.DecodeString(string(bytes.TrimRight(d.pend, "=")))
		if err != nil {
			return errNotBase64
		}
	}
	if len(b) == 0 {
		return nil
	}
	return d.out(b)
}

func grow(b []byte, n int) []byte {
	if cap(b) < n {
		return make([]byte, n)
	}
	return b[:n]
}

// imageSource hands an image's decoded bytes to out in pieces.
type imageSource func(out func([]byte) error) error

// refImage is the source of an image whose text (base64 or a base64
// data: URL) is in the file at ref.
func refImage(ref *model.TextRef) imageSource {
	return func(out func([]byte) error) error {
		d := &b64Stream{out: out, url: true}
		if err := render.TextPieces(ref, d.write); err != nil {
			return err
		}
		return d.close()
	}
}

// urlImage is the source of an image whose base64 data: URL the session
// holds in memory (OpenCode), decoded in pieces.
func urlImage(url string) imageSource {
	return func(out func([]byte) error) error {
		if !strings.HasPrefix(url, "data:") {
			return errNotBase64 // a link: the session does not hold the bytes
		}
		d := &b64Stream{out: out, url: true}
		for s := url; len(s) > 0; {
			n := min(len(s), 64<<10)
			if err := d.write(s[:n]); err != nil {
				return err
			}
			s = s[n:]
		}
		return d.close()
	}
}

// sniffImage reads an image once: its embeddable type (from its first
// bytes) and size; "" when it is not an embeddable image or not base64.
func sniffImage(src imageSource) (mime string, size int64) {
	var head []byte
	err := src(func(p []byte) error {
		if len(head) < 512 {
			head = append(head, p[:min(len(p), 512-len(head))]...)
		}
		size += int64(len(p))
		return nil
	})
	if err != nil || size == 0 {
		return "", 0
	}
	return SniffImage(head), size
}

// writeSourceImage writes the figure of image block b whose bytes src
// gives: false, and nothing written, when they are not an embeddable
// image. The bytes are read twice (their type and that they decode, then
// written), never held.
func writeSourceImage(w *bufio.Writer, b *model.Block, src imageSource) (bool, error) {
	mime, size := sniffImage(src)
	if mime == "" {
		return false, nil
	}
	desc := html.EscapeString(clean(imageText(b)))
	fmt.Fprintf(w, "<figure class=\"image\"><img src=\"data:%s;base64,", mime)
	enc := base64.NewEncoder(base64.StdEncoding, w)
	var n int64
	err := src(func(p []byte) error {
		n += int64(len(p))
		_, err := enc.Write(p)
		return err
	})
	enc.Close()
	if err == nil && n != size {
		err = fmt.Errorf("image changed while it was written (%d bytes, then %d)", size, n)
	}
	if err != nil {
		return true, err
	}
	fmt.Fprintf(w, "\" alt=\"%s\"><figcaption>%s</figcaption></figure>\n", desc, desc)
	return true, nil
}
