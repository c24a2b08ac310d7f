package show

import (
	"bytes"
	"io"

	"github.com/sessctl/sessctl/internal/model"
	"github.com/sessctl/sessctl/internal/secrets"
	"github.com/sessctl/sessctl/internal/sessfmt"
)

// redacted is a Contexter whose text passes through the secret detector
// (show --redact).
type redacted struct {
	c   sessfmt.Contexter
	det *secrets.Detector
}

func redactContext(c sessfmt.Contexter) (sessfmt.Contexter, error) {
	det, err := secrets.Default()
	if err != nil {
		return nil, err
	}
	return &redacted{c: c, det: det}, nil
}

func (r *redacted) Transcript(opts sessfmt.ContextOptions, sink sessfmt.TranscriptSink) error {
	return r.c.Transcript(opts, &redactSink{sink: sink, det: r.det})
}

// WriteContextJSON re-encodes the context JSON with its strings redacted.
func (r *redacted) WriteContextJSON(w io.Writer, opts sessfmt.ContextOptions) error {
	var b bytes.Buffer
	if err := r.c.WriteContextJSON(&b, opts); err != nil {
		return err
	}
	out, _ := r.det.RedactJSON(bytes.TrimSpace(b.Bytes()))
	_, err := w.Write(append(out, '\n'))
	return err
}

type redactSink struct {
	sink sessfmt.TranscriptSink
	det  *secrets.Detector
}

func (k *redactSink) Header(lines []string) error {
	lines = append([]string(nil), lines...)
	k.det.RedactLines(lines)
	return k.sink.Header(lines)
}

func (k *redactSink) Message(m *model.Message) error {
	c := *m
	c.Blocks = append([]model.Block(nil), m.Blocks...)
	c.Notes = append([]string(nil), m.Notes...)
	k.det.RedactMessage(&c)
	return k.sink.Message(&c)
}

func (k *redactSink) Footer(line string) error {
	if f, ok := k.sink.(sessfmt.FooterSink); ok {
		return f.Footer(line)
	}
	return nil
}

// redactRaw passes each stored line through the detector when on.
func redactRaw(r sessfmt.Rawer, on bool) sessfmt.Rawer {
	if !on {
		return r
	}
	return rawRedacted{r}
}

type rawRedacted struct{ r sessfmt.Rawer }

func (x rawRedacted) RawLines(opts sessfmt.ContextOptions, emit func([]byte) error) error {
	det, err := secrets.Default()
	if err != nil {
		return err
	}
	return x.r.RawLines(opts, func(l []byte) error {
		out, _ := det.RedactJSON(l)
		return emit(out)
	})
}
