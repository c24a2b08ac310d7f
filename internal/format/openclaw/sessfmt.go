package openclaw

import (
	"fmt"
	"os"

	"github.com/sessctl/sessctl/internal/format/pi"
	"github.com/sessctl/sessctl/internal/sessfmt"
)

// Format is OpenClaw's agent database (openclaw-agent.sqlite) in the
// format registry. OpenClaw's transcript files are pi-format files: the pi
// format reads them.
type Format struct{}

// Name is "openclaw".
func (Format) Name() string { return "openclaw" }

// Claim claims "<openclaw-agent.sqlite>#<session id>", as list prints it.
func (Format) Claim(arg string) (sessfmt.Ref, bool) {
	db, id, ok := ParseDBRef(arg)
	if !ok {
		return sessfmt.Ref{}, false
	}
	return sessfmt.Ref{Format: "openclaw", Agent: "openclaw", Path: db, ID: id}, true
}

// Sniff says 0: databases are claimed; transcript files are pi's, but for
// the zstd archives of 2026.9.x (see IsCompressedArchive), which are this
// format's.
func (Format) Sniff(path string, head []byte) int {
	if IsCompressedArchive(path, head) {
		return pi.SniffHeader
	}
	return 0
}

// Open reads the session's transcript events, which are pi lines, through
// a temporary pi file (removed by Close). Everything the session says
// names the database reference, never the temporary file.
func (Format) Open(ref sessfmt.Ref, opts sessfmt.OpenOptions) (sessfmt.Session, error) {
	if ref.ID == "" {
		return openArchiveSession(ref, opts) // a sniffed .zst archive
	}
	tmp, err := ExportTemp(ref.Path, ref.ID)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", ref.String(), err)
	}
	ref.Format, ref.Agent = "openclaw", "openclaw"
	ps, err := pi.OpenSession(ref, tmp, opts)
	if err != nil {
		os.Remove(tmp)
		return nil, err
	}
	o := &Opened{Session: ps, tmp: tmp}
	ps.MetaFunc = func() sessfmt.Meta { return o.dbMeta(ref, tmp) }
	return o, nil
}

// Opened is a session of an OpenClaw agent database, read as the pi file
// its events make up; the pi capabilities are its own.
type Opened struct {
	*pi.Session
	tmp string
}

// Close removes the temporary file.
func (o *Opened) Close() error {
	err := o.Session.Close()
	if rerr := os.Remove(o.tmp); err == nil && rerr != nil && !os.IsNotExist(rerr) {
		err = rerr
	}
	return err
}

// dbMeta is the session's row as list shows it (the database's session
// table), with what the exported events say (cwd, dates) where the row is
// silent.
func (o *Opened) dbMeta(ref sessfmt.Ref, tmp string) sessfmt.Meta {
	m := pi.MetaOf(tmp, "openclaw")
	m.Agent, m.Format = "openclaw", "openclaw"
	if d, err := OpenAgentDB(ref.Path); err == nil {
		ss, err := d.Sessions()
		d.Close()
		if err == nil {
			for _, s := range ss {
				if s.SessionID != ref.ID {
					continue
				}
				m.ID = s.SessionID
				m.Messages, m.Entries = s.Events, s.Events
				switch {
				case s.Label != "":
					m.Title, m.TitleSource = sessfmt.Title(s.Label, "openclaw-label", "")
				case s.DisplayName != "":
					m.Title, m.TitleSource = sessfmt.Title(s.DisplayName, "openclaw-label", "")
				default:
					m.Title, m.TitleSource = sessfmt.Title(s.Key, "openclaw-key", "")
				}
				m.Modified = s.Updated
				if !s.Created.IsZero() {
					c := s.Created
					m.Created = &c
				}
				m.Model = s.Model
				break
			}
		}
	}
	return m
}
