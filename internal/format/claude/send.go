package claude

import (
	"encoding/json"

	"github.com/sessctl/sessctl/internal/jsonl"

	"github.com/valyala/fastjson"
)

// Reasons a record on the path is not sent to the model (Turn.NotSent,
// Drop.Reason). Claude Code 2.1.330 cleans the resumed conversation before
// its first request; these name what it leaves out.
const (
	// NotSentAPIError: a synthetic assistant message recording an API
	// error (isApiErrorMessage).
	NotSentAPIError = "api-error-message"
	// NotSentToolUse: an assistant line whose tool_use blocks all lack a
	// tool_result (and a user message follows; an unanswered call at the
	// very end is kept and answered by a synthetic "interrupted" result).
	NotSentToolUse = "tool-use-without-result"
	// NotSentToolResult: a tool_result block whose tool_use is not in the
	// conversation.
	NotSentToolResult = "tool-result-without-call"
	// NotSentThinkingOnly: an assistant line of thinking blocks only whose
	// message.id has no other kind of block.
	NotSentThinkingOnly = "thinking-only"
	// NotSentWhitespace: an assistant line whose text is whitespace only.
	NotSentWhitespace = "whitespace-only"
	// NotSentRecord: system and attachment records, kept in the file and
	// the chain but never a message of the conversation.
	NotSentRecord = "not-a-message"
	// NotSentPreCompaction: history before a compaction (shown with
	// --across-compactions); the model sees the summary instead.
	NotSentPreCompaction = "before-compaction"
)

// Drop marks a line of a turn, or one content block of it, that Claude Code
// does not send.
type Drop struct {
	// UUID is the record (line) the drop is about.
	UUID string `json:"uuid"`
	// Block is the index of the dropped block in the line's content, or -1
	// for the whole line.
	Block  int    `json:"block"`
	Reason string `json:"reason"`
}

// sendInfo is what the send plan needs of one path record.
type sendInfo struct {
	uses       []string // tool_use ids (assistant)
	results    []string // tool_result tool_use_id per block, "" for other blocks (user)
	nonThink   bool     // assistant line with a block that is not thinking
	whitespace bool     // assistant line whose blocks are all whitespace text
}

// sendPlan works out, for every record of the path, whether Claude Code
// sends it: per node a reason ("" = sent) and per node the dropped blocks.
func (f *File) sendPlan(p *Path) {
	if p.notSent != nil {
		return
	}
	p.notSent = map[int32]string{}
	p.dropBlocks = map[int32][]int{}
	var parser fastjson.Parser
	info := make([]sendInfo, len(p.nodes))
	for i, nd := range p.nodes {
		typ := f.nodeType(nd)
		switch {
		case p.pre[nd]:
			p.notSent[nd] = NotSentPreCompaction
			continue
		case typ != TypeUser && typ != TypeAssistant:
			p.notSent[nd] = NotSentRecord
			continue
		}
		lr := &f.lines[f.nLast[nd]]
		if typ == TypeAssistant && lr.flags&fAPIError != 0 {
			p.notSent[nd] = NotSentAPIError
			continue
		}
		if lr.flags&(fToolUse|fToolResult|fThinking) == 0 && typ == TypeUser {
			continue
		}
		if !f.sendInfoOf(&parser, nd, typ, &info[i]) {
			continue
		}
	}
	f.sendDecide(p, info)
}

// sendInfoOf reads what the send plan needs of record nd's line (false:
// it does not parse). A line longer than jsonl.LongLine is read elided,
// its whitespace-only texts decided from the file; whole when an id is a
// left-out string.
func (f *File) sendInfoOf(parser *fastjson.Parser, nd int32, typ string, in *sendInfo) bool {
	li := f.nLast[nd]
	v, _, long, err := f.parseLong(parser, li)
	if err != nil {
		return false
	}
	if long {
		var x sendInfo
		f.sendInfoFrom(v, typ, &x)
		held := false
		for _, id := range append(x.uses, x.results...) {
			held = held || jsonl.Holds(id)
		}
		if !held {
			*in = x
			return true
		}
		if v, _, err = f.parseLine(parser, li); err != nil {
			return false
		}
	}
	f.sendInfoFrom(v, typ, in)
	return true
}

// sendInfoFrom reads what the send plan needs of a parsed line.
func (f *File) sendInfoFrom(v *fastjson.Value, typ string, in *sendInfo) {
	c := v.Get("message", "content")
	if c == nil || c.Type() != fastjson.TypeArray {
		if typ == TypeAssistant {
			in.nonThink = true
			if c != nil && c.Type() == fastjson.TypeString {
				s, _ := c.StringBytes()
				in.whitespace = f.blank(s)
			}
		}
		return
	}
	blocks := c.GetArray()
	ws := len(blocks) > 0
	for _, b := range blocks {
		bt := string(strBytes(b, "type"))
		switch typ {
		case TypeAssistant:
			if bt != "thinking" && bt != "redacted_thinking" {
				in.nonThink = true
			}
			if bt != "text" || !f.blank(strBytes(b, "text")) {
				ws = false
			}
			if bt == "tool_use" || bt == "server_tool_use" {
				in.uses = append(in.uses, string(strBytes(b, "id")))
			}
		case TypeUser:
			id := ""
			if bt == "tool_result" {
				id = string(strBytes(b, "tool_use_id"))
				if id == "" {
					id = "\x00"
				}
			}
			in.results = append(in.results, id)
		}
	}
	if typ == TypeAssistant {
		in.whitespace = ws
	}
}

// sendDecide makes the send plan from what sendInfoOf read.
func (f *File) sendDecide(p *Path, info []sendInfo) {
	// thinking-only lines: dropped when no line of their message.id has
	// another kind of block
	hasOther := map[int32]bool{}
	for i, nd := range p.nodes {
		if p.notSent[nd] != "" || f.nodeType(nd) != TypeAssistant {
			continue
		}
		if m := f.lines[f.nLast[nd]].msgID; m >= 0 && info[i].nonThink {
			hasOther[m] = true
		}
	}
	for i, nd := range p.nodes {
		if p.notSent[nd] != "" || f.nodeType(nd) != TypeAssistant {
			continue
		}
		m := f.lines[f.nLast[nd]].msgID
		if !info[i].nonThink && len(info[i].uses) == 0 && !(m >= 0 && hasOther[m]) && f.lines[f.nLast[nd]].flags&fThinking != 0 {
			p.notSent[nd] = NotSentThinkingOnly
		} else if info[i].whitespace {
			p.notSent[nd] = NotSentWhitespace
		}
	}
	// tool_use without result
	results := map[string]bool{}
	for i, nd := range p.nodes {
		if p.notSent[nd] != "" {
			continue
		}
		for _, id := range info[i].results {
			if id != "" {
				results[id] = true
			}
		}
	}
	lastUser := -1
	for i, nd := range p.nodes {
		if p.notSent[nd] == "" && f.nodeType(nd) == TypeUser {
			lastUser = i
		}
	}
	for i, nd := range p.nodes {
		if p.notSent[nd] != "" || len(info[i].uses) == 0 || i > lastUser {
			continue
		}
		matched := false
		for _, u := range info[i].uses {
			if results[u] {
				matched = true
				break
			}
		}
		if !matched {
			p.notSent[nd] = NotSentToolUse
		}
	}
	// tool_result without call
	uses := map[string]bool{}
	for i, nd := range p.nodes {
		if p.notSent[nd] != "" {
			continue
		}
		for _, u := range info[i].uses {
			uses[u] = true
		}
	}
	for i, nd := range p.nodes {
		if p.notSent[nd] != "" || len(info[i].results) == 0 {
			continue
		}
		var drop []int
		kept := 0
		for k, id := range info[i].results {
			if id != "" && !uses[id] {
				drop = append(drop, k)
			} else {
				kept++
			}
		}
		switch {
		case len(drop) == 0:
		case kept == 0:
			p.notSent[nd] = NotSentToolResult
		default:
			p.dropBlocks[nd] = drop
		}
	}
}

// markSend fills the send marks of a freshly decoded one-line turn.
func (p *Path) markSend(t *Turn, nd int32) {
	if r := p.notSent[nd]; r != "" {
		t.Sent = false
		t.NotSent = r
		t.Dropped = append(t.Dropped, Drop{UUID: t.UUID, Block: -1, Reason: r})
		return
	}
	t.Sent = true
	for _, k := range p.dropBlocks[nd] {
		t.Dropped = append(t.Dropped, Drop{UUID: t.UUID, Block: k, Reason: NotSentToolResult})
	}
}

// mergeSend combines the marks of a merged line into t.
func (t *Turn) mergeSend(o *Turn) {
	if o.Sent && !t.Sent {
		t.NotSent = ""
	}
	if !o.Sent && !t.Sent && t.NotSent != o.NotSent {
		t.NotSent = o.NotSent // several reasons: the Dropped list has each
	}
	t.Sent = t.Sent || o.Sent
	t.Dropped = append(t.Dropped, o.Dropped...)
}

// SentLines returns the line numbers of the turn that Claude Code sends
// (lines dropped whole left out), in order.
func (t *Turn) SentLines() []int {
	var out []int
	for i, ln := range t.Lines {
		if !t.droppedWhole(t.uuidAt(i)) {
			out = append(out, ln)
		}
	}
	return out
}

// LineOf is the line number of the turn's record uuid (0 if not in it).
func (t *Turn) LineOf(uuid string) int {
	for i, ln := range t.Lines {
		if t.uuidAt(i) == uuid {
			return ln
		}
	}
	return 0
}

func (t *Turn) uuidAt(i int) string {
	if len(t.UUIDs) > i {
		return t.UUIDs[i]
	}
	return t.UUID
}

func (t *Turn) droppedWhole(uuid string) bool {
	for _, d := range t.Dropped {
		if d.UUID == uuid && d.Block < 0 {
			return true
		}
	}
	return false
}

// ResumesEmpty reports whether Claude Code resumes an empty conversation:
// the last last-prompt line has leafUuid null and explicit true, and no
// transcript record is written after it.
func (f *File) ResumesEmpty() bool {
	if !f.recorded.cleared || f.recorded.line <= 0 {
		return false
	}
	for li := len(f.lines) - 1; li >= f.recorded.line; li-- {
		lr := &f.lines[li]
		if lr.kind == jsonl.Object && lr.uuid >= 0 && f.isGraphType(lr.typ) {
			return false
		}
	}
	return true
}

// dropSentBlocks removes the content blocks Claude Code does not send from
// a one-line turn (SentOnly).
func (t *Turn) dropSentBlocks() {
	if len(t.Dropped) == 0 {
		return
	}
	skip := map[int]bool{}
	for _, d := range t.Dropped {
		if d.Block >= 0 {
			skip[d.Block] = true
		}
	}
	var c []json.RawMessage
	var b []Block
	for i := range t.Content {
		if skip[i] {
			continue
		}
		c = append(c, t.Content[i])
		if i < len(t.Blocks) {
			b = append(b, t.Blocks[i])
		}
	}
	t.Content, t.Blocks, t.Dropped = c, b, nil
}
