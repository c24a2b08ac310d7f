package pi

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/sessctl/sessctl/internal/model"
	"github.com/sessctl/sessctl/internal/tree"
)

// TreeModel builds the tree view of the file with leaf as the active leaf
// (tree.None = the default leaf). Texts are not filled: call FillText for
// the nodes that will be drawn.
func (f *File) TreeModel(leaf int) *model.Tree {
	x := f.Index
	if leaf == tree.None {
		leaf = x.Last()
	}
	t := &model.Tree{Nodes: make([]model.TreeNode, x.Len()), Leaf: leaf, Active: make([]bool, x.Len())}
	for i := range x.Nodes {
		n := &x.Nodes[i]
		e := &f.Entries[i]
		tn := model.TreeNode{ID: displayID(n.ID), HasParent: n.HasParent, Type: e.Type(), Role: e.Role(), Line: int(e.Line)}
		if n.HasParent {
			tn.ParentID = displayID(n.Parent)
		}
		if e.Type() == "" {
			tn.Type = "(no type)"
		}
		if !x.Shadowed(i) {
			tn.Label = f.Labels[n.ID]
		} else {
			tn.Marks = append(tn.Marks, "duplicate id, shadowed")
		}
		switch e.Type() {
		case "compaction":
			tn.Marks = append(tn.Marks, "compaction")
		case "branch_summary":
			tn.Marks = append(tn.Marks, "branch summary")
		}
		kids := x.Children(i)
		tn.Children = make([]int, len(kids))
		for k, c := range kids {
			tn.Children[k] = int(c)
		}
		t.Nodes[i] = tn
	}
	drawRoot := make([]bool, x.Len())
	for _, r := range x.Roots() {
		drawRoot[r] = true
	}
	for _, o := range x.Orphans() {
		drawRoot[o] = true
		t.Nodes[o].Marks = append(t.Nodes[o].Marks, "orphan: parent "+t.Nodes[o].ParentID+" missing")
	}
	t.Orphans = x.Orphans()
	for _, s := range x.SelfParents() {
		drawRoot[s] = true
		t.Nodes[s].Marks = append(t.Nodes[s].Marks, "own parent")
	}
	for _, c := range x.Cycles() {
		drawRoot[c[0]] = true
		for _, n := range c {
			t.Nodes[n].Marks = append(t.Nodes[n].Marks, "in a parent cycle")
		}
	}
	t.Cycles = x.Cycles()
	for i := range drawRoot {
		if drawRoot[i] {
			t.Roots = append(t.Roots, i)
		}
	}
	for _, d := range x.Duplicates() {
		if d != noIDKey {
			t.Duplicates = append(t.Duplicates, displayID(d))
		}
	}
	if leaf != tree.None {
		path, _ := x.Path(leaf)
		for _, p := range path {
			t.Active[p] = true
		}
	}
	return t
}

// FillText reads the lines of the given nodes and sets their text and time.
func (f *File) FillText(t *model.Tree, nodes []int) error {
	sorted := append([]int(nil), nodes...)
	sort.Slice(sorted, func(a, b int) bool { return f.Entries[sorted[a]].Offset < f.Entries[sorted[b]].Offset })
	fh, err := os.Open(f.Path)
	if err != nil {
		return err
	}
	defer fh.Close()
	for _, i := range sorted {
		e := f.Entries[i]
		line, err := jsonl.ReadLineAt(fh, e.Offset, e.Len)
		if err != nil {
			return err
		}
		text, ts := summarize(line, e.Type())
		t.Nodes[i].Text = text
		if ms, ok := jsTimeMs(ts); ok && ts != nil && ts[0] == '"' {
			t.Nodes[i].Time = time.UnixMilli(ms)
		}
	}
	return nil
}

// summarize returns a one-line description of an entry and its raw timestamp.
func summarize(line []byte, typ string) (string, []byte) {
	trim := strings.TrimLeft(string(line), " \t\ufeff")
	if !strings.HasPrefix(trim, "{") {
		return strings.TrimSpace(trim), nil
	}
	get := func(k string) []byte { v, _ := jsonl.Field(line, k); return v }
	s := func(raw []byte) string { v, _ := jsonl.String(raw); return v }
	ts := get("timestamp")
	switch typ {
	case "message":
		m := get("message")
		role := s(sub(m, "role"))
		switch role {
		case "toolResult":
			return strings.TrimSpace(s(sub(m, "toolName")) + ": " + firstText(sub(m, "content"))), ts
		case "bashExecution":
			return "$ " + s(sub(m, "command")), ts
		case "custom", "hookMessage":
			return s(sub(m, "customType")) + ": " + firstText(sub(m, "content")), ts
		}
		t := firstText(sub(m, "content"))
		if t == "" {
			t = firstToolCall(sub(m, "content"))
		}
		return t, ts
	case "custom_message":
		return s(get("customType")) + ": " + firstText(get("content")), ts
	case "branch_summary", "compaction":
		return firstLine(s(get("summary"))), ts
	case "model_change":
		if m := s(get("model")); m != "" {
			if r := s(get("role")); r != "" {
				return r + " → " + m, ts
			}
			return m, ts
		}
		return strings.Trim(s(get("provider"))+"/"+s(get("modelId")), "/"), ts
	case "thinking_level_change":
		return s(get("thinkingLevel")), ts
	case "label":
		l := s(get("label"))
		if l == "" {
			l = "(cleared)"
		}
		return fmt.Sprintf("%s → %s", l, s(get("targetId"))), ts
	case "session_info":
		return s(get("name")), ts
	case "custom":
		return s(get("customType")), ts
	case "mode_change":
		return s(get("mode")), ts
	case "title_change":
		return s(get("title")), ts
	case "context_change":
		return s(get("contextName")), ts
	}
	return "", ts
}

func firstText(content []byte) string {
	if s, ok := jsonl.String(content); ok {
		return firstLine(s)
	}
	var out string
	jsonl.Elements(content, func(b []byte) bool {
		if t, _ := jsonl.String(sub(b, "type")); t == "text" {
			if s, ok := jsonl.String(sub(b, "text")); ok && strings.TrimSpace(s) != "" {
				out = firstLine(s)
				return false
			}
		}
		return true
	})
	return out
}

func firstToolCall(content []byte) string {
	var out string
	jsonl.Elements(content, func(b []byte) bool {
		if t, _ := jsonl.String(sub(b, "type")); t == "toolCall" {
			n, _ := jsonl.String(sub(b, "name"))
			out = "[tool call] " + n
			return false
		}
		return true
	})
	return out
}

func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if t := strings.TrimSpace(l); t != "" {
			return t
		}
	}
	return ""
}
