package openclaw

import (
	"io"

	"github.com/sessctl/sessctl/internal/sessfmt"
)

// WritePi writes the database session's transcript events as pi lines, in
// order, with a header added when the session has none (the database is
// opened read-only and never changed).
func (o *Opened) WritePi(w io.Writer) (int, error) {
	ref := o.Ref()
	d, err := OpenAgentDB(ref.Path)
	if err != nil {
		return 0, err
	}
	defer d.Close()
	return d.Export(ref.ID, w)
}

var _ sessfmt.PiWriter = (*Opened)(nil)
