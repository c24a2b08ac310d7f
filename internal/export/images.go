package export

import (
	"fmt"
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
}

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

// LoadImages reads the bytes of the image blocks of d.Messages (the
// conversation at the leaf) for HTML to embed: d.Images[k] is the k-th
// image block, in order. A session gives them when it can write the images
// of its context (sessfmt.ImageExtractor: the pi family, blob references
// resolved in its own store); they are written to a private temporary
// folder, read back and the folder removed. An image whose blob is missing
// or whose bytes are not an embeddable type gets no data (the page
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
	defer os.RemoveAll(dir)
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
		b, err := os.ReadFile(w.Path)
		if err != nil {
			return err
		}
		if t := SniffImage(b); t != "" {
			out[n-1] = Image{MIME: t, Data: b}
		}
	}
	d.Images = out
	return nil
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
