package opencode

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/sessctl/sessctl/internal/model"
)

func compactJSON(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

func tokensText(t *Tokens) string {
	if t == nil {
		return ""
	}
	s := fmt.Sprintf("%d in, %d out", t.Input, t.Output)
	if t.Reasoning > 0 {
		s += fmt.Sprintf(", %d reasoning", t.Reasoning)
	}
	if t.CacheRead > 0 || t.CacheWrite > 0 {
		s += fmt.Sprintf(", cache %d read/%d write", t.CacheRead, t.CacheWrite)
	}
	return s
}

// partBlocks maps one part to drawable blocks.
func partBlocks(p *Part) []model.Block {
	switch p.Type {
	case "text":
		return []model.Block{{Kind: "text", Text: p.Text}}
	case "reasoning":
		return []model.Block{{Kind: "thinking", Text: p.Text}}
	case "tool":
		call := model.Block{Kind: "toolCall", Name: p.Tool, ID: p.CallID, Args: compactJSON(p.Input)}
		res := model.Block{Kind: "toolResult", Name: p.Tool, ID: p.CallID}
		switch p.Status {
		case "completed":
			res.Text = p.Output
			if p.Compacted {
				res.Text = "[output pruned by OpenCode: the model sees \"[Old tool result content cleared]\"]\n" + p.Output
			}
		case "error":
			res.Text, res.IsError = p.ToolError, true
		default:
			res.Text, res.IsError = fmt.Sprintf("[tool left %s: no result; OpenCode replays it as \"[Tool execution was interrupted]\"]", p.Status), true
		}
		if p.ChildID != "" {
			res.Text = strings.TrimSpace(res.Text + "\n[child session " + p.ChildID + "]")
		}
		return []model.Block{call, res}
	case "file":
		if strings.HasPrefix(p.Mime, "image/") {
			// ID is the part's: ImageData gives its bytes by it
			return []model.Block{{Kind: "image", MIME: p.Mime, Size: -1, Text: p.Filename, ID: p.ID}}
		}
		return []model.Block{{Kind: "other", Name: "file", Text: strings.TrimSpace(p.Filename + " (" + p.Mime + ") " + p.URL)}}
	case "step-start":
		return []model.Block{{Kind: "other", Name: "step start"}}
	case "step-finish":
		var s []string
		if p.Reason != "" {
			s = append(s, p.Reason)
		}
		if t := tokensText(p.Tokens); t != "" {
			s = append(s, t)
		}
		if p.Cost > 0 {
			s = append(s, fmt.Sprintf("$%.4f", p.Cost))
		}
		return []model.Block{{Kind: "other", Name: "step finish", Text: strings.Join(s, " · ")}}
	case "compaction":
		s := "requested"
		if p.Auto {
			s = "requested automatically"
		}
		if p.Overflow {
			s += " (context overflow)"
		}
		if p.TailStartID != "" {
			s += ", keeping messages from " + p.TailStartID
		}
		return []model.Block{{Kind: "other", Name: "compaction", Text: s}}
	case "patch":
		return []model.Block{{Kind: "other", Name: "patch", Text: strings.Join(p.Files, ", ")}}
	case "subtask":
		return []model.Block{{Kind: "other", Name: "subtask", Text: "@" + p.Agent + ": " + p.Description}}
	case "agent":
		return []model.Block{{Kind: "other", Name: "agent", Text: "@" + p.Agent}}
	}
	return []model.Block{{Kind: "other", Name: p.Type, Text: compactJSON(p.Raw)}}
}

// MessageView maps one message to a drawable message.
func MessageView(m *Message) model.Message {
	v := model.Message{ID: m.ID, Role: m.Role, Time: m.Created, Model: m.ModelID}
	if m.ProviderID != "" && m.ModelID != "" {
		v.Model = m.ProviderID + "/" + m.ModelID
	}
	if m.Summary {
		v.Marker = "compaction summary"
	}
	for i := range m.Parts {
		if m.Parts[i].Type == "compaction" {
			v.Marker = "compaction request"
		}
		v.Blocks = append(v.Blocks, partBlocks(&m.Parts[i])...)
		if m.Parts[i].Synthetic {
			v.Notes = append(v.Notes, "synthetic text part")
		}
		if m.Parts[i].Reverted && !m.Reverted {
			v.Notes = append(v.Notes, "part "+m.Parts[i].ID+" reverted")
		}
	}
	if m.Agent != "" && m.Role == "assistant" {
		v.Notes = append(v.Notes, "agent "+m.Agent)
	}
	if m.Error != nil {
		v.Notes = append(v.Notes, strings.TrimSpace("error "+m.Error.Name+": "+m.Error.Message))
	}
	if m.Reverted {
		v.Notes = append(v.Notes, "reverted: hidden by a pending revert, deleted on the next prompt")
	}
	if m.Role == "assistant" && m.Finish == "" && m.Error == nil {
		v.Notes = append(v.Notes, "unfinished")
	}
	return v
}

// TranscriptView builds what show prints: every message in order with its
// parts, compaction and revert marks.
func TranscriptView(t *Transcript) *model.Transcript {
	s := &t.Session
	title := s.Title
	if title == "" {
		title = "(untitled)"
	}
	v := &model.Transcript{Title: title}
	v.Header = append(v.Header, fmt.Sprintf("OpenCode session %s · %s · %d messages", s.ID, s.Directory, len(t.Messages)))
	from := "from " + t.Source
	if o := others(s.Sources, t.Source); len(o) > 0 {
		from += "; also in " + strings.Join(o, ", ")
	}
	v.Header = append(v.Header, from)
	if s.ParentID != "" {
		v.Header = append(v.Header, "child of "+s.ParentID)
	}
	if s.Revert != nil {
		v.Header = append(v.Header, "pending revert to "+s.Revert.MessageID)
	}
	for i := range t.Messages {
		v.Messages = append(v.Messages, MessageView(&t.Messages[i]))
	}
	if t.Skipped > 0 {
		v.Warnings = append(v.Warnings, fmt.Sprintf("%d message(s) or part(s) could not be decoded", t.Skipped))
	}
	return v
}

func others(all []string, but string) []string {
	var out []string
	for _, s := range all {
		if s != but {
			out = append(out, s)
		}
	}
	return out
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// TreeView builds the session hierarchy (parentID links made by the task
// tool) of the family focus belongs to — or of every session when focus is
// nil — and, under the focused session, its messages and their parts.
func TreeView(all []Session, focus *Transcript) *model.Tree {
	byID := map[string]int{}
	for i := range all {
		byID[all[i].ID] = i
	}
	keep := make([]bool, len(all))
	if focus == nil {
		for i := range keep {
			keep[i] = true
		}
	} else {
		// The focus's root ancestor (cycle-safe), then its descendants.
		root := focus.Session.ID
		seen := map[string]bool{}
		for {
			i, ok := byID[root]
			if !ok || seen[root] || all[i].ParentID == "" {
				break
			}
			seen[root] = true
			if _, ok := byID[all[i].ParentID]; !ok {
				break
			}
			root = all[i].ParentID
		}
		kids := map[string][]int{}
		for i := range all {
			kids[all[i].ParentID] = append(kids[all[i].ParentID], i)
		}
		stack := []string{root}
		for len(stack) > 0 {
			id := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if i, ok := byID[id]; ok && !keep[i] {
				keep[i] = true
				for _, k := range kids[id] {
					stack = append(stack, all[k].ID)
				}
			}
		}
		if _, ok := byID[focus.Session.ID]; !ok {
			all = append(all, focus.Session)
			keep = append(keep, true)
			byID[focus.Session.ID] = len(all) - 1
		}
	}
	t := &model.Tree{Leaf: -1}
	node := map[string]int{}
	var order []int
	for i := range all {
		if keep[i] {
			order = append(order, i)
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return all[order[a]].Created.Before(all[order[b]].Created) })
	for _, i := range order {
		s := &all[i]
		n := model.TreeNode{ID: s.ID, ParentID: s.ParentID, HasParent: s.ParentID != "", Type: "session", Text: s.Title, Time: s.Updated}
		n.Marks = append(n.Marks, fmt.Sprintf("%d msgs", s.Messages))
		if s.ParentID != "" {
			n.Marks = append(n.Marks, "child of "+s.ParentID)
		}
		if s.Revert != nil {
			n.Marks = append(n.Marks, "pending revert")
		}
		n.Marks = append(n.Marks, strings.Join(s.Sources, "+"))
		node[s.ID] = len(t.Nodes)
		t.Nodes = append(t.Nodes, n)
	}
	for k := range t.Nodes {
		n := &t.Nodes[k]
		if p, ok := node[n.ParentID]; ok && n.HasParent {
			t.Nodes[p].Children = append(t.Nodes[p].Children, k)
			continue
		}
		if n.HasParent {
			n.Marks = append(n.Marks, "parent "+n.ParentID+" missing")
			t.Orphans = append(t.Orphans, k)
		}
		t.Roots = append(t.Roots, k)
	}
	if focus != nil {
		si := node[focus.Session.ID]
		var msgNodes []int
		for mi := range focus.Messages {
			m := &focus.Messages[mi]
			mv := MessageView(m)
			n := model.TreeNode{ID: m.ID, ParentID: focus.Session.ID, HasParent: true, Type: "message", Role: m.Role, Time: m.Created}
			if mv.Marker != "" {
				n.Marks = append(n.Marks, mv.Marker)
			}
			if m.Reverted {
				n.Marks = append(n.Marks, "reverted")
			}
			if m.Error != nil {
				n.Marks = append(n.Marks, "error "+m.Error.Name)
			}
			mk := len(t.Nodes)
			t.Nodes = append(t.Nodes, n)
			msgNodes = append(msgNodes, mk)
			for pi := range m.Parts {
				p := &m.Parts[pi]
				pn := model.TreeNode{ID: p.ID, ParentID: m.ID, HasParent: true, Type: p.Type}
				switch p.Type {
				case "tool":
					pn.Text = p.Tool + " " + p.Status
					if p.Title != "" {
						pn.Text += ": " + p.Title
					}
					if p.Unfinished() {
						pn.Marks = append(pn.Marks, "left "+p.Status)
					}
					if p.ChildID != "" {
						pn.Marks = append(pn.Marks, "child "+p.ChildID)
					}
				default:
					if bs := partBlocks(p); len(bs) > 0 {
						pn.Text = firstLine(bs[0].Text)
					}
				}
				if p.Reverted {
					pn.Marks = append(pn.Marks, "reverted")
				}
				if t.Nodes[mk].Text == "" && (p.Type == "text" || p.Type == "compaction") {
					t.Nodes[mk].Text = pn.Text
				}
				t.Nodes[mk].Children = append(t.Nodes[mk].Children, len(t.Nodes))
				t.Nodes = append(t.Nodes, pn)
			}
		}
		// Messages hang under the session, before its child sessions.
		t.Nodes[si].Children = append(msgNodes, t.Nodes[si].Children...)
	}
	t.Active = make([]bool, len(t.Nodes))
	if focus != nil {
		t.Active[node[focus.Session.ID]] = true
	}
	return t
}

// CompactView builds what compact-view prints: each compaction request,
// its summary and the messages it hides and keeps.
func CompactView(t *Transcript) *model.CompactView {
	cv := &model.CompactView{Format: "opencode", Path: t.Source + " " + t.Session.ID, PathEntries: len(t.Messages)}
	if n := len(t.Messages); n > 0 {
		cv.LeafID = t.Messages[n-1].ID
	}
	rng := func(idx []int) model.Range {
		r := model.Range{Entries: len(idx), Messages: len(idx)}
		if len(idx) > 0 {
			r.FirstID, r.LastID = t.Messages[idx[0]].ID, t.Messages[idx[len(idx)-1]].ID
		}
		return r
	}
	for _, c := range Compactions(t.Messages) {
		req := &t.Messages[c.Request]
		mc := model.Compaction{ID: req.ID, Line: c.Request + 1, Time: req.Created, Trigger: "manual", FirstKeptID: c.TailStartID, InEffect: c.Effective}
		if c.Auto {
			mc.Trigger = "auto"
		}
		if c.Overflow {
			mc.Trigger += " (context overflow)"
		}
		mc.Hidden, mc.Kept = rng(c.Hidden), rng(c.Tail)
		mc.KeptOnPath = c.TailStartID == "" || len(c.Tail) > 0
		var after []int
		start := c.Request + 1
		if c.Summary >= 0 {
			start = c.Summary + 1
		}
		for k := start; k < len(t.Messages); k++ {
			after = append(after, k)
		}
		mc.After = rng(after)
		if c.Summary >= 0 {
			sm := &t.Messages[c.Summary]
			var sb strings.Builder
			for _, p := range sm.Parts {
				if p.Type == "text" {
					sb.WriteString(p.Text)
				}
			}
			mc.Summary = sb.String()
			if sm.Tokens != nil {
				before := sm.Tokens.Input + sm.Tokens.CacheRead
				mc.TokensBefore = &before
			}
			if !c.Completed {
				mc.Notes = append(mc.Notes, "the summary did not finish cleanly, so this compaction does not take effect")
			}
		} else {
			mc.Notes = append(mc.Notes, "no summary reply: the compaction never ran")
		}
		if c.TailStartID != "" && len(c.Tail) == 0 {
			mc.Notes = append(mc.Notes, "tail_start_id "+c.TailStartID+" is not before the request")
		}
		cv.Compactions = append(cv.Compactions, mc)
	}
	if cv.Compactions == nil {
		cv.Compactions = []model.Compaction{}
	}
	cv.Warnings = []string{}
	return cv
}
