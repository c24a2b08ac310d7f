package pi

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/sessctl/sessctl/internal/model"
	"github.com/sessctl/sessctl/internal/render"
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
	for i := range x.Len() {
		n := x.Node(i)
		e := &f.Entries[i]
		tn := model.TreeNode{ID: displayID(n.ID), HasParent: n.HasParent, Type: e.Type(), Role: e.Role(), Line: int(n.Line)}
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
		if !f.HeaderParented(o) { // a header-parented entry is a root (headerparent.go)
			t.Nodes[o].Marks = append(t.Nodes[o].Marks, "orphan: parent "+t.Nodes[o].ParentID+" missing")
		}
	}
	t.Orphans = f.Orphans()
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

// TreeStream is the tree view of the file with leaf as the active leaf
// (tree.None = the default leaf), given node by node (model.Tree.Source):
// besides the index it holds two bits per entry (drawn, on the active path)
// and one line at a time, never a model of every node as TreeModel does.
// render.DrawTree and render.TreeFooter draw it; texts are read as nodes
// are drawn.
func (f *File) TreeStream(leaf int) *model.Tree {
	src := f.newTreeSource(leaf)
	return &model.Tree{Leaf: src.leaf, Source: src}
}

// DrawTree draws the tree of the file as `sessctl tree` prints it, then its
// footer (orphans, cycles, duplicate ids), streaming (see TreeStream).
func (f *File) DrawTree(w io.Writer, leaf int, o render.TreeOptions) error {
	t := f.TreeStream(leaf)
	if err := render.DrawTree(w, t, nil, o); err != nil {
		return err
	}
	render.TreeFooter(w, t, o.Styles)
	return nil
}

// Footer lists the orphans, cycles and duplicate ids of the file.
func (s *treeSource) Footer() *model.TreeFooter {
	f := s.f
	x := f.Index
	var d model.TreeFooter
	for _, i := range f.Orphans() {
		d.Orphans = append(d.Orphans, model.FooterNode{Line: int(f.Line(i)), ID: displayID(x.ID(i)), Parent: displayID(x.ParentID(i))})
	}
	for _, c := range x.Cycles() {
		cyc := make([]model.FooterNode, len(c))
		for k, n := range c {
			cyc[k] = model.FooterNode{Line: int(f.Line(n)), ID: displayID(x.ID(n))}
		}
		d.Cycles = append(d.Cycles, cyc)
	}
	if dups := x.Duplicates(); len(dups) > 0 {
		lines := map[string][]int{}
		for _, id := range dups {
			if id != noIDKey {
				lines[id] = nil
			}
		}
		for i := range x.Len() {
			if l, ok := lines[x.ID(i)]; ok {
				lines[x.ID(i)] = append(l, int(f.Line(i)))
			}
		}
		for _, id := range dups {
			if id != noIDKey {
				d.Duplicates = append(d.Duplicates, model.FooterDup{ID: displayID(id), Lines: lines[id]})
			}
		}
	}
	return &d
}

// treeSource is the file's tree for render.StreamTree.
type treeSource struct {
	f          *File
	leaf       int
	active     []uint64 // one bit per entry on the active path
	cycleStart map[int]bool
	lr         *lineReader // opened by Node, closed when Roots returns
}

func (f *File) newTreeSource(leaf int) *treeSource {
	x := f.Index
	if leaf == tree.None {
		leaf = x.Last()
	}
	s := &treeSource{f: f, leaf: leaf, active: make([]uint64, (x.Len()+63)/64), cycleStart: map[int]bool{}}
	if leaf != tree.None {
		path, _ := x.Path(leaf)
		for _, p := range path {
			s.active[p/64] |= 1 << (p % 64)
		}
	}
	for _, c := range x.Cycles() {
		s.cycleStart[c[0]] = true
	}
	return s
}

func (s *treeSource) Len() int  { return s.f.Index.Len() }
func (s *treeSource) Leaf() int { return s.leaf }

func (s *treeSource) Active(i int) bool { return s.active[i/64]&(1<<(i%64)) != 0 }

// Roots are the true roots, orphans, self-parents and the first node of
// each cycle, in file order (as TreeModel's Roots).
//
// The file is opened by the first Node and closed when Roots returns.
func (s *treeSource) Roots(fn func(int) bool) {
	x := s.f.Index
	defer func() {
		if s.lr != nil {
			s.lr.close()
			s.lr = nil
		}
	}()
	for i := 0; i < x.Len(); i++ {
		if x.Parent(i) == tree.None || s.cycleStart[i] {
			if !fn(i) {
				return
			}
		}
	}
}

func (s *treeSource) NumChildren(i int) int { return len(s.f.Index.Children(i)) }
func (s *treeSource) Child(i, k int) int    { return int(s.f.Index.Children(i)[k]) }

func (s *treeSource) Keep(i int) bool {
	x := s.f.Index
	if i == s.leaf || x.Shadowed(i) || x.InCycle(i) {
		return true
	}
	switch s.f.Entries[i].Type() {
	case "compaction", "branch_summary":
		return true
	}
	if x.Parent(i) == tree.None && x.HasParent(i) { // orphan or own parent
		return true
	}
	return s.f.Labels[x.ID(i)] != ""
}

// Node is node i as TreeModel and FillText make it (without Children).
func (s *treeSource) Node(i int) (model.TreeNode, error) {
	f, x := s.f, s.f.Index
	tn := f.treeNode(i)
	if x.HasParent(i) && x.Parent(i) == tree.None {
		if p, ok := x.Lookup(x.ParentID(i)); ok && p == i {
			tn.Marks = append(tn.Marks, "own parent")
		} else if !f.HeaderParented(i) {
			tn.Marks = append(tn.Marks, "orphan: parent "+tn.ParentID+" missing")
		}
	}
	if x.InCycle(i) {
		tn.Marks = append(tn.Marks, "in a parent cycle")
	}
	if s.lr == nil {
		lr, err := f.openLines()
		if err != nil {
			return tn, err
		}
		s.lr = lr
	}
	e := &f.Entries[i]
	if e.Len() > jsonl.LongLine {
		// A line this long is not read whole to draw one row: the members
		// before the first cut value (the timestamp, in pi's own lines)
		// come from its start, the text says what it is.
		line, err := s.lr.prefix(i, summaryPrefix)
		if err != nil {
			return tn, err
		}
		_, ts := summarize(line, e.Type())
		tn.Text = fmt.Sprintf("(a line of %.1f MB, not summarized)", float64(e.Len())/1e6)
		if ms, ok := jsTimeMs(ts); ok && ts != nil && ts[0] == '"' {
			tn.Time = time.UnixMilli(ms)
		}
		return tn, nil
	}
	line, err := s.lr.raw(i)
	if err != nil {
		return tn, err
	}
	text, ts := summarize(line, e.Type())
	tn.Text = text
	if ms, ok := jsTimeMs(ts); ok && ts != nil && ts[0] == '"' {
		tn.Time = time.UnixMilli(ms)
	}
	return tn, nil
}

// treeNode is entry i's node of the tree view without children, text or
// the marks that need the whole tree (orphan, own parent, cycle).
func (f *File) treeNode(i int) model.TreeNode {
	x := f.Index
	n := x.Node(i)
	e := &f.Entries[i]
	tn := model.TreeNode{ID: displayID(n.ID), HasParent: n.HasParent, Type: e.Type(), Role: e.Role(), Line: int(n.Line)}
	if n.HasParent {
		tn.ParentID = displayID(n.Parent)
	}
	if e.Type() == "" {
		tn.Type = "(no type)"
	}
	if !x.Shadowed(i) {
		tn.Label = f.Labels[n.ID]
	} else {
		tn.Marks = markShadowed
	}
	switch e.Type() {
	case "compaction":
		tn.Marks = append(tn.Marks, "compaction")
	case "branch_summary":
		tn.Marks = append(tn.Marks, "branch summary")
	}
	return tn
}

// summaryPrefix is how much of a line longer than jsonl.LongLine the tree
// reads to draw its row.
const summaryPrefix = 64 << 10

// markShadowed is shared by every shadowed node (full, so an append copies).
var markShadowed = []string{"duplicate id, shadowed"}[:1:1]

// FillText reads the lines of the given nodes and sets their text and time.
func (f *File) FillText(t *model.Tree, nodes []int) error {
	sorted := append([]int(nil), nodes...)
	sort.Slice(sorted, func(a, b int) bool { return f.Entries[sorted[a]].Offset() < f.Entries[sorted[b]].Offset() })
	fh, err := os.Open(f.Path)
	if err != nil {
		return err
	}
	defer fh.Close()
	for _, i := range sorted {
		e := f.Entries[i]
		line, err := jsonl.ReadLineAt(fh, e.Offset(), e.Len())
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
	if trim := bytes.TrimLeft(line, " \t\ufeff"); len(trim) == 0 || trim[0] != '{' {
		return strings.TrimSpace(string(trim)), nil
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
