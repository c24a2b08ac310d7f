package opencode

import (
	"github.com/sessctl/sessctl/internal/sessfmt"
)

// Texts gives the readable text of the session (the text capability, for
// search and secrets): its title, then each message's text and reasoning
// parts, tool inputs and outputs (errors included), and subtask prompts.
// opts.Candidate is asked about each part's stored JSON (line 0: a store has
// no lines). OnPath is false for messages in the hidden tail of a pending
// revert, true otherwise.
func (o *Opened) Texts(opts sessfmt.TextOptions, fn func(*sessfmt.Text) error) error {
	t, err := o.Loaded()
	if err != nil {
		return err
	}
	kinds := opts.Kinds
	if kinds == 0 {
		kinds = sessfmt.TextAll
	}
	if kinds&sessfmt.TextTitle != 0 && t.Session.Title != "" {
		if opts.Candidate == nil || opts.Candidate(0, []byte(t.Session.Title)) {
			x := sessfmt.Text{Kind: sessfmt.TextTitle, Text: t.Session.Title, EntryID: t.Session.ID, Role: "session", Time: t.Session.Created, OnPath: true}
			if err := fn(&x); err != nil {
				return err
			}
		}
	}
	for mi := range t.Messages {
		m := &t.Messages[mi]
		for pi := range m.Parts {
			p := &m.Parts[pi]
			raw := []byte(p.Raw)
			if len(raw) == 0 {
				raw = []byte(p.Text + p.Output + string(p.Input) + p.ToolError + p.Prompt)
			}
			if opts.Candidate != nil && !opts.Candidate(0, raw) {
				continue
			}
			base := sessfmt.Text{EntryID: m.ID, Role: m.Role, Time: m.Created, OnPath: !m.Reverted && !p.Reverted}
			emit := func(k sessfmt.TextKind, tool, text string) error {
				if k&kinds == 0 || text == "" {
					return nil
				}
				x := base
				x.Kind, x.Tool, x.Text = k, tool, text
				return fn(&x)
			}
			var err error
			switch p.Type {
			case "text":
				err = emit(sessfmt.TextBody, "", p.Text)
			case "reasoning":
				err = emit(sessfmt.TextThinking, "", p.Text)
			case "tool":
				in := p.Tool
				if len(p.Input) > 0 {
					in += "\n" + string(p.Input)
				}
				if err = emit(sessfmt.TextToolInput, p.Tool, in); err == nil {
					out := p.Output
					if p.ToolError != "" {
						out += p.ToolError
					}
					err = emit(sessfmt.TextToolOutput, p.Tool, out)
				}
			case "subtask", "agent":
				err = emit(sessfmt.TextBody, "", p.Prompt)
			}
			if err != nil {
				return err
			}
		}
	}
	return nil
}

var _ sessfmt.Texter = (*Opened)(nil)
