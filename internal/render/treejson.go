package render

import "github.com/sessctl/sessctl/internal/model"

// TreeJSON is the --json shape of tree.
type TreeJSON struct {
	Format     string         `json:"format"`
	Dialect    string         `json:"dialect,omitempty"`
	Path       string         `json:"path"`
	LeafID     *string        `json:"leafId"`
	Roots      []string       `json:"roots"`
	Nodes      []TreeNodeJSON `json:"nodes"`
	Orphans    []string       `json:"orphans"`
	Cycles     [][]string     `json:"cycles"`
	Duplicates []string       `json:"duplicates"`
}

// TreeNodeJSON is one node of TreeJSON.
type TreeNodeJSON struct {
	ID       string   `json:"id"`
	ParentID *string  `json:"parentId"`
	Type     string   `json:"type"`
	Role     string   `json:"role,omitempty"`
	Label    string   `json:"label,omitempty"`
	Line     int      `json:"line"`
	Children []string `json:"children"`
}

// TreeJSONOf converts a tree model to its JSON shape.
func TreeJSONOf(t *model.Tree, format, dialect, path string) *TreeJSON {
	ids := func(ns []int) []string {
		out := make([]string, len(ns))
		for k, n := range ns {
			out[k] = t.Nodes[n].ID
		}
		return out
	}
	j := &TreeJSON{Format: format, Dialect: dialect, Path: path, Nodes: make([]TreeNodeJSON, len(t.Nodes)),
		Orphans: ids(t.Orphans), Cycles: [][]string{}, Duplicates: t.Duplicates}
	if j.Duplicates == nil {
		j.Duplicates = []string{}
	}
	if t.Leaf >= 0 && t.Leaf < len(t.Nodes) {
		id := t.Nodes[t.Leaf].ID
		j.LeafID = &id
	}
	j.Roots = []string{}
	for i := range t.Nodes {
		if !t.Nodes[i].HasParent {
			j.Roots = append(j.Roots, t.Nodes[i].ID)
		}
	}
	for _, c := range t.Cycles {
		j.Cycles = append(j.Cycles, ids(c))
	}
	for i := range t.Nodes {
		n := &t.Nodes[i]
		tn := TreeNodeJSON{ID: n.ID, Type: n.Type, Role: n.Role, Label: n.Label, Line: n.Line, Children: ids(n.Children)}
		if n.HasParent {
			p := n.ParentID
			tn.ParentID = &p
		}
		j.Nodes[i] = tn
	}
	return j
}
