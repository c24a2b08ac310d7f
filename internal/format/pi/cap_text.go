package pi

import (
	"sync"
	"time"

	"github.com/sessctl/sessctl/internal/sessfmt"
	"github.com/valyala/fastjson"
)

// Texts gives the readable text of every entry in file order (the text
// capability, for search and secrets): messages' text, thinking, tool calls
// and results (bash and python executions included), compaction and branch
// summaries, custom messages, and titles (session_info names, oh-my-pi's
// title slot and header title). Only the lines opts.Candidate accepts are
// decoded. OnPath marks the entries on the path to the leaf.
func (s *Session) Texts(opts sessfmt.TextOptions, fn func(*sessfmt.Text) error) error {
	f := s.File
	kinds := opts.Kinds
	if kinds == 0 {
		kinds = sessfmt.TextAll
	}
	onPath := map[int]bool{}
	if leaf, err := s.LeafIndex(); err == nil {
		if _, path, err := f.PathTo(leaf); err == nil {
			for _, i := range path {
				onPath[i] = true
			}
		}
	}
	// Entries are in file order; a cursor finds the entry of each line.
	j := 0
	var p fastjson.Parser
	texts := func(line int, raw []byte, fn func(*sessfmt.Text) error) error {
		for j < len(f.Entries) && int(f.Line(j)) < line {
			j++
		}
		entry := -1
		if j < len(f.Entries) && int(f.Line(j)) == line {
			entry = j
		}
		v, err := p.ParseBytes(trimBOM(raw))
		if err != nil || v.Type() != fastjson.TypeObject {
			return nil
		}
		base := sessfmt.Text{Line: line}
		if entry >= 0 {
			base.EntryID = f.DisplayID(entry)
			base.OnPath = onPath[entry]
		}
		if ts := v.GetStringBytes("timestamp"); ts != nil {
			if t, err := time.Parse(time.RFC3339Nano, string(ts)); err == nil {
				base.Time = t
			}
		}
		return entryTexts(v, trimBOM(raw), base, kinds, fn)
	}
	short := func(line int, raw []byte) error { return texts(line, raw, fn) }
	if opts.Long != nil {
		// pi decodes strings as encoding/json does, not loosely.
		return sessfmt.EachLineLong(f.Path, opts.Candidate, short, sessfmt.LongTexts(opts.Long, false, texts))
	}
	return sessfmt.EachLine(f.Path, opts.Candidate, short)
}

func trimBOM(b []byte) []byte {
	if len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
		return b[3:]
	}
	return b
}

// entryTexts gives the texts of the record v parsed from line.
func entryTexts(v *fastjson.Value, line []byte, base sessfmt.Text, kinds sessfmt.TextKind, fn func(*sessfmt.Text) error) error {
	emit := func(k sessfmt.TextKind, role, text string) error {
		if k&kinds == 0 || text == "" {
			return nil
		}
		t := base
		t.Kind, t.Role, t.Text = k, role, text
		return fn(&t)
	}
	switch string(v.GetStringBytes("type")) {
	case "message":
		msg := v.Get("message")
		if msg == nil {
			return nil
		}
		m, ok := fastMessage(msg, line)
		if !ok {
			// fastMessage may have unescaped the message's keys in msg
			// (fastjson does so in place): toModel reads a fresh parse,
			// as before.
			var p fastjson.Parser
			if v2, err := p.ParseBytes(line); err == nil {
				msg = v2.Get("message")
			}
			m = toModel(msg.MarshalTo(nil))
		}
		if !m.Time.IsZero() {
			base.Time = m.Time
		}
		return sessfmt.MessageTexts(&m, base, kinds, fn)
	case "compaction":
		return emit(sessfmt.TextBody, "compactionSummary", string(v.GetStringBytes("summary")))
	case "branch_summary":
		return emit(sessfmt.TextBody, "branchSummary", string(v.GetStringBytes("summary")))
	case "custom_message":
		c := v.Get("content")
		if c == nil {
			return nil
		}
		for _, b := range contentBlocks(c.MarshalTo(nil)) {
			if b.Kind == "text" {
				if err := emit(sessfmt.TextBody, "custom", b.Text); err != nil {
					return err
				}
			}
		}
	case "session_info":
		return emit(sessfmt.TextTitle, "session_info", string(v.GetStringBytes("name")))
	case "session":
		return emit(sessfmt.TextTitle, "session", string(v.GetStringBytes("title")))
	case "title":
		return emit(sessfmt.TextTitle, "title", string(v.GetStringBytes("v")))
	}
	return nil
}

var _ sessfmt.Texter = (*Session)(nil)

// LineTexts reads one line's texts without the session (see
// sessfmt.LineTexter); the entry id is the stored id.
func (Format) LineTexts(line int, raw []byte, kinds sessfmt.TextKind, fn func(*sessfmt.Text) error) error {
	if kinds == 0 {
		kinds = sessfmt.TextAll
	}
	// A parser is reused from line to line (its values are copied out
	// before it goes back), except after a long line, whose copy it
	// would keep.
	p := lineParsers.Get().(*fastjson.Parser)
	if len(raw) <= 1<<20 {
		defer lineParsers.Put(p)
	}
	v, err := p.ParseBytes(trimBOM(raw))
	if err != nil || v.Type() != fastjson.TypeObject {
		return nil
	}
	base := sessfmt.Text{Line: line, EntryID: string(v.GetStringBytes("id"))}
	if ts := v.GetStringBytes("timestamp"); ts != nil {
		if t, err := time.Parse(time.RFC3339Nano, string(ts)); err == nil {
			base.Time = t
		}
	}
	return entryTexts(v, trimBOM(raw), base, kinds, fn)
}

var _ sessfmt.LineTexter = Format{}

var lineParsers = sync.Pool{New: func() any { return new(fastjson.Parser) }}
