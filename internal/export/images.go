package export

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/sessctl/sessctl/internal/model"
	"github.com/sessctl/sessctl/internal/sessfmt"
)

// Image is the bytes of one image block, for the HTML page to embed.
type Image struct {
	// MIME is the type the bytes are (sniffed, whatever the session says):
	// one of the embeddable types. Empty when the image is not embedded.
	MIME string
	Data []byte
	// path, when Data is empty, is the file that holds the bytes (in
	// LoadImages' private folder), read as the page is written: the
	// document never holds the images.
	path string
}

// has reports whether the image has bytes to embed.
func (im *Image) has() bool { return len(im.Data) > 0 || im.path != "" }

// embeddable are the only image types the page embeds, told from the bytes
// themselves: raster formats a browser decodes without running anything.
// Never SVG (it can hold script and links), nor anything unknown.
var embeddable = map[string]bool{"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true}

// SniffImage returns the embeddable type of image bytes, or "".
func SniffImage(b []byte) string {
	if t := http.DetectContentType(b); embeddable[t] {
		return t
	}
	return ""
}

// LoadImages finds the bytes of the image blocks of d.Messages (the
// conversation at the leaf) for HTML to embed: d.Images[k] is the k-th
// image block, in order. A session gives them when it can write the images
// of its context (sessfmt.ImageExtractor: the pi family, blob references
// resolved in its own store); they are written to a private temporary
// folder, typed from their first bytes, and read again one at a time as
// the page is written; Close removes the folder. An image whose blob is
// missing or whose bytes are not an embeddable type gets no data (the page
// describes it). When the session's images and the conversation's image
// blocks do not pair up one to one, nothing is embedded.
func (d *Doc) LoadImages(s sessfmt.Session) error {
	d.Images = nil
	want := countImages(d.Messages)
	x, ok := s.(sessfmt.ImageExtractor)
	if !ok || want == 0 {
		return nil
	}
	dir, err := os.MkdirTemp("", "sessctl-export-images-")
	if err != nil {
		return err
	}
	d.imageDir = dir
	written, skipped, err := x.ExtractImages(dir)
	if err != nil {
		return err
	}
	if len(written)+len(skipped) != want {
		return fmt.Errorf("%d images in the session, %d image blocks in the conversation: images are described, not embedded", len(written)+len(skipped), want)
	}
	out := make([]Image, want)
	for _, w := range written {
		base := filepath.Base(w.Path)
		n, err := strconv.Atoi(base[:max(strings.IndexByte(base, '-'), 0)])
		if err != nil || n < 1 || n > want || filepath.Dir(w.Path) != filepath.Clean(dir) {
			return fmt.Errorf("unexpected image file %q", base)
		}
		head, err := readHead(w.Path)
		if err != nil {
			return err
		}
		if t := SniffImage(head); t != "" {
			out[n-1] = Image{MIME: t, path: w.Path}
		}
	}
	d.Images = out
	return nil
}

// readHead reads the first 512 bytes of a file (what the sniffer reads).
func readHead(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b := make([]byte, 512)
	n, err := io.ReadFull(f, b)
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		err = nil
	}
	return b[:n], err
}

// Close removes the folder LoadImages wrote the images to.
func (d *Doc) Close() error {
	if d.imageDir == "" {
		return nil
	}
	err := os.RemoveAll(d.imageDir)
	d.imageDir = ""
	return err
}

func countImages(ms []model.Message) int {
	n := 0
	for i := range ms {
		for j := range ms[i].Blocks {
			if ms[i].Blocks[j].Kind == "image" {
				n++
			}
		}
	}
	return n
}
