package discover

import (
	"github.com/sessctl/sessctl/internal/sessfmt"
	"github.com/sessctl/sessctl/internal/sessfmt/formats"
)

// verdictVersion is part of every cached row's key (see cacheFormat): rows
// cached before list took its status from check (1), Claude Code rows
// cached before they took their title from the session's Meta (2) or
// carried their continued-in link (3), are read again.
const verdictVersion = 3

// applyVerdict gives a listed row check's verdict and show's count
// (sessfmt.VerdictOf), so that list, check and show never disagree on one
// file (issue 11.11): Problems counts the errors and warnings `sessctl
// check` reports (ProblemCodes by code), Messages the messages `sessctl
// show` prints. The row is cached with the file's size and mtime, so this
// runs once per change of the file. A session the registry cannot open
// keeps what its lister read.
func applyVerdict(reg *sessfmt.Registry, s *Session) {
	sess, err := reg.Open(s.Path, sessfmt.OpenOptions{Check: true})
	if err != nil {
		return
	}
	defer sess.Close()
	verdict(sess, s)
}

// verdict gives s the verdict of the opened session sess.
func verdict(sess sessfmt.Session, s *Session) {
	v := sessfmt.VerdictOf(sess, sessfmt.CheckOptions{})
	if v.Checked {
		s.Problems, s.ProblemCodes = v.Problems, v.Codes
	}
	if v.Counted {
		s.Messages = v.Messages
	}
}

func newRegistry(env Env) *sessfmt.Registry { return formats.New(env.Get) }
