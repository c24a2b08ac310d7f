package export

import (
	"github.com/sessctl/sessctl/internal/model"
	"github.com/sessctl/sessctl/internal/sessfmt"
)

// sink keeps what Transcript gives.
type sink struct {
	header []string
	msgs   []model.Message
}

func (k *sink) Header(lines []string) error {
	k.header = append([]string(nil), lines...)
	return nil
}

func (k *sink) Message(m *model.Message) error {
	c := *m
	c.Blocks = append([]model.Block(nil), m.Blocks...)
	for i := range c.Blocks {
		if r := c.Blocks[i].LongText; r != nil {
			cp := *r
			c.Blocks[i].LongText = &cp
		}
	}
	c.Notes = append([]string(nil), m.Notes...)
	k.msgs = append(k.msgs, c)
	return nil
}

// TakesTextRefs: a text too long to hold stays in the session file (a
// model.TextRef) and is written from it as it is read; the document holds
// every message, never the long texts (memory grows with the messages, not
// their bytes).
func (k *sink) TakesTextRefs() bool { return true }

// TakesImageRefs: an image whose bytes are base64 in the session file
// (Claude Code, OpenCode's JSON store) comes with where they are
// (model.Block.LongText of an image block), and a Claude Code tool
// result's images follow it as image blocks; the HTML page embeds them
// from the file as it is written. Formats that do not know the method
// ignore it.
func (k *sink) TakesImageRefs() bool { return true }

// imageDataer is a session that holds its images' bytes as data: URLs and
// gives them by the image block's ID (OpenCode).
type imageDataer interface {
	ImageData(id string) (string, bool)
}

// Collect reads the conversation s rebuilds at its leaf (what show prints)
// and its entry tree when it has one.
func Collect(s sessfmt.Session, opts sessfmt.ContextOptions) (*Doc, error) {
	cx, ok := s.(sessfmt.Contexter)
	if !ok {
		return nil, sessfmt.Unsupported(s, "export")
	}
	d := &Doc{Ref: s.Ref().String()}
	if x, ok := s.(imageDataer); ok {
		d.imageData = x.ImageData
	}
	meta := s.Meta()
	d.Title, d.Agent, d.ID = meta.Title, meta.Agent, meta.ID
	if d.Agent == "" {
		d.Agent = s.Ref().Agent
	}
	notify := opts.Notify
	opts.Notify = func(n sessfmt.Notice) {
		if n.Warning {
			d.Warnings = append(d.Warnings, n.Text)
		}
		if notify != nil {
			notify(n)
		}
	}
	var k sink
	if err := cx.Transcript(opts, &k); err != nil {
		return nil, err
	}
	d.Header, d.Messages = k.header, k.msgs
	if tr, ok := s.(sessfmt.Treer); ok {
		if tv, err := tr.TreeView(); err == nil && tv != nil && tv.Tree != nil {
			if tv.Fill != nil {
				all := make([]int, len(tv.Tree.Nodes))
				for i := range all {
					all[i] = i
				}
				if err := tv.Fill(tv.Tree, all); err != nil {
					d.Warnings = append(d.Warnings, "tree text: "+err.Error())
				}
			}
			d.Tree = tv.Tree
			if tv.Tree.Source != nil {
				t, err := materialize(tv.Tree.Source)
				if err != nil {
					d.Warnings = append(d.Warnings, "tree: "+err.Error())
				}
				d.Tree = t
			}
			if tv.Close != nil {
				tv.Close()
			}
		}
	}
	return d, nil
}

// Leaves are the tree's leaves other than the active one, in file order:
// the ends of the other branches.
func Leaves(t *model.Tree) []string {
	if t == nil {
		return nil
	}
	var out []string
	for i := range t.Nodes {
		n := &t.Nodes[i]
		if len(n.Children) == 0 && i != t.Leaf && n.ID != "" {
			out = append(out, n.ID)
		}
	}
	return out
}

// AddBranch adds the conversation at another leaf, keeping the messages
// that are not already in the document's conversation.
func (d *Doc) AddBranch(leaf string, s sessfmt.Session) error {
	cx, ok := s.(sessfmt.Contexter)
	if !ok {
		return sessfmt.Unsupported(s, "export")
	}
	seen := map[string]bool{}
	for _, m := range d.Messages {
		if m.ID != "" {
			seen[m.ID] = true
		}
	}
	var k sink
	if err := cx.Transcript(sessfmt.ContextOptions{}, &k); err != nil {
		return err
	}
	var keep []model.Message
	for _, m := range k.msgs {
		if m.ID != "" && seen[m.ID] {
			continue
		}
		keep = append(keep, m)
	}
	if len(keep) > 0 {
		d.Branches = append(d.Branches, Branch{Leaf: leaf, Messages: keep})
	}
	return nil
}

// materialize builds the whole tree a streaming source gives, walking it in
// drawing order (depth first, iteratively: chains can be very long).
func materialize(src model.TreeSource) (*model.Tree, error) {
	n := src.Len()
	t := &model.Tree{Nodes: make([]model.TreeNode, n), Active: make([]bool, n), Leaf: src.Leaf()}
	var roots []int
	src.Roots(func(r int) bool { roots = append(roots, r); return true })
	t.Roots = roots
	seen := make([]bool, n)
	stack := make([]int, 0, 64)
	for i := len(roots) - 1; i >= 0; i-- {
		stack = append(stack, roots[i])
	}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if i < 0 || i >= n || seen[i] {
			continue
		}
		seen[i] = true
		node, err := src.Node(i)
		if err != nil {
			return t, err
		}
		k := src.NumChildren(i)
		node.Children = make([]int, k)
		for c := 0; c < k; c++ {
			node.Children[c] = src.Child(i, c)
		}
		t.Nodes[i] = node
		t.Active[i] = src.Active(i)
		for c := k - 1; c >= 0; c-- {
			stack = append(stack, node.Children[c])
		}
	}
	return t, nil
}
