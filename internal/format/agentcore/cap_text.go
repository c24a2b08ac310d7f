package agentcore

import (
	"encoding/json"
	"time"

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

// LineTexts reads one line's texts without the session (see
// sessfmt.LineTexter).
func (Format) LineTexts(line int, raw []byte, kinds sessfmt.TextKind, fn func(*sessfmt.Text) error) error {
	if kinds == 0 {
		kinds = sessfmt.TextAll
	}
	var h struct {
		ID        string   `json:"id"`
		Type      string   `json:"type"`
		Timestamp *float64 `json:"timestamp"`
	}
	if json.Unmarshal(raw, &h) != nil || h.ID == "" {
		return nil
	}
	e := Entry{ID: h.ID, Type: h.Type, Line: line}
	if h.Timestamp != nil {
		e.Timestamp = time.UnixMilli(int64(*h.Timestamp)).UTC()
	}
	m := message(e, raw)
	return sessfmt.MessageTexts(&m, sessfmt.Text{Line: line, EntryID: e.ID, Role: m.Role, Time: e.Timestamp}, kinds, fn)
}

var _ sessfmt.LineTexter = Format{}
