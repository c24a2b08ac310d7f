package claude

// Turns: the decoded messages of a path.

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/sessctl/sessctl/internal/model"
	"github.com/valyala/fastjson"
)

// Turn is one message of the conversation: one line, or several assistant
// lines of the same message.id merged.
type Turn struct {
	UUID              string            `json:"uuid"`
	UUIDs             []string          `json:"uuids,omitempty"` // all merged lines when more than one
	Type              string            `json:"type"`
	Subtype           string            `json:"subtype,omitempty"`
	Role              string            `json:"role,omitempty"`
	Timestamp         string            `json:"timestamp,omitempty"`
	Content           []json.RawMessage `json:"content"`
	Model             string            `json:"model,omitempty"`
	Usage             json.RawMessage   `json:"usage,omitempty"`
	MessageID         string            `json:"messageId,omitempty"`
	IsMeta            bool              `json:"isMeta,omitempty"`
	IsCompactSummary  bool              `json:"isCompactSummary,omitempty"`
	IsSidechain       bool              `json:"isSidechain,omitempty"`
	IsAPIError        bool              `json:"isApiError,omitempty"`
	LogicalParentUUID string            `json:"logicalParentUuid,omitempty"`
	CompactMetadata   json.RawMessage   `json:"compactMetadata,omitempty"`
	Rescued           bool              `json:"rescued,omitempty"`
	// Sent is true when Claude Code sends the turn (or part of it) to the
	// model; NotSent says why not, Dropped lists each line or content block
	// left out (see the NotSent* reasons).
	Sent          bool   `json:"sent"`
	NotSent       string `json:"notSent,omitempty"`
	Dropped       []Drop `json:"dropped,omitempty"`
	PreCompaction bool   `json:"preCompaction,omitempty"`
	Lines         []int  `json:"lines"`
	// Blocks is the decoded view of Content, for human output.
	Blocks []Block `json:"-"`
	// reenc are the placeholders of Content that stand for a string
	// content (see File.writeExpanded).
	reenc []string
}

// Block is a decoded content block.
type Block struct {
	Type      string // text, thinking, redacted_thinking, tool_use, tool_result, image, ...
	Text      string // text, thinking, or the text of a tool_result
	Name      string // tool_use name
	ID        string // tool_use id
	ToolUseID string // tool_result tool_use_id
	Input     string // tool_use input as compact JSON
	IsError   bool
	MIME      string // image media type
	Size      int64  // decoded image size estimate, -1 when unknown
	// Data, for an image whose source is base64, is where that base64
	// string is in the file (imageRefs), for a view that embeds the image;
	// never the bytes.
	Data *model.TextRef
	// Images are a tool_result's image blocks (Type "image"), in order.
	Images []Block
	// Long, when not nil, is where Text is (Text is then empty): a text
	// of a line too long to hold, decoded from the file where it is used.
	Long *model.TextRef
}

// EachTurn decodes the path's lines one by one and calls fn for each turn,
// merging consecutive assistant lines of one message.id (tool results
// between them move after the merged turn). Only one turn is held at a time.
func (f *File) EachTurn(p *Path, fn func(*Turn) error) error {
	var parser fastjson.Parser
	var cur *Turn
	var held []*Turn
	f.sendPlan(p)
	flush := func() error {
		if cur != nil {
			if err := fn(cur); err != nil {
				return err
			}
			cur = nil
		}
		for _, h := range held {
			if err := fn(h); err != nil {
				return err
			}
		}
		held = held[:0]
		return nil
	}
	for _, nd := range p.nodes {
		li := f.nLast[nd]
		t, err := f.decodeTurn(&parser, li, !p.NoText, p.ids)
		if err != nil {
			return err
		}
		t.Rescued = p.rescued[nd]
		t.PreCompaction = p.pre[nd]
		p.markSend(t, nd)
		if p.SentOnly {
			if !t.Sent {
				continue
			}
			t.dropSentBlocks()
		}
		if cur != nil && t.Type == TypeAssistant && t.MessageID != "" && t.MessageID == cur.MessageID {
			cur.merge(t)
			continue
		}
		if cur != nil && t.Type == TypeUser && onlyToolResults(t) {
			held = append(held, t)
			continue
		}
		if err := flush(); err != nil {
			return err
		}
		if t.Type == TypeAssistant && t.MessageID != "" {
			cur = t
			continue
		}
		if err := fn(t); err != nil {
			return err
		}
	}
	return flush()
}

func onlyToolResults(t *Turn) bool {
	if len(t.Blocks) == 0 {
		return false
	}
	for _, b := range t.Blocks {
		if b.Type != "tool_result" {
			return false
		}
	}
	return true
}

func (t *Turn) merge(o *Turn) {
	if len(t.UUIDs) == 0 {
		t.UUIDs = []string{t.UUID}
	}
	t.UUIDs = append(t.UUIDs, o.UUID)
	t.Content = append(t.Content, o.Content...)
	t.Blocks = append(t.Blocks, o.Blocks...)
	t.Lines = append(t.Lines, o.Lines...)
	t.reenc = append(t.reenc, o.reenc...)
	if len(o.Usage) > 0 {
		t.Usage = o.Usage // later blocks carry the final usage
	}
	if t.Model == "" {
		t.Model = o.Model
	}
	t.IsAPIError = t.IsAPIError || o.IsAPIError
	t.Rescued = t.Rescued && o.Rescued
	t.mergeSend(o)
}

// Chain returns the conversation for leaf ("" = the last-prompt leaf) as
// turns, with the walk's warnings.
func (f *File) Chain(leaf string, acrossCompactions bool) ([]Turn, []Problem, error) {
	p, err := f.Walk(leaf, acrossCompactions)
	if err != nil {
		return nil, nil, err
	}
	var out []Turn
	err = f.EachTurn(p, func(t *Turn) error {
		for i := range t.Blocks {
			// Chain's turns hold their texts.
			if b := &t.Blocks[i]; b.Long != nil {
				s, err := f.holdLong(b.Long)
				if err != nil {
					return err
				}
				b.Text, b.Long = s, nil
			}
		}
		// and their JSON (a long line's holds placeholders)
		for _, raw := range append([]*json.RawMessage{&t.Usage, &t.CompactMetadata}, ptrs(t.Content)...) {
			if jsonl.HoldsBytes(*raw) {
				var b bytes.Buffer
				if err := f.writeExpanded(&b, *raw, t); err != nil {
					return err
				}
				*raw = b.Bytes()
			}
		}
		out = append(out, *t)
		return nil
	})
	return out, p.Warnings, err
}

func ptrs(c []json.RawMessage) []*json.RawMessage {
	out := make([]*json.RawMessage, len(c))
	for i := range c {
		out[i] = &c[i]
	}
	return out
}

func rawJSON(v *fastjson.Value) json.RawMessage {
	if v == nil {
		return nil
	}
	return json.RawMessage(v.MarshalTo(nil))
}

func textBlock(s string) json.RawMessage {
	b, _ := json.Marshal(map[string]string{"type": "text", "text": s})
	return b
}

// decodeTurn reads and decodes line li. A line longer than
// jsonl.LongLine is decoded from its elided copy (see longline.go), or
// whole when its long strings are not all where a reference can stand.
// Without text, ids fills the blocks' ID and ToolUseID.
func (f *File) decodeTurn(p *fastjson.Parser, li int32, text, ids bool) (*Turn, error) {
	v, raw, long, err := f.parseLong(p, li)
	if err == nil && long {
		if t := f.decodeTurnFrom(v, raw, li, text, ids, true); f.settleLong(t, text) {
			return t, nil
		}
		v, raw, err = f.parseLine(p, li)
	}
	if err != nil {
		return nil, fmt.Errorf("line %d: %w", f.lines[li].ln, err)
	}
	return f.decodeTurnFrom(v, raw, li, text, ids, false), nil
}

// decodeTurnFrom decodes line li parsed as v (raw: the line, or its
// elided copy when long).
func (f *File) decodeTurnFrom(v *fastjson.Value, raw []byte, li int32, text, ids, long bool) *Turn {
	lr := f.lines[li]
	t := &Turn{
		UUID:        f.ids.str(lr.uuid),
		Type:        f.names[lr.typ],
		Subtype:     f.names[lr.sub],
		Timestamp:   string(strBytes(v, "timestamp")),
		Lines:       []int{int(lr.ln)},
		IsMeta:      lr.flags&fMeta != 0,
		IsSidechain: lr.flags&fSidechain != 0,
		IsAPIError:  lr.flags&fAPIError != 0,
	}
	t.IsCompactSummary = lr.flags&fCompactSummary != 0
	msg := v.Get("message")
	switch t.Type {
	case TypeUser, TypeAssistant:
		if msg != nil {
			t.Role = string(strBytes(msg, "role"))
			t.Model = string(strBytes(msg, "model"))
			if t.Type == TypeAssistant {
				t.MessageID = string(strBytes(msg, "id"))
				if u := msg.Get("usage"); u != nil {
					t.Usage = rawJSON(u)
				}
			}
			c := msg.Get("content")
			switch {
			case c == nil:
			case c.Type() == fastjson.TypeString:
				s, _ := c.StringBytes()
				t.Content = []json.RawMessage{textBlock(string(s))}
				t.reencoded(s)
				t.Blocks = []Block{{Type: "text"}}
				if text {
					t.Blocks[0].Text = string(s)
				}
			case c.Type() == fastjson.TypeArray:
				for _, b := range c.GetArray() {
					t.Content = append(t.Content, rawJSON(b))
					if text {
						t.Blocks = append(t.Blocks, decodeBlock(b))
					} else {
						bl := Block{Type: string(strBytes(b, "type"))}
						if ids {
							bl.ID, bl.ToolUseID = string(strBytes(b, "id")), string(strBytes(b, "tool_use_id"))
						}
						t.Blocks = append(t.Blocks, bl)
					}
				}
				if text && !long {
					f.imageRefs(t.Blocks, raw, f.lines[li].off)
				}
			default:
				t.Content = []json.RawMessage{rawJSON(c)}
				t.Blocks = []Block{{Type: "unknown", Text: string(c.MarshalTo(nil))}}
			}
		}
		if t.Role == "" {
			t.Role = t.Type
		}
	case TypeSystem:
		t.Role = "system"
		if c := v.Get("content"); c != nil && c.Type() == fastjson.TypeString {
			s, _ := c.StringBytes()
			t.Content = []json.RawMessage{textBlock(string(s))}
			t.reencoded(s)
			t.Blocks = []Block{{Type: "text", Text: string(s)}}
		}
		if t.Subtype == SubtypeCompactBoundary {
			t.LogicalParentUUID = string(strBytes(v, "logicalParentUuid"))
			t.CompactMetadata = rawJSON(v.Get("compactMetadata"))
		}
		if t.Subtype == "api_error" {
			if e := v.Get("error"); e != nil {
				s := compactJSON(e)
				t.Blocks = append(t.Blocks, Block{Type: "text", Text: s})
			}
		}
	case TypeAttachment:
		a := v.Get("attachment")
		if a != nil {
			t.Subtype = string(strBytes(a, "type"))
			t.Content = []json.RawMessage{rawJSONWrap("attachment", a)}
			t.Blocks = []Block{{Type: "attachment", Name: t.Subtype}}
		}
	}
	if t.Content == nil {
		t.Content = []json.RawMessage{}
	}
	return t
}

func rawJSONWrap(kind string, v *fastjson.Value) json.RawMessage {
	b := []byte(`{"type":"` + kind + `","` + kind + `":`)
	b = v.MarshalTo(b)
	b = append(b, '}')
	return b
}

func compactJSON(v *fastjson.Value) string {
	if v.Type() == fastjson.TypeString {
		s, _ := v.StringBytes()
		return string(s)
	}
	return string(v.MarshalTo(nil))
}

// decodeImage decodes an image block: its media type and size.
func decodeImage(b *fastjson.Value) Block {
	out := Block{Type: "image", Size: -1}
	out.MIME = string(strBytes(b, "source", "media_type"))
	if d := strBytes(b, "source", "data"); d != nil {
		out.Size = int64(len(d)) * 3 / 4
	}
	return out
}

// imageRefs sets Data on the image blocks of bs (the blocks of a content
// array, in order, and their tool results' images) whose source is base64:
// where the base64 string is in the file. raw is the line (at offset off)
// the blocks were decoded from; a string is located in it by walking the
// raw JSON (the k-th element of message.content is the k-th block), and
// kept only when its length is the parsed block's (a line whose duplicate
// members make the walk and the parser disagree is left without). Nothing
// is copied.
func (f *File) imageRefs(bs []Block, raw []byte, off int64) {
	want := false
	for i := range bs {
		want = want || bs[i].Type == "image" || len(bs[i].Images) > 0
	}
	if !want {
		return
	}
	body := raw
	if bytes.HasPrefix(body, jsonl.BOM) {
		body = body[len(jsonl.BOM):]
	}
	msg, _ := jsonl.Field(body, "message")
	content, _ := jsonl.Field(msg, "content")
	k := 0
	jsonl.Elements(content, func(el []byte) bool {
		if k >= len(bs) {
			return false
		}
		b := &bs[k]
		k++
		switch {
		case b.Type == "image":
			b.Data = imageData(el, raw, off, f.Path, b.Size)
		case len(b.Images) > 0:
			inner, _ := jsonl.Field(el, "content")
			n := 0
			jsonl.Elements(inner, func(x []byte) bool {
				if t, _ := jsonl.Field(x, "type"); string(t) == `"image"` && n < len(b.Images) {
					b.Images[n].Data = imageData(x, raw, off, f.Path, b.Images[n].Size)
					n++
				}
				return true
			})
		}
		return true
	})
}

// imageData locates the base64 data of the image block el (a slice of
// raw, the line at offset off of the file path): source.type "base64" and
// source.data a string whose decoded length gives size; nil otherwise.
func imageData(el, raw []byte, off int64, path string, size int64) *model.TextRef {
	src, _ := jsonl.Field(el, "source")
	if t, _ := jsonl.Field(src, "type"); string(t) != `"base64"` {
		return nil
	}
	d, ok := jsonl.Field(src, "data")
	if !ok || len(d) < 2 || d[0] != '"' {
		return nil
	}
	// d is a slice of raw: its place in the line is where its capacity
	// ends short of raw's.
	at := int64(cap(raw) - cap(d))
	if at < 0 || at+int64(len(d)) > int64(len(raw)) || &raw[at] != &d[0] {
		return nil
	}
	verbatim := bytes.IndexByte(d, '\\') < 0
	n := len(d) - 2
	if !verbatim {
		s, ok := jsonl.String(d)
		if !ok {
			return nil
		}
		n = len(s)
	}
	if int64(n)*3/4 != size {
		return nil
	}
	return &model.TextRef{Path: path, Off: off + at, Len: int64(len(d)), Verbatim: verbatim}
}

func decodeBlock(b *fastjson.Value) Block {
	out := Block{Type: string(strBytes(b, "type")), Size: -1}
	switch out.Type {
	case "image":
		out = decodeImage(b)
	case "text":
		out.Text = string(strBytes(b, "text"))
	case "thinking":
		out.Text = string(strBytes(b, "thinking"))
	case "tool_use", "server_tool_use":
		out.Name = string(strBytes(b, "name"))
		out.ID = string(strBytes(b, "id"))
		if in := b.Get("input"); in != nil {
			out.Input = string(in.MarshalTo(nil))
		}
	case "tool_result":
		out.ToolUseID = string(strBytes(b, "tool_use_id"))
		out.IsError = boolField(b, "is_error")
		c := b.Get("content")
		switch {
		case c == nil:
		case c.Type() == fastjson.TypeString:
			s, _ := c.StringBytes()
			out.Text = string(s)
		case c.Type() == fastjson.TypeArray:
			for _, x := range c.GetArray() {
				switch string(strBytes(x, "type")) {
				case "text":
					if out.Text != "" {
						out.Text += "\n"
					}
					out.Text += string(strBytes(x, "text"))
				case "image":
					out.Text += "[image]"
					out.Images = append(out.Images, decodeImage(x))
				}
			}
		}
	}
	return out
}
