package show

import (
	"bufio"

	"github.com/sessctl/sessctl/internal/cmd/sessopen"
	"github.com/sessctl/sessctl/internal/format/opencode"
	"github.com/sessctl/sessctl/internal/render"
)

// runOpenCode handles OpenCode arguments (a "ses_…" id or prefix, a
// "<data dir or db>#<id>" reference, or an `opencode export` file); handled
// is false for anything else.
func runOpenCode(opts *Options) (handled bool, err error) {
	t, handled, err := sessopen.OpenCode(opts.Session, opts.Leaf, opts.Factory.Getenv)
	if !handled || err != nil {
		return handled, err
	}
	switch {
	case opts.Raw:
		w := bufio.NewWriter(opts.IO.Out)
		for _, m := range t.Messages {
			raws := [][]byte{m.Raw}
			for _, p := range m.Parts {
				raws = append(raws, p.Raw)
			}
			for _, raw := range raws {
				if opts.IO.IsStdoutTTY() {
					raw = []byte(render.Escape(string(raw)))
				}
				w.Write(raw)
				w.WriteByte('\n')
			}
		}
		return true, w.Flush()
	case opts.JSON:
		return true, render.JSON(opts.IO.Out, struct {
			Format string `json:"format"`
			*opencode.Transcript
		}{"opencode", t}, opts.IO.IsStdoutTTY())
	}
	return true, render.DrawTranscript(opts.IO.Out, opencode.TranscriptView(t), render.TranscriptOptions{
		Full: opts.Full, TTY: opts.IO.IsStdoutTTY(), Styles: render.NewStyles(opts.IO), ShowIDs: true,
	})
}
