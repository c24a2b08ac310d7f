package discover

import (
	"github.com/sessctl/sessctl/internal/model"
	"github.com/sessctl/sessctl/internal/problem"
	"github.com/sessctl/sessctl/internal/sessfmt"
	"github.com/sessctl/sessctl/internal/sessfmt/formats"
)

// verdictVersion is part of every cached row's key (see cacheFormat): rows
// cached before list took its status from check are read again.
const verdictVersion = 1

// applyVerdict gives a listed row check's verdict and show's count, so that
// list, check and show never disagree on one file (issue 11.11): Problems
// counts the errors and warnings `sessctl check` reports for the session
// (ProblemCodes by code; information is not a problem), and Messages is the
// number of messages `sessctl show` prints for it. The row is cached with
// the file's size and mtime, so this runs once per change of the file. A
// session the registry cannot open keeps what its lister read.
func applyVerdict(reg *sessfmt.Registry, s *Session) {
	sess, err := reg.Open(s.Path, sessfmt.OpenOptions{})
	if err != nil {
		return
	}
	defer sess.Close()
	if c, ok := sess.(sessfmt.Checker); ok {
		if ps, err := c.Check(sessfmt.CheckOptions{}); err == nil {
			s.Problems, s.ProblemCodes = 0, nil
			for _, p := range ps {
				if p.Severity == problem.Info {
					continue
				}
				if s.ProblemCodes == nil {
					s.ProblemCodes = map[string]int{}
				}
				s.ProblemCodes[p.Code]++
				s.Problems++
			}
		}
	}
	if cx, ok := sess.(sessfmt.Contexter); ok {
		// A file show refuses (no valid header) shows no message.
		var n messageCounter
		_ = cx.Transcript(sessfmt.ContextOptions{}, &n)
		s.Messages = int(n)
	}
}

// messageCounter is a TranscriptSink that counts the messages show prints.
type messageCounter int

func (c *messageCounter) Header([]string) error        { return nil }
func (c *messageCounter) Message(*model.Message) error { *c++; return nil }
func (c *messageCounter) Footer(string) error          { return nil }
func newRegistry(env Env) *sessfmt.Registry            { return formats.New(env.Get) }
