package pi

import (
	"github.com/sessctl/sessctl/internal/sessfmt"
)

// Writing is the pi format with the writing capabilities whose code lives
// outside this package (internal/repair and internal/fork read pi files
// through it, so they are handed in by the one list of formats,
// internal/sessfmt/formats). Its sessions are Writable.
type Writing struct {
	Format
	Writers sessfmt.Writers
}

// Open opens the session as Format does, with the writers attached.
func (f Writing) Open(ref sessfmt.Ref, opts sessfmt.OpenOptions) (sessfmt.Session, error) {
	s, err := f.Format.Open(ref, opts)
	if err != nil {
		return nil, err
	}
	return &Writable{Session: s.(*Session), w: f.Writers}, nil
}

// Writable is a pi-family session file that repair and fork can write
// from; every other capability is the Session's.
type Writable struct {
	*Session
	w sessfmt.Writers
}

var _ sessfmt.Repairer = (*Writable)(nil)

// Repair fixes what check finds (sessfmt.Repairer): torn, malformed and
// non-object lines to the sidecar, NUL runs, a BOM, duplicate ids, orphans
// and cycles re-linked, a header rebuilt or tool calls closed when asked.
func (s *Writable) Repair(opts sessfmt.RepairOptions) (*sessfmt.RepairResult, error) {
	return s.w.RepairFile(s, opts)
}
