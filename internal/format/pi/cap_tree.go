package pi

import (
	"fmt"
	"io"

	"github.com/sessctl/sessctl/internal/sessfmt"
)

// TreeView is the entry tree with the path to the leaf marked; the text
// of a node is read only when it is drawn.
func (s *Session) TreeView() (*sessfmt.TreeView, error) {
	leaf, err := s.LeafIndex()
	if err != nil {
		return nil, err
	}
	f := s.File
	v := &sessfmt.TreeView{Tree: f.TreeStream(leaf), Footer: true, ShortIDs: 8}
	if f.Header != nil {
		title := s.headTitle()
		if title == "" {
			title = "(untitled)"
		}
		v.Header = fmt.Sprintf("%s session %s · %s · %d entries", f.Dialect, f.Header.ID, title, len(f.Entries))
	}
	return v, nil
}

// WriteTreeJSON streams the tree --json object from the index (compact;
// the caller indents it for a terminal).
func (s *Session) WriteTreeJSON(w io.Writer, pretty bool) error {
	leaf, err := s.LeafIndex()
	if err != nil {
		return err
	}
	f := s.File
	if name := s.ref.String(); name != f.Path {
		// an OpenClaw database session read from a temporary file: the
		// JSON names the reference. WriteTreeJSON reads only the index,
		// so a copy with the reference as its path is enough.
		c := *f
		c.Path = name
		f = &c
	}
	return f.WriteTreeJSON(w, leaf)
}
