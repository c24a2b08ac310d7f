package agentcore

import (
	"github.com/sessctl/sessctl/internal/sessfmt"
)

// Texts gives the readable text of every entry in file order (the text
// capability, for search and secrets): user and system content, assistant
// text, thinking and tool calls, tool entries' parameters and tool results'
// output. Only the lines opts.Candidate accepts are decoded. OnPath marks
// the entries on the path to the leaf (--leaf, else the first leaf).
func (o *Opened) Texts(opts sessfmt.TextOptions, fn func(*sessfmt.Text) error) error {
	s := o.S
	kinds := opts.Kinds
	if kinds == 0 {
		kinds = sessfmt.TextAll
	}
	onPath := map[int]bool{}
	if leaf, err := o.LeafIndex(); err == nil && leaf >= 0 {
		for _, i := range s.PathTo(leaf) {
			onPath[i] = true
		}
	}
	j := 0
	return sessfmt.EachLine(s.Path, opts.Candidate, func(line int, raw []byte) error {
		for j < len(s.Entries) && s.Entries[j].Line < line {
			j++
		}
		if j >= len(s.Entries) || s.Entries[j].Line != line {
			return nil // not an entry (a bad line, an entry without id)
		}
		e := s.Entries[j]
		m := message(e, raw)
		base := sessfmt.Text{Line: line, EntryID: e.ID, Role: m.Role, Time: e.Timestamp, OnPath: onPath[j]}
		return sessfmt.MessageTexts(&m, base, kinds, fn)
	})
}

var _ sessfmt.Texter = (*Opened)(nil)
