package pi

import (
	"encoding/json"
	"io"
	"os"

	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/sessctl/sessctl/internal/model"
)

// longRefs lets a transcript print a message line longer than
// jsonl.LongLine without holding it: the context is rebuilt from a copy of
// the line whose string values over jsonl.ElidedMin bytes are placeholders
// (jsonl.Elider), and a text, thinking or tool result block whose text is
// one becomes a model.TextRef that the renderer decodes from the file as it
// prints it. A message whose placeholders end up anywhere else (an image's
// data, tool arguments, a model name, a text joined from several parts) is
// read back whole instead (Elider.Expand), as before.
type longRefs struct {
	el  *jsonl.Elider
	buf []byte
	fh  *os.File // for Expand, opened when first needed
}

func newLongRefs() *longRefs { return &longRefs{el: jsonl.NewElider(jsonl.ElidedMin)} }

// file returns the session file, opened when first needed.
func (l *longRefs) file(path string) (*os.File, error) {
	if l.fh == nil {
		fh, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		l.fh = fh
	}
	return l.fh, nil
}

// writeMessage writes a context message as its bytes are stored: one that
// holds placeholders is written with the stored strings copied from the
// file (never held), byte for byte what the held line gives.
func (l *longRefs) writeMessage(w io.Writer, m []byte, path string) error {
	if !jsonl.HoldsBytes(m) {
		_, err := w.Write(m)
		return err
	}
	fh, err := l.file(path)
	if err != nil {
		return err
	}
	return l.el.ExpandTo(w, m, fh)
}

func (l *longRefs) close() {
	if l != nil && l.fh != nil {
		l.fh.Close()
	}
}

// entryElided is entry, but a line longer than jsonl.LongLine is read
// through refs' Elider (refs nil: entry). The line is valid until the
// next call.
func (r *lineReader) entryElided(i int, refs *longRefs) (pathEntry, error) {
	e := r.f.Entries[i]
	if refs == nil || e.Len() <= jsonl.LongLine || r.f.edits != nil {
		return r.entry(i)
	}
	small, err := refs.el.Elide(refs.buf[:0], io.NewSectionReader(r.fh, e.Offset(), e.Len()), e.Offset())
	if err != nil {
		return pathEntry{}, err
	}
	refs.buf = small
	if n := len(small); n > 0 && small[n-1] == '\n' {
		small = small[:n-1]
	}
	return newPathEntry(i, small, e.Type()), nil
}

// message is f.Message for a context message that may hold placeholders
// of refs; it returns the view and the message as the images describer
// must see it (raw, or raw expanded when the view could not keep the
// placeholders as references).
func (f *File) refMessage(ctx *Context, raw []byte, src int, refs *longRefs) (model.Message, []byte, error) {
	m := f.Message(ctx, raw, src)
	if refs == nil || !jsonl.HoldsBytes(raw) {
		return m, raw, nil
	}
	// A content or summary that is a string is read by jsonl.String, which
	// keeps the bytes of a string without escapes as they are; the other
	// texts come from encoding/json (invalid UTF-8 becomes U+FFFD).
	var top struct {
		Content rawRef `json:"content"`
		Summary rawRef `json:"summary"`
	}
	_ = json.Unmarshal(raw, &top)
	isTop := func(s string) bool {
		for _, v := range [][]byte{top.Content, top.Summary} {
			if t, ok := jsonl.String(v); ok && t == s {
				return true
			}
		}
		return false
	}
	for j := range m.Blocks {
		b := &m.Blocks[j]
		switch b.Kind {
		case "text", "thinking", "toolResult":
		default:
			continue
		}
		if r, ok := refs.el.Lookup(b.Text); ok {
			b.LongText = &model.TextRef{Path: f.Path, Off: r.Off, Len: r.Len, Verbatim: !r.Escaped && isTop(b.Text)}
			b.Text = ""
		}
	}
	if !holdsPlaceholder(&m) {
		return m, raw, nil
	}
	fh, err := refs.file(f.Path)
	if err != nil {
		return m, raw, err
	}
	full, err := refs.el.Expand(nil, raw, fh)
	if err != nil {
		return m, raw, err
	}
	return f.Message(ctx, full, src), full, nil
}

// holdsPlaceholder reports whether a placeholder is left in m's strings,
// or m has an image (its data, not in the view, may be one).
func holdsPlaceholder(m *model.Message) bool {
	strs := []string{m.ID, m.Role, m.Marker, m.Model}
	strs = append(strs, m.Notes...)
	for _, b := range m.Blocks {
		if b.Kind == "image" {
			return true
		}
		strs = append(strs, b.Kind, b.Text, b.Name, b.ID, b.Args, b.MIME, b.Ref)
	}
	for _, s := range strs {
		if jsonl.Holds(s) {
			return true
		}
	}
	return false
}
