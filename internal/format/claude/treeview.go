package claude

// The drawing model of tree: the main tree and the subagent groups.

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/sessctl/sessctl/internal/model"
)

// TreeView is the drawing model of a session tree: the main tree with
// linked subagent transcripts hung under the tool calls that spawned them,
// and one group per subagent that could not be linked. Close releases the
// subagent files.
type TreeView struct {
	Tree   *model.Tree
	Groups []GroupView
	files  []*File
	src    []nodeSrc
}

// GroupView is an extra titled tree (an unlinked subagent).
type GroupView struct {
	Title string
	Tree  *model.Tree
	src   []nodeSrc
}

type nodeSrc struct {
	file int // index in files
	line int
}

// Close closes the subagent files opened for the view.
func (v *TreeView) Close() {
	for _, f := range v.files[1:] {
		f.Close()
	}
}

// FillText decodes the first line of text of the given nodes of mt (the
// main tree or one of the groups' trees).
func (v *TreeView) FillText(mt *model.Tree, nodes []int) {
	src := v.src
	for _, g := range v.Groups {
		if g.Tree == mt {
			src = g.src
		}
	}
	for _, n := range nodes {
		if n < 0 || n >= len(src) {
			continue
		}
		s := src[n]
		mt.Nodes[n].Text = v.files[s.file].Preview(s.line, 200)
	}
}

// View builds the drawing model of t (built by f.Tree). Subagent files in
// subs (may be nil) are drawn under the spawning tool call, or as groups.
func (f *File) View(t *Tree, subs *Subagents) *TreeView {
	v := &TreeView{files: []*File{f}, Tree: &model.Tree{Leaf: -1}}
	roots := appendTree(v.Tree, &v.src, t, 0, true)
	v.Tree.Roots = roots
	if t.Leaf >= 0 {
		v.Tree.Leaf = t.Leaf
	}
	v.Tree.Orphans = append(v.Tree.Orphans, t.Orphans...)
	v.Tree.Cycles = append(v.Tree.Cycles, t.Cycles...)
	v.Tree.Duplicates = append(v.Tree.Duplicates, t.Duplicates...)
	if subs == nil {
		return v
	}
	index := map[string]int{}
	for i := range t.Nodes {
		index[t.Nodes[i].ID] = i
	}
	for _, s := range subs.Files {
		sf, err := Open(s.Path)
		if err != nil {
			continue
		}
		st, err := sf.Tree(LeafResume)
		if err != nil {
			sf.Close()
			continue
		}
		v.files = append(v.files, sf)
		fi := len(v.files) - 1
		parent, linked := index[s.ParentUUID]
		anchored := s.Link == LinkParentUUID
		if s.ParentUUID == "" || !linked {
			// a subagent whose first records hang on records of this session
			// (compaction subagents) is drawn there
			if at, ok := sessionAnchor(st, index); ok {
				parent, linked, anchored = at, true, true
			}
		}
		if !linked {
			// one active leaf per tree: the group is drawn without its own
			g := GroupView{Title: subagentTitle(s, "subagent not linked to a tool call"), Tree: &model.Tree{Leaf: -1}}
			g.Tree.Roots = appendTree(g.Tree, &g.src, st, fi, false)
			v.Groups = append(v.Groups, g)
			continue
		}
		sroots := appendTree(v.Tree, &v.src, st, fi, false)
		mark := "agent " + s.AgentID
		if anchored && strings.HasPrefix(s.AgentID, "acompact") {
			mark = "compaction subagent " + s.AgentID
		}
		if s.Description != "" {
			mark += ": " + s.Description
		}
		for _, r := range sroots {
			v.Tree.Nodes[r].Marks = append([]string{mark}, v.Tree.Nodes[r].Marks...)
		}
		// subagents first, so the main conversation stays the continuation
		v.Tree.Nodes[parent].Children = append(append([]int(nil), sroots...), v.Tree.Nodes[parent].Children...)
		if v.Tree.Nodes[parent].Label == "" && !anchored {
			v.Tree.Nodes[parent].Label = "spawns subagent"
		}
	}
	return v
}

func subagentTitle(s SubagentFile, what string) string {
	t := fmt.Sprintf("%s %s (%s", what, s.AgentID, s.Layout)
	if s.Description != "" {
		t += ", " + s.Description
	}
	return t + ", " + filepath.Base(s.Path) + ")"
}

// appendTree appends t's nodes to mt and returns the model numbers of its
// roots. Children are ordered so that the continuation (the active child,
// else the largest subtree) comes last.
func appendTree(mt *model.Tree, src *[]nodeSrc, t *Tree, fi int, active bool) []int {
	base := len(mt.Nodes)
	size := subtreeSizes(t)
	for i := range t.Nodes {
		n := &t.Nodes[i]
		mn := model.TreeNode{ID: n.ID, ParentID: n.ParentID, HasParent: n.HasParent, Type: n.Type, Role: n.Role,
			Label: n.Fork, Line: n.Line, Time: msTime(n.Time)}
		switch n.Type {
		case TypeSystem, TypeAttachment:
			if n.Subtype != "" {
				mn.Type = n.Type + "/" + n.Subtype
			}
		}
		kids := append([]int(nil), n.Children...)
		sort.SliceStable(kids, func(a, b int) bool {
			ka, kb := kids[a], kids[b]
			if t.Active[ka] != t.Active[kb] {
				return !t.Active[ka]
			}
			return size[ka] < size[kb]
		})
		for _, c := range kids {
			mn.Children = append(mn.Children, base+c)
		}
		if n.Sidechain {
			mn.Marks = append(mn.Marks, "sidechain")
		}
		if n.APIError {
			mn.Marks = append(mn.Marks, "api error")
		}
		if n.CompactSummary {
			mn.Marks = append(mn.Marks, "compaction summary")
		} else if n.Meta {
			mn.Marks = append(mn.Marks, "meta")
		}
		if n.HasParent && n.ParentID == n.ID {
			mn.Marks = append(mn.Marks, "self-parent")
		}
		if n.ToolUseHolder != "" {
			mn.Marks = append(mn.Marks, "result of "+short(n.ToolUseHolder))
		}
		if n.InCycle {
			mn.Marks = append(mn.Marks, "in parent cycle")
		}
		if len(n.DupLines) > 1 {
			mn.Marks = append(mn.Marks, fmt.Sprintf("uuid on lines %s", joinInts(n.DupLines)))
		}
		if n.Boundary {
			sep := "compaction"
			if n.Trigger != "" {
				sep += " · " + n.Trigger
			}
			if n.PreTokens > 0 {
				sep += fmt.Sprintf(" · %d tokens before", n.PreTokens)
			}
			if n.LogicalParentID != "" {
				sep += " · logical parent " + n.LogicalParentID
				if n.LogicalParentMissing {
					sep += " (not in file)"
				}
			}
			mn.Separator = sep
		}
		mt.Nodes = append(mt.Nodes, mn)
		mt.Active = append(mt.Active, active && t.Active[i])
		*src = append(*src, nodeSrc{file: fi, line: n.Line})
	}
	roots := make([]int, 0, len(t.Roots)+len(t.Cycles))
	for _, r := range t.Roots {
		roots = append(roots, base+r)
	}
	for _, c := range t.Cycles {
		roots = append(roots, base+c[0]) // drawn as an extra root
	}
	return roots
}

// subtreeSizes counts the nodes below each node (itself included), without
// recursion; nodes only reachable through a cycle count 1.
func subtreeSizes(t *Tree) []int {
	size := make([]int, len(t.Nodes))
	var order []int
	seen := make([]bool, len(t.Nodes))
	stack := append([]int(nil), t.Roots...)
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[n] {
			continue
		}
		seen[n] = true
		order = append(order, n)
		stack = append(stack, t.Nodes[n].Children...)
	}
	for i := range size {
		size[i] = 1
	}
	for k := len(order) - 1; k >= 0; k-- {
		n := order[k]
		for _, c := range t.Nodes[n].Children {
			if seen[c] {
				size[n] += size[c]
			}
		}
	}
	return size
}

func joinInts(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmt.Sprint(x)
	}
	return strings.Join(parts, ", ")
}

// CompactView is the compact-view model of the whole-history path of leaf
// ("" = the last-prompt leaf): for each boundary, Hidden is what it takes
// out of the context, Kept its preserved segment (when Claude Code relinks
// it) and After what follows it. The last boundary is the one in effect.

// sessionAnchor finds the main-tree node a subagent tree hangs on: the
// record of the session that the subagent's first root names as parent.
func sessionAnchor(st *Tree, index map[string]int) (int, bool) {
	for _, r := range st.Roots {
		n := &st.Nodes[r]
		if n.ParentInSession {
			if at, ok := index[n.ParentID]; ok {
				return at, true
			}
		}
	}
	return 0, false
}
