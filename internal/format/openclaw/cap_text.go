package openclaw

import (
	"github.com/sessctl/sessctl/internal/sessfmt"
)

// Texts gives the readable text of a database session as the pi session
// its events make up; lines are those of the temporary export, so they are
// reported (and given to opts.Candidate) as 0: a database has no lines.
func (o *Opened) Texts(opts sessfmt.TextOptions, fn func(*sessfmt.Text) error) error {
	inner := opts
	if opts.Candidate != nil {
		inner.Candidate = func(_ int, raw []byte) bool { return opts.Candidate(0, raw) }
	}
	return o.Session.Texts(inner, func(t *sessfmt.Text) error {
		t.Line = 0
		return fn(t)
	})
}

var _ sessfmt.Texter = (*Opened)(nil)
