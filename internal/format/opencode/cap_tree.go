package opencode

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/sessctl/sessctl/internal/model"
	"github.com/sessctl/sessctl/internal/problem"
	"github.com/sessctl/sessctl/internal/render"
	"github.com/sessctl/sessctl/internal/sessfmt"
)

// tree builds the session hierarchy (child sessions made by the task tool
// hang under their parent): for a whole store every session, for one
// session its family with its messages and parts. The store's problems are
// kept as notices.
func (o *Opened) tree() *model.Tree {
	if o.treeDone {
		return o.treeModel
	}
	o.treeDone = true
	var all []Session
	if o.Store != nil {
		var probs []problem.Problem
		all, probs = o.Store.Sessions()
		for _, p := range probs {
			o.notices = append(o.notices, sessfmt.Notice{Warning: true, Text: p.Message, Where: p.Location})
		}
		o.all = len(all)
	}
	o.treeModel = TreeView(all, o.T)
	markActive(o.treeModel, o.T)
	return o.treeModel
}

// markActive marks what OpenCode sends the model for the focused session
// (FilterCompacted: from the compaction in effect on, without a pending
// revert's hidden tail), with their parts; the newest of them is the
// active leaf.
func markActive(t *model.Tree, focus *Transcript) {
	if focus == nil {
		return
	}
	live := map[string]bool{}
	for _, i := range FilterCompacted(focus.Messages) {
		if !focus.Messages[i].Reverted {
			live[focus.Messages[i].ID] = true
		}
	}
	active := map[string]bool{}
	for k := range t.Nodes {
		n := &t.Nodes[k]
		if n.Type == "message" && n.ParentID == focus.Session.ID && live[n.ID] {
			t.Active[k] = true
			active[n.ID] = true
			t.Leaf = k
		}
	}
	for k := range t.Nodes {
		n := &t.Nodes[k]
		if n.Type != "message" && n.Type != "session" && active[n.ParentID] {
			t.Active[k] = true
		}
	}
}

// TreeNotices are the problems met while listing the store's sessions.
func (o *Opened) TreeNotices() []sessfmt.Notice {
	o.tree()
	return o.notices
}

// TreeView draws the session hierarchy; the focused session's active
// message is marked.
func (o *Opened) TreeView() (*sessfmt.TreeView, error) {
	t := o.tree()
	head := fmt.Sprintf("opencode %s · %d sessions", o.ref.Path, o.all)
	if f := o.T; f != nil {
		head = fmt.Sprintf("opencode session %s · %s · %d messages · from %s", f.Session.ID, f.Session.Title, len(f.Messages), f.Source)
	}
	return &sessfmt.TreeView{Header: head, Tree: t}, nil
}

// WriteTreeJSON writes the hierarchy in tree --json's shape.
func (o *Opened) WriteTreeJSON(w io.Writer, pretty bool) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(render.TreeJSONOf(o.tree(), "opencode", "", o.ref.Path))
}
