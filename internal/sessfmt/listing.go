package sessfmt

import (
	"github.com/sessctl/sessctl/internal/model"
	"github.com/sessctl/sessctl/internal/problem"
)

// Verdict is what list says of a session besides its Meta: the problems
// check reports and the messages show prints, computed by the session's
// own capabilities so that list, check and show never disagree.
type Verdict struct {
	// Problems counts the errors and warnings check reports (information
	// is not a problem); Codes counts them by code (nil when none).
	Problems int
	Codes    map[string]int
	// Checked is false when the session has no Checker or its check
	// failed: Problems then says nothing.
	Checked bool
	// Messages is the number of messages show prints for the active leaf
	// (0 for a session show refuses).
	Messages int
	// Counted is false when the session has no Contexter.
	Counted bool
}

// VerdictOf computes s's Verdict with its Checker and Contexter.
func VerdictOf(s Session, opts CheckOptions) Verdict {
	var v Verdict
	if c, ok := s.(Checker); ok {
		if ps, err := c.Check(opts); err == nil {
			v.Checked = true
			for _, p := range ps {
				if p.Severity == problem.Info {
					continue
				}
				if v.Codes == nil {
					v.Codes = map[string]int{}
				}
				v.Codes[p.Code]++
				v.Problems++
			}
		}
	}
	if mc, ok := s.(MessageCounter); ok {
		n, _ := mc.CountMessages() // a refused session shows no message
		v.Messages, v.Counted = n, true
	} else if cx, ok := s.(Contexter); ok {
		var n messageCounter
		_ = cx.Transcript(ContextOptions{}, &n) // a refused session shows no message
		v.Messages, v.Counted = int(n), true
	}
	return v
}

// MessageCounter is a Contexter that counts the messages its Transcript
// gives without decoding them (with an error: the count so far).
type MessageCounter interface {
	CountMessages() (int, error)
}

// messageCounter is a TranscriptSink that counts the messages show prints.
type messageCounter int

func (c *messageCounter) Header([]string) error        { return nil }
func (c *messageCounter) Message(*model.Message) error { *c++; return nil }
func (c *messageCounter) Footer(string) error          { return nil }
