package agentcore

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/sessctl/sessctl/internal/render"
	"github.com/sessctl/sessctl/internal/sessfmt"
)

// treeLeaf is --leaf, or -1: the tree marks the first leaf in file order.
func (o *Opened) treeLeaf() (int, error) {
	if o.leafArg == "" {
		return -1, nil
	}
	return o.LeafIndex()
}

// TreeView is the entry tree; the active path leads to the first leaf in
// file order unless --leaf names another.
func (o *Opened) TreeView() (*sessfmt.TreeView, error) {
	leaf, err := o.treeLeaf()
	if err != nil {
		return nil, err
	}
	t, err := o.S.Tree(leaf)
	if err != nil {
		return nil, err
	}
	return &sessfmt.TreeView{
		Header: fmt.Sprintf("agentcore session %s · %d entries · %d leaves", o.S.ID, len(o.S.Entries), len(o.S.Leaves())),
		Tree:   t, Footer: true, ShortIDs: 8,
	}, nil
}

// WriteTreeJSON writes the tree in tree --json's shape.
func (o *Opened) WriteTreeJSON(w io.Writer, pretty bool) error {
	leaf, err := o.treeLeaf()
	if err != nil {
		return err
	}
	t, err := o.S.Tree(leaf)
	if err != nil {
		return err
	}
	return writeJSON(w, render.TreeJSONOf(t, "agentcore", "", o.ref.String()))
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
