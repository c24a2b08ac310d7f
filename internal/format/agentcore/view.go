package agentcore

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/sessctl/sessctl/internal/model"
)

// entryBody holds every field the views read.
type entryBody struct {
	Content    json.RawMessage `json:"content"`
	Thinking   json.RawMessage `json:"thinking"`
	ToolCalls  []toolCall      `json:"toolCalls"`
	Name       string          `json:"name"`
	Params     json.RawMessage `json:"params"`
	ToolCallID string          `json:"toolCallId"`
	Output     json.RawMessage `json:"output"`
	Success    *bool           `json:"success"`
	Model      string          `json:"model"`
}

type toolCall struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Params    json.RawMessage `json:"params"`
	Input     json.RawMessage `json:"input"`
	Function  *struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function"`
}

func (c toolCall) name() string {
	if c.Name == "" && c.Function != nil {
		return c.Function.Name
	}
	return c.Name
}

func (c toolCall) args() string {
	for _, a := range []json.RawMessage{c.Arguments, c.Params, c.Input} {
		if len(a) > 0 {
			return compact(a)
		}
	}
	if c.Function != nil {
		return compact(c.Function.Arguments)
	}
	return ""
}

func compact(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

// text renders content that is a string, an array of {type,text} blocks, or
// anything else (as compact JSON).
func text(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if raw[0] == '"' && json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if raw[0] == '[' && json.Unmarshal(raw, &blocks) == nil {
		var parts []string
		for _, b := range blocks {
			if b.Text != "" {
				parts = append(parts, b.Text)
			}
		}
		if len(parts) > 0 {
			return strings.Join(parts, "\n")
		}
	}
	return compact(raw)
}

// rest renders an entry without its id, parentId, type and timestamp.
func rest(raw []byte) string {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return compact(raw)
	}
	for _, k := range []string{"id", "parentId", "type", "timestamp"} {
		delete(m, k)
	}
	b, err := json.Marshal(m)
	if err != nil {
		return compact(raw)
	}
	return string(b)
}

// message maps one entry to a drawable message.
func message(e Entry, raw []byte) model.Message {
	m := model.Message{ID: e.ID, Role: e.Type, Time: e.Timestamp}
	var b entryBody
	if err := json.Unmarshal(raw, &b); err != nil {
		m.Notes = append(m.Notes, "undecodable entry: "+err.Error())
		return m
	}
	m.Model = b.Model
	switch e.Type {
	case TypeUser, TypeSystem:
		m.Blocks = append(m.Blocks, model.Block{Kind: "text", Text: text(b.Content)})
	case TypeAssistant:
		if t := text(b.Thinking); t != "" {
			m.Blocks = append(m.Blocks, model.Block{Kind: "thinking", Text: t})
		}
		if t := text(b.Content); t != "" {
			m.Blocks = append(m.Blocks, model.Block{Kind: "text", Text: t})
		}
		for _, c := range b.ToolCalls {
			m.Blocks = append(m.Blocks, model.Block{Kind: "toolCall", Name: c.name(), ID: c.ID, Args: c.args()})
		}
	case TypeTool:
		m.Blocks = append(m.Blocks, model.Block{Kind: "toolCall", Name: b.Name, ID: b.ToolCallID, Args: compact(b.Params)})
		m.Notes = append(m.Notes, "tool entry (not sent to the model)")
	case TypeToolResult:
		blk := model.Block{Kind: "toolResult", ID: b.ToolCallID, Text: text(b.Output)}
		if b.Success != nil && !*b.Success {
			blk.IsError = true
		}
		m.Role = "tool"
		m.Blocks = append(m.Blocks, blk)
	default:
		m.Blocks = append(m.Blocks, model.Block{Kind: "other", Text: rest(raw)})
		m.Notes = append(m.Notes, "not in context")
	}
	if e.Type == TypeSystem {
		m.Notes = append(m.Notes, "not in context")
	}
	return m
}

// Transcript builds what show prints: every entry on the root→leaf path
// (leaf -1 = the default leaf), the ones outside the context noted.
func (s *Session) Transcript(leaf int) (*model.Transcript, error) {
	if leaf < 0 {
		leaf = s.DefaultLeaf()
	}
	t := &model.Transcript{Title: s.ID}
	t.Header = append(t.Header, fmt.Sprintf("Agent Core session %s, %d entries, %d leaves", s.ID, len(s.Entries), len(s.Leaves())))
	if leaf < 0 {
		t.Warnings = append(t.Warnings, "no entries")
		return t, nil
	}
	t.Header = append(t.Header, "leaf "+s.Entries[leaf].ID+" (line "+fmt.Sprint(s.Entries[leaf].Line)+")")
	f, err := os.Open(s.Path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	for _, i := range s.PathTo(leaf) {
		raw, err := s.rawAt(f, i)
		if err != nil {
			return nil, err
		}
		t.Messages = append(t.Messages, message(s.Entries[i], raw))
	}
	for _, p := range s.Problems {
		t.Warnings = append(t.Warnings, p.String())
	}
	return t, nil
}

// Tree builds what tree prints, with leaf (-1 = the default leaf) active.
// Node texts are filled for every entry (one line each).
func (s *Session) Tree(leaf int) (*model.Tree, error) {
	x := s.Index
	if leaf < 0 {
		leaf = s.DefaultLeaf()
	}
	t := &model.Tree{Nodes: make([]model.TreeNode, len(s.Entries)), Leaf: leaf, Active: make([]bool, len(s.Entries))}
	f, err := os.Open(s.Path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	drawRoot := make([]bool, len(s.Entries))
	for i, e := range s.Entries {
		n := model.TreeNode{ID: e.ID, ParentID: e.ParentID, HasParent: e.ParentID != "", Type: e.Type, Line: e.Line, Time: e.Timestamp}
		if x.Shadowed(i) {
			n.Marks = append(n.Marks, "duplicate id, shadowed")
		}
		for _, c := range x.Children(i) {
			n.Children = append(n.Children, int(c))
		}
		if raw, err := s.rawAt(f, i); err == nil {
			m := message(e, raw)
			n.Role = m.Role
			for _, b := range m.Blocks {
				switch {
				case b.Kind == "toolCall":
					n.Text = strings.TrimSpace(n.Text + " " + b.Name + "(" + b.Args + ")")
				case b.Kind != "thinking" && n.Text == "":
					n.Text = b.Text
				}
			}
			if k := strings.IndexByte(n.Text, '\n'); k >= 0 {
				n.Text = n.Text[:k]
			}
		}
		t.Nodes[i] = n
	}
	for _, r := range x.Roots() {
		drawRoot[r] = true
	}
	for _, o := range x.Orphans() {
		drawRoot[o] = true
		t.Nodes[o].Marks = append(t.Nodes[o].Marks, "orphan: parent "+t.Nodes[o].ParentID+" missing")
	}
	for _, sp := range x.SelfParents() {
		drawRoot[sp] = true
		t.Nodes[sp].Marks = append(t.Nodes[sp].Marks, "own parent")
	}
	for _, c := range x.Cycles() {
		drawRoot[c[0]] = true
		for _, n := range c {
			t.Nodes[n].Marks = append(t.Nodes[n].Marks, "in a parent cycle")
		}
	}
	for i := range drawRoot {
		if drawRoot[i] {
			t.Roots = append(t.Roots, i)
		}
	}
	t.Orphans, t.Cycles, t.Duplicates = x.Orphans(), x.Cycles(), x.Duplicates()
	if leaf >= 0 {
		for _, p := range s.PathTo(leaf) {
			t.Active[p] = true
		}
	}
	return t, nil
}
