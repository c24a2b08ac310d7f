package discover

import (
	"bytes"
	"io"
	"os"

	"github.com/sessctl/sessctl/internal/format/claude"
	"github.com/sessctl/sessctl/internal/format/pi"
)

// identHead is how many bytes of a file Ident reads when it is given no
// head: a session header line is usually a few hundred bytes.
const identHead = 16 << 10

// Ident is the id Info gives the session file at path (Session.ID), when
// it can be told without reading past the file's first lines; ok is false
// otherwise, and the caller then takes the id from Info. head is the start
// of the file as already read (any length), or nil to have Ident read it.
//
// It is list's own rule, not a second one: Claude Code's id is
// claude.InfoMeta's (the file name); a pi-family file's is piID's (as
// piSession's) of list's line scan (pi.ScanListInfo) of the file's first
// line, or two behind an oh-my-pi title slot, when those lines hold the session header
// and nothing list counts as a problem (then list's scan of the whole file
// takes its id from the same line, and so does the dialect's reader that
// oh-my-pi and xcsh files are read again with when a later line is odd).
// Agent Core, OpenClaw's stores and any other provider: ok false.
func (p *Provider) Ident(path string, head []byte) (id string, ok bool) {
	switch p.Agent {
	case "claude":
		return claude.InfoMeta(path, nil).ID, true
	case "pi", "omp", "xcsh", "openclaw":
	default:
		return "", false
	}
	if head == nil {
		f, err := os.Open(path)
		if err != nil {
			return "", false
		}
		buf := make([]byte, identHead)
		n, err := io.ReadFull(f, buf)
		f.Close()
		if err != nil && err != io.ErrUnexpectedEOF {
			return "", false
		}
		head = buf[:n]
	}
	end := 0
	for n := 1; n <= 2; n++ {
		i := bytes.IndexByte(head[end:], '\n')
		if i < 0 {
			return "", false // the line may go on past the head
		}
		end += i + 1
		li, err := pi.ScanListInfo(bytes.NewReader(head[:end]), path)
		if err != nil {
			return "", false
		}
		if li.HasHeader {
			if len(li.Problems) > 0 {
				return "", false
			}
			return piID(path, li), true
		}
	}
	return "", false
}

// piID is the id list gives a pi-family file from its summary: the
// header's, else the file name's (piSession and Ident).
func piID(path string, li *pi.ListInfo) string {
	if li.ID != "" {
		return li.ID
	}
	return IDFromFileName(path)
}
