package pi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/sessctl/sessctl/internal/model"
	"github.com/sessctl/sessctl/internal/tree"
)

// content block as stored in pi messages.
type block struct {
	Type      string `json:"type"`
	Text      string `json:"text"`
	Thinking  string `json:"thinking"`
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments rawRef `json:"arguments"`
	Data      string `json:"data"`
	MimeType  string `json:"mimeType"`
}

type message struct {
	Role         string          `json:"role"`
	Content      rawRef          `json:"content"`
	Timestamp    json.RawMessage `json:"timestamp"`
	Provider     string          `json:"provider"`
	Model        string          `json:"model"`
	ToolName     string          `json:"toolName"`
	ToolCallID   string          `json:"toolCallId"`
	IsError      bool            `json:"isError"`
	StopReason   string          `json:"stopReason"`
	ErrorMessage string          `json:"errorMessage"`
	Command      string          `json:"command"`
	Output       string          `json:"output"`
	ExitCode     *int            `json:"exitCode"`
	Excluded     bool            `json:"excludeFromContext"`
	CustomType   string          `json:"customType"`
	Display      *bool           `json:"display"`
	Summary      rawRef          `json:"summary"`
	TokensBefore *int64          `json:"tokensBefore"`
	FromID       string          `json:"fromId"`
	ShortSummary string          `json:"shortSummary"`
	Code         string          `json:"code"`      // oh-my-pi pythonExecution
	Cancelled    bool            `json:"cancelled"` // oh-my-pi pythonExecution
	Files        []struct {      // oh-my-pi fileMention
		Path string `json:"path"`
	} `json:"files"`
}

// rawRef is a raw JSON value that, unlike json.RawMessage, is not copied:
// it points into the bytes being decoded and is valid as long as they are
// (toModel copies what it keeps). A message of hundreds of megabytes is then
// not copied once more before its text is decoded.
type rawRef []byte

// UnmarshalJSON keeps b (a slice of the input) as the value.
func (r *rawRef) UnmarshalJSON(b []byte) error { *r = b; return nil }

// Transcript turns a rebuilt context into a transcript for people.
func (f *File) Transcript(ctx *Context) *model.Transcript {
	tr := &model.Transcript{Warnings: ctx.Warnings, Header: f.TranscriptHeader(ctx)}
	if len(tr.Header) > 0 {
		tr.Title = f.Name
	}
	for i, raw := range ctx.Messages {
		tr.Messages = append(tr.Messages, f.Message(ctx, raw, ctx.Sources[i]))
	}
	return tr
}

// TranscriptHeader describes the session and the leaf for people.
func (f *File) TranscriptHeader(ctx *Context) []string { return f.HeaderLines(ctx, f.Name) }

// HeaderLines is TranscriptHeader with the given title ("(untitled)" when
// empty); the model is written as provider/id (modelText), not as JSON.
func (f *File) HeaderLines(ctx *Context, title string) []string {
	var h []string
	if f.Header != nil {
		if title == "" {
			title = "(untitled)"
		}
		h = append(h, fmt.Sprintf("%s session %s · %s", f.Dialect, f.Header.ID, title))
		if f.Header.Cwd != "" {
			h = append(h, "project "+f.Header.Cwd)
		}
	}
	if ctx.Leaf != tree.None {
		h = append(h, fmt.Sprintf("leaf %s (line %d) · %d entries on the path",
			f.DisplayID(ctx.Leaf), f.Line(ctx.Leaf), len(ctx.Path)))
	}
	if f.Dialect == DialectOmp || f.Dialect == DialectXcsh {
		return append(h, ompHeaderLines(ctx)...)
	}
	for _, fld := range ctx.Fields {
		if fld.Value != nil && fld.Key != "model" && fld.Key != "models" {
			continue
		}
		if t := modelText(fld.Value); fld.Value != nil && t != "" {
			h = append(h, fld.Key+" "+t)
		}
	}
	return h
}

// Message turns one context message made from entry src into its view.
func (f *File) Message(ctx *Context, raw json.RawMessage, src int) model.Message {
	msg := toModel(raw)
	if src >= 0 {
		msg.ID = f.DisplayID(src)
	}
	if ctx.Compaction != tree.None && src == ctx.Compaction && msg.Role == "compactionSummary" {
		msg.Marker = "compaction summary"
	}
	return msg
}

func toModel(raw json.RawMessage) model.Message {
	var m message
	if err := json.Unmarshal(raw, &m); err != nil {
		return model.Message{Role: "(unreadable)", Blocks: []model.Block{{Kind: "other", Name: "raw", Text: string(raw)}}}
	}
	out := model.Message{Role: m.Role}
	if ms, ok := jsTimeMs(m.Timestamp); ok && m.Timestamp != nil {
		out.Time = time.UnixMilli(ms)
	}
	if m.Provider != "" || m.Model != "" {
		out.Model = strings.Trim(m.Provider+"/"+m.Model, "/")
	}
	switch m.Role {
	case "compactionSummary":
		out.Marker = "compaction summary"
		if m.TokensBefore != nil {
			out.Notes = append(out.Notes, fmt.Sprintf("%d tokens before compaction", *m.TokensBefore))
		}
		out.Blocks = append(out.Blocks, model.Block{Kind: "text", Text: rawText(json.RawMessage(m.Summary))})
		return out
	case "branchSummary":
		out.Marker = "branch summary"
		if m.FromID != "" {
			out.Notes = append(out.Notes, "from "+m.FromID)
		}
		out.Blocks = append(out.Blocks, model.Block{Kind: "text", Text: rawText(json.RawMessage(m.Summary))})
		return out
	case "custom", "hookMessage":
		out.Marker = "custom: " + m.CustomType
		if m.Display != nil && !*m.Display {
			out.Notes = append(out.Notes, "not displayed in the agent's UI")
		}
	case "bashExecution":
		out.Marker = "bash"
		if m.Excluded {
			out.Notes = append(out.Notes, "excluded from the model's context")
		}
		code := "?"
		if m.ExitCode != nil {
			code = fmt.Sprint(*m.ExitCode)
		}
		out.Blocks = append(out.Blocks, model.Block{Kind: "toolCall", Name: "bash", Args: m.Command},
			model.Block{Kind: "toolResult", Name: "exit " + code, Text: m.Output})
		return out
	case "pythonExecution": // oh-my-pi
		out.Marker = "python"
		if m.Excluded {
			out.Notes = append(out.Notes, "excluded from the model's context")
		}
		if m.Cancelled {
			out.Notes = append(out.Notes, "cancelled")
		}
		code := "?"
		if m.ExitCode != nil {
			code = fmt.Sprint(*m.ExitCode)
		}
		out.Blocks = append(out.Blocks, model.Block{Kind: "toolCall", Name: "python", Args: m.Code},
			model.Block{Kind: "toolResult", Name: "exit " + code, Text: m.Output})
		return out
	case "fileMention": // oh-my-pi: contents of @-mentioned files
		out.Marker = "file mention"
		paths := make([]string, len(m.Files))
		for i, f := range m.Files {
			paths[i] = f.Path
		}
		out.Blocks = append(out.Blocks, model.Block{Kind: "text", Text: strings.Join(paths, "\n")})
		return out
	case "toolResult":
		out.Marker = ""
		bl := model.Block{Kind: "toolResult", Name: m.ToolName, ID: m.ToolCallID, IsError: m.IsError}
		var texts []string
		for _, b := range contentBlocks(json.RawMessage(m.Content)) {
			if b.Kind == "text" {
				texts = append(texts, b.Text)
			}
		}
		bl.Text = strings.Join(texts, "\n")
		out.Blocks = append(out.Blocks, bl)
		for _, b := range contentBlocks(json.RawMessage(m.Content)) {
			if b.Kind != "text" {
				out.Blocks = append(out.Blocks, b)
			}
		}
		return out
	}
	if m.StopReason != "" && m.StopReason != "stop" && m.StopReason != "toolUse" {
		out.Notes = append(out.Notes, "stop reason: "+m.StopReason)
	}
	if m.ErrorMessage != "" {
		out.Notes = append(out.Notes, "error: "+m.ErrorMessage)
	}
	out.Blocks = append(out.Blocks, contentBlocks(json.RawMessage(m.Content))...)
	return out
}

func rawText(raw json.RawMessage) string {
	if s, ok := jsonl.String(raw); ok {
		return s
	}
	return string(raw)
}

// contentBlocks decodes a content value (a string or an array of blocks).
func contentBlocks(raw json.RawMessage) []model.Block {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	if s, ok := jsonl.String(raw); ok {
		return []model.Block{{Kind: "text", Text: s}}
	}
	var bs []block
	if err := json.Unmarshal(raw, &bs); err != nil {
		return []model.Block{{Kind: "other", Name: "content", Text: string(raw)}}
	}
	out := make([]model.Block, 0, len(bs))
	for _, b := range bs {
		switch b.Type {
		case "text":
			out = append(out, model.Block{Kind: "text", Text: b.Text})
		case "thinking":
			out = append(out, model.Block{Kind: "thinking", Text: b.Thinking})
		case "toolCall":
			out = append(out, model.Block{Kind: "toolCall", Name: b.Name, ID: b.ID, Args: compactJSON(json.RawMessage(b.Arguments))})
		case "image":
			out = append(out, ImageBlock(b.Data, b.MimeType))
		default:
			out = append(out, model.Block{Kind: "other", Name: b.Type})
		}
	}
	return out
}

// ImageBlock describes an image from its base64 data or blob reference.
func ImageBlock(data, mime string) model.Block {
	b := model.Block{Kind: "image", MIME: mime, Size: -1}
	if strings.HasPrefix(data, "blob:sha256:") {
		b.Ref = data
		return b
	}
	b.Size = base64Len(data)
	return b
}

func base64Len(s string) int64 {
	n := int64(len(strings.TrimRight(s, "=")))
	return n * 3 / 4
}

func compactJSON(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return string(raw)
	}
	return b.String()
}
