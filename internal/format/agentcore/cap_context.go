package agentcore

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/sessctl/sessctl/internal/sessfmt"
)

// Transcript shows the root→leaf path (default leaf: the first leaf in
// file order); when the file has several leaves a notice names the one
// shown.
func (o *Opened) Transcript(opts sessfmt.ContextOptions, sink sessfmt.TranscriptSink) error {
	leaf, err := o.LeafIndex()
	if err != nil {
		return err
	}
	tr, err := o.S.Transcript(leaf)
	if err != nil {
		return err
	}
	if n := len(o.S.Leaves()); n > 1 {
		opts.Notice(sessfmt.Notice{Text: fmt.Sprintf("%d leaves; showing %s (--leaf picks another)", n, o.S.Entries[leaf].ID)})
	}
	return sessfmt.SendTranscript(sink, tr)
}

// WriteContextJSON writes {"format","path","sessionId","leafId",
// "messages","warnings"} with the context messages exactly as Agent Core
// builds them.
func (o *Opened) WriteContextJSON(w io.Writer, opts sessfmt.ContextOptions) error {
	leaf, err := o.LeafIndex()
	if err != nil {
		return err
	}
	s := o.S
	msgs, err := s.Context(leaf)
	if err != nil && err != ErrNoLeaf {
		return err
	}
	if msgs == nil {
		msgs = []Message{}
	}
	var leafID any
	if leaf >= 0 {
		leafID = s.Entries[leaf].ID
	}
	warnings := []string{}
	for _, p := range s.Problems {
		warnings = append(warnings, p.String())
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(map[string]any{
		"format": "agentcore", "path": o.ref.String(), "sessionId": s.ID, "leafId": leafID,
		"messages": msgs, "warnings": warnings,
	})
}
