package opencode

import (
	"encoding/json"
	"io"
	"strings"

	"github.com/sessctl/sessctl/internal/sessfmt"
)

// Transcript shows the session's messages with their parts.
func (o *Opened) Transcript(opts sessfmt.ContextOptions, sink sessfmt.TranscriptSink) error {
	t, err := o.Loaded()
	if err != nil {
		return err
	}
	tr := TranscriptView(t)
	return sessfmt.SendTranscript(sink, tr)
}

// ImageData returns the url of the image file part id of the loaded
// session (a data: URL holds the image's bytes, base64), for a view that
// embeds images (export's HTML page); false when there is no such part.
// The session is held in memory once loaded: nothing is read again.
func (o *Opened) ImageData(id string) (string, bool) {
	t, err := o.Loaded()
	if err != nil || id == "" {
		return "", false
	}
	for i := range t.Messages {
		for j := range t.Messages[i].Parts {
			if p := &t.Messages[i].Parts[j]; p.ID == id && p.Type == "file" && strings.HasPrefix(p.Mime, "image/") {
				return p.URL, true
			}
		}
	}
	return "", false
}

// WriteContextJSON writes the loaded transcript with "format":"opencode".
func (o *Opened) WriteContextJSON(w io.Writer, opts sessfmt.ContextOptions) error {
	t, err := o.Loaded()
	if err != nil {
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(struct {
		Format string `json:"format"`
		*Transcript
	}{"opencode", t})
}
