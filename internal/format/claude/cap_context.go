package claude

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"

	"github.com/sessctl/sessctl/internal/model"
	"github.com/sessctl/sessctl/internal/sessfmt"
)

// ShortIDLen: views print the first 8 characters of a uuid.
func (s *Session) ShortIDLen() int { return 8 }

// MarksNotSent: the context marks what Claude Code does not send, and
// ContextOptions.SentOnly leaves it out (sessfmt.SentMarker).
func (s *Session) MarksNotSent() bool { return true }

// walk finds the path the loader would resume: from --leaf, else from the
// leaf mode's leaf (an empty path when a final explicit null last-prompt
// makes Claude Code resume an empty conversation). The walk's warnings are passed on, except the loader's
// normal behaviour (rescued siblings, trailing records), which stays in
// --json; stopping at a compact boundary and a subagent's parent in the
// parent session are information, not warnings.
func (s *Session) walk(opts sessfmt.ContextOptions) (*Path, error) {
	leaf := s.LeafArg
	if leaf == "" {
		var err error
		if leaf, err = s.File.Leaf(s.Mode); err != nil {
			return nil, err
		}
		if leaf == "" && !(s.Mode == LeafLastPrompt && s.File.ResumesEmpty()) {
			return nil, fmt.Errorf("%s has no transcript messages to show", s.ref.String())
		}
	}
	p, err := s.File.Walk(leaf, opts.AcrossCompactions)
	if err != nil {
		if s.LeafArg != "" {
			return nil, &sessfmt.LeafError{Err: err}
		}
		return nil, err
	}
	for _, w := range p.Warnings {
		if w.Code == WarnRescued || w.Code == WarnLeafDescendants {
			continue
		}
		opts.Notice(sessfmt.Notice{Line: w.Line, Warning: !walkInfo(w.Code), Text: w.Msg, Code: w.Code})
	}
	p.SentOnly = opts.SentOnly
	return p, nil
}

// walkInfo reports whether a walk note is information, not a warning: a
// stop at a compact boundary, and a subagent whose first records hang on
// records of its parent session (how Claude Code writes them: healthy).
func walkInfo(code string) bool { return code == WarnBoundary || code == WarnParentInSession }

// imageRefTaker is a transcript sink that embeds images (export's HTML
// page): it gets the image blocks whose bytes are base64 in the file with
// where they are (model.Block.LongText) and a tool result's images as
// image blocks after it. Other sinks (show) get the view as before.
type imageRefTaker interface {
	TakesImageRefs() bool
}

// Transcript rebuilds the conversation the loader would resume, for
// people. The header's title is list's (Meta.Title).
func (s *Session) Transcript(opts sessfmt.ContextOptions, sink sessfmt.TranscriptSink) error {
	p, err := s.walk(opts)
	if err != nil {
		return err
	}
	f := s.File
	b := f.NewTranscript(p.Leaf, s.Mode, opts.AcrossCompactions)
	if it, ok := sink.(imageRefTaker); ok && it.TakesImageRefs() {
		b.ImageRefs = true
	}
	if rt, ok := sink.(model.TextRefTaker); ok && rt.TakesTextRefs() {
		b.TextRefs = true
	}
	b.Hold = f.holdLong
	title := s.listMeta().Title
	if title == "" {
		title = "(untitled)"
	}
	b.T.Title = title
	b.T.Header[0] = fmt.Sprintf("claude-code session %s · %s", s.listMeta().ID, title)
	switch {
	case s.LeafArg != "":
		b.T.Header[1] = fmt.Sprintf("leaf %s (--leaf)", p.Leaf)
	case p.Empty:
		b.T.Header[1] = fmt.Sprintf("no leaf: Claude Code resumes an empty conversation (%s)", s.Mode)
	}
	if opts.SentOnly {
		b.T.Header[1] += " · only what is sent to the model (--sent)"
	}
	if err := sink.Header(b.T.Header); err != nil {
		return err
	}
	return f.EachTurn(p, func(t *Turn) error {
		b.T.Messages = b.T.Messages[:0]
		b.Add(t)
		if b.Err != nil {
			return b.Err
		}
		for i := range b.T.Messages {
			if err := sink.Message(&b.T.Messages[i]); err != nil {
				return err
			}
		}
		return nil
	})
}

// WriteContextJSON streams {"format","path","sessionId","leafUuid",
// "leafMode","leafModes","acrossCompactions","sentOnly","messages":[...],
// "warnings"},
// one message decoded at a time.
func (s *Session) WriteContextJSON(out io.Writer, opts sessfmt.ContextOptions) error {
	p, err := s.walk(opts)
	if err != nil {
		return err
	}
	f := s.File
	choice := f.LeafModes()
	var warnings []string
	if choice.Disagree {
		warnings = append(warnings, choice.Summary())
	}
	for _, w := range p.Warnings {
		warnings = append(warnings, fmt.Sprintf("%s [%s]", w.Msg, w.Code))
	}
	w := bufio.NewWriterSize(out, 1<<20)
	enc := func(v any) []byte { b, _ := json.Marshal(v); return b }
	lm := string(s.Mode)
	if s.LeafArg != "" {
		lm = "explicit"
	}
	w.WriteString(`{"format":"claude-code","path":`)
	w.Write(enc(s.ref.String()))
	w.WriteString(`,"sessionId":`)
	w.Write(enc(s.listMeta().ID))
	w.WriteString(`,"leafUuid":`)
	if p.Empty {
		w.WriteString("null") // an empty conversation is resumed
	} else {
		w.Write(enc(p.Leaf))
	}
	w.WriteString(`,"leafMode":`)
	w.Write(enc(lm))
	w.WriteString(`,"leafModes":`)
	w.Write(enc(choice))
	w.WriteString(`,"acrossCompactions":`)
	w.Write(enc(opts.AcrossCompactions))
	w.WriteString(`,"sentOnly":`)
	w.Write(enc(opts.SentOnly))
	w.WriteString(`,"messages":[`)
	p.NoText = true
	first := true
	var tb []byte
	err = f.EachTurn(p, func(t *Turn) error {
		if !first {
			w.WriteByte(',')
		}
		first = false
		tb = t.AppendJSON(tb[:0])
		return f.writeExpanded(w, tb, t)
	})
	if err != nil {
		return err
	}
	if warnings == nil {
		warnings = []string{}
	}
	w.WriteString(`],"warnings":`)
	w.Write(enc(warnings))
	w.WriteString("}\n")
	return w.Flush()
}

// CountMessages is the number of messages Transcript gives
// (sessfmt.MessageCounter: list's verdict): one per turn, counted without
// decoding the texts (a long line's text is not read; a counting sink
// takes no references, so Transcript would read it whole).
func (s *Session) CountMessages() (int, error) {
	p, err := s.walk(sessfmt.ContextOptions{})
	if err != nil {
		return 0, err
	}
	p.NoText = true
	n := 0
	err = s.File.EachTurn(p, func(*Turn) error { n++; return nil })
	return n, err
}

var _ sessfmt.MessageCounter = (*Session)(nil)
