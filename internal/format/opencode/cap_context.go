package opencode

import (
	"encoding/json"
	"io"

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
