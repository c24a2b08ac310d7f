package claude

import (
	"github.com/sessctl/sessctl/internal/model"
	"github.com/sessctl/sessctl/internal/sessfmt"
	"github.com/valyala/fastjson"
)

// Texts gives the readable text of every record in file order (the text
// capability, for search and secrets): user and assistant text, thinking,
// tool_use input, tool_result text, system text, and titles (custom-title,
// ai-title, summary lines). Only the lines opts.Candidate accepts are
// decoded. OnPath marks the records of the conversation the loader resumes
// (across compactions), with the session's leaf mode.
func (s *Session) Texts(opts sessfmt.TextOptions, fn func(*sessfmt.Text) error) error {
	f := s.File
	kinds := opts.Kinds
	if kinds == 0 {
		kinds = sessfmt.TextAll
	}
	onPath := map[int]bool{}
	leaf := s.LeafArg
	if leaf == "" {
		leaf, _ = f.Leaf(s.Mode)
	}
	if leaf != "" {
		if p, err := f.Walk(leaf, true); err == nil {
			for _, nd := range p.nodes {
				onPath[int(f.lines[f.nLast[nd]].ln)] = true
			}
		}
	}
	tools := map[string]string{} // tool_use id -> name, from the lines decoded
	var p fastjson.Parser
	texts := func(line int, raw []byte, fn func(*sessfmt.Text) error) error {
		return lineTexts(&p, tools, line, raw, onPath[line], kinds, fn)
	}
	short := func(line int, raw []byte) error { return texts(line, raw, fn) }
	if opts.Long == nil {
		return sessfmt.EachLine(f.Path, opts.Candidate, short)
	}
	// A line longer than jsonl.LongLine goes to opts.Long unread; its
	// texts are read from the elided copy Long makes (strings decoded as
	// fastjson decodes them: Loose).
	return sessfmt.EachLineLong(f.Path, opts.Candidate, short, sessfmt.LongTexts(opts.Long, true, texts))
}

// LooseStrings: the texts are decoded as fastjson decodes strings (a long
// line's left-out strings are decoded so: jsonl.DecodeStringLoose).
func (Format) LooseStrings() bool { return true }

// LineTexts reads one line's texts without the session (see
// sessfmt.LineTexter).
func (Format) LineTexts(line int, raw []byte, kinds sessfmt.TextKind, fn func(*sessfmt.Text) error) error {
	if kinds == 0 {
		kinds = sessfmt.TextAll
	}
	var p fastjson.Parser
	return lineTexts(&p, map[string]string{}, line, raw, false, kinds, fn)
}

var _ sessfmt.LineTexter = Format{}

func lineTexts(p *fastjson.Parser, tools map[string]string, line int, raw []byte, onPath bool, kinds sessfmt.TextKind, fn func(*sessfmt.Text) error) error {
	body := raw
	if line == 1 && len(body) >= 3 && body[0] == 0xEF && body[1] == 0xBB && body[2] == 0xBF {
		body = body[3:]
	}
	v, err := p.ParseBytes(body)
	if err != nil || v.Type() != fastjson.TypeObject {
		return nil
	}
	typ := string(strBytes(v, "type"))
	base := sessfmt.Text{Line: line, EntryID: string(strBytes(v, "uuid")), OnPath: onPath, Time: parseRFC(string(strBytes(v, "timestamp")))}
	emit := func(k sessfmt.TextKind, role, text string) error {
		if k&kinds == 0 || text == "" {
			return nil
		}
		t := base
		t.Kind, t.Role, t.Text = k, role, text
		return fn(&t)
	}
	switch typ {
	case TypeUser, TypeAssistant:
		msg := v.Get("message")
		if msg == nil {
			return nil
		}
		m := model.Message{Role: string(strBytes(msg, "role"))}
		if m.Role == "" {
			m.Role = typ
		}
		c := msg.Get("content")
		switch {
		case c == nil:
		case c.Type() == fastjson.TypeString:
			sb, _ := c.StringBytes()
			m.Blocks = append(m.Blocks, model.Block{Kind: "text", Text: string(sb)})
		case c.Type() == fastjson.TypeArray:
			results := 0
			for _, b := range c.GetArray() {
				bl := decodeBlock(b)
				switch bl.Type {
				case "text":
					m.Blocks = append(m.Blocks, model.Block{Kind: "text", Text: bl.Text})
				case "thinking":
					m.Blocks = append(m.Blocks, model.Block{Kind: "thinking", Text: bl.Text})
				case "tool_use", "server_tool_use":
					tools[bl.ID] = bl.Name
					m.Blocks = append(m.Blocks, model.Block{Kind: "toolCall", Name: bl.Name, ID: bl.ID, Args: bl.Input})
				case "tool_result":
					results++
					m.Blocks = append(m.Blocks, model.Block{Kind: "toolResult", Name: tools[bl.ToolUseID], ID: bl.ToolUseID, Text: bl.Text})
				}
			}
			if typ == TypeUser && results > 0 && results == len(m.Blocks) {
				m.Role = "toolResult"
			}
		}
		return sessfmt.MessageTexts(&m, base, kinds, fn)
	case TypeSystem:
		return emit(sessfmt.TextBody, "system", string(strBytes(v, "content")))
	case TypeSummary:
		return emit(sessfmt.TextTitle, "summary", string(strBytes(v, "summary")))
	case "custom-title":
		return emit(sessfmt.TextTitle, "custom-title", string(strBytes(v, "customTitle")))
	case "ai-title":
		return emit(sessfmt.TextTitle, "ai-title", string(strBytes(v, "aiTitle")))
	}
	return nil
}

var _ sessfmt.Texter = (*Session)(nil)
