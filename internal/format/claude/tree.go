package claude

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/valyala/fastjson"
)

// Fork kinds (the label of a record with several children).
const (
	ForkParallelTools = "parallel tool use"
	ForkRetryAPIError = "retry after api_error"
	ForkRetry         = "retry"
	ForkRewind        = "rewind/edit"
	ForkProgress      = "progress fork"
	ForkOther         = "fork"
)

// Tree is the record DAG drawn as a tree: one node per distinct uuid of a
// chain member (progress lines bridged over), in file order of first
// occurrence.
type Tree struct {
	Nodes []TreeNode
	// Roots are the nodes drawn at top level: true roots (no parentUuid),
	// records whose parent is missing, and self-parents.
	Roots       []int
	Orphans     []int // parent named but not in the file
	SelfParents []int
	Cycles      [][]int // each parent -> child, from the earliest record in file order
	Duplicates  []string
	Leaf        int    // node of the chosen leaf or -1
	Active      []bool // node is on the loader's path for the leaf
	// Progress is the number of legacy progress lines bridged over.
	Progress int
	// ContinuedIn is the session this one was resumed into (continued-in),
	// RelocatedCwd the folder /cd moved it to (relocated).
	ContinuedIn  string
	RelocatedCwd string
}

// TreeNode is one node of Tree.
type TreeNode struct {
	ID        string
	ParentID  string // effective parent uuid (progress bridged), "" when none
	HasParent bool
	Type      string
	Subtype   string // system subtype or attachment type
	Role      string
	Line      int   // line of the value (last occurrence)
	Time      int64 // unix ms or 0
	Sidechain bool
	MessageID string
	APIError  bool
	Meta      bool
	// CompactSummary marks the user message that carries a compaction summary.
	CompactSummary bool
	// Boundary marks a compact_boundary; LogicalParentID is its
	// logicalParentUuid and LogicalParentMissing says it is not in the file.
	Boundary             bool
	LogicalParentID      string
	LogicalParentMissing bool
	Trigger              string // compactMetadata.trigger
	PreTokens            int64  // compactMetadata.preTokens
	// Bridged: the stored parentUuid is a progress line.
	Bridged bool
	// ParentInSession: a subagent record whose parent is a record of the
	// parent session (ParentID names it).
	ParentInSession bool
	// Children in file order.
	Children []int
	// Fork labels a node with several children.
	Fork string
	// DupLines lists every line of a duplicated uuid (the value is the last).
	DupLines []int
	InCycle  bool
	// ToolUse is set on assistant lines that call Task/Agent.
	AgentCall bool
	ToolUse   bool
	ToolRes   bool
	// ToolUseHolder is the uuid of the assistant line holding the tool_use
	// this tool_result answers, when that is not its parent (older files
	// chain results one after another).
	ToolUseHolder string
}

// Tree builds the tree model with the leaf of mode m marked ("" = last-prompt).
func (f *File) Tree(m LeafMode) (*Tree, error) {
	if m == "" {
		m = LeafLastPrompt
	}
	if _, err := ParseLeafMode(string(m)); err != nil {
		return nil, err
	}
	nn := len(f.nFirst)
	t := &Tree{Leaf: -1, ContinuedIn: f.Meta.ContinuedIn, RelocatedCwd: f.Meta.RelocatedCwd}
	pos := make([]int32, nn) // node -> tree index
	var parser fastjson.Parser
	for nd := 0; nd < nn; nd++ {
		pos[nd] = -1
		if !f.member[nd] {
			t.Progress++
			continue
		}
		pos[nd] = int32(len(t.Nodes))
		lr := &f.lines[f.nLast[nd]]
		tn := TreeNode{
			ID:             f.ids.str(lr.uuid),
			Type:           f.names[lr.typ],
			Subtype:        f.names[lr.sub],
			Line:           int(lr.ln),
			Sidechain:      lr.flags&fSidechain != 0,
			MessageID:      f.msgIDs.str(lr.msgID),
			APIError:       lr.flags&fAPIError != 0,
			Meta:           lr.flags&fMeta != 0,
			CompactSummary: lr.flags&fCompactSummary != 0,
			AgentCall:      lr.flags&fAgentCall != 0,
			ToolUse:        lr.flags&fToolUse != 0,
			ToolRes:        lr.flags&fToolResult != 0,
		}
		if lr.ts != noTS {
			tn.Time = lr.ts
		}
		switch tn.Type {
		case TypeUser, TypeAssistant:
			tn.Role = tn.Type
		}
		if f.effPar[nd] >= 0 {
			tn.ParentID = f.ids.str(f.effPar[nd])
			tn.HasParent = true
			tn.Bridged = lr.parent != f.effPar[nd]
		}
		tn.ToolUseHolder = f.holderIfNotParent(int32(nd))
		if f.isBoundary(int32(nd)) {
			tn.Boundary = true
			if v, _, err := f.parseLine(&parser, f.nLast[nd]); err == nil {
				tn.Trigger = string(strBytes(v, "compactMetadata", "trigger"))
				tn.PreTokens = v.GetInt64("compactMetadata", "preTokens")
			}
			if lr.lpar >= 0 {
				tn.LogicalParentID = f.ids.str(lr.lpar)
				ln := f.nodeOf[lr.lpar]
				tn.LogicalParentMissing = ln < 0 || !f.member[ln]
			}
		}
		t.Nodes = append(t.Nodes, tn)
	}
	// progress lines do not count as members, but the leftover parent of a
	// progress-only chain is still the resolved effective parent.
	for nd := 0; nd < nn; nd++ {
		if pos[nd] < 0 {
			continue
		}
		i := int(pos[nd])
		p := f.parent[nd]
		switch {
		case p < 0 && f.externalParentOf(int32(nd)):
			t.Roots = append(t.Roots, i) // its parent is in the parent session: not an orphan
			t.Nodes[i].ParentInSession = true
		case p < 0 && f.effPar[nd] >= 0:
			t.Orphans = append(t.Orphans, i)
			t.Roots = append(t.Roots, i)
		case p < 0:
			t.Roots = append(t.Roots, i)
		case p == int32(nd):
			t.SelfParents = append(t.SelfParents, i)
			t.Roots = append(t.Roots, i)
		}
		for _, c := range f.kids(int32(nd)) {
			t.Nodes[i].Children = append(t.Nodes[i].Children, int(pos[c]))
		}
	}
	for _, c := range f.cycles {
		cy := make([]int, len(c))
		for k, nd := range c {
			cy[k] = int(pos[nd])
		}
		t.Cycles = append(t.Cycles, cy)
	}
	seen := map[string]bool{}
	for _, p := range f.problems {
		if p.Code == ProbDuplicateUUID && !seen[p.UUID] {
			seen[p.UUID] = true
			t.Duplicates = append(t.Duplicates, p.UUID)
		}
	}
	if len(seen) > 0 {
		for li := range f.lines {
			lr := &f.lines[li]
			if lr.uuid < 0 || !seen[f.ids.s[lr.uuid]] {
				continue
			}
			if nd := f.nodeOf[lr.uuid]; nd >= 0 && pos[nd] >= 0 {
				t.Nodes[pos[nd]].DupLines = append(t.Nodes[pos[nd]].DupLines, int(lr.ln))
			}
		}
	}
	for _, c := range t.Cycles {
		for _, i := range c {
			t.Nodes[i].InCycle = true
		}
	}
	for nd := range pos {
		if pos[nd] >= 0 && len(f.kids(int32(nd))) > 1 {
			t.Nodes[pos[nd]].Fork = f.forkLabel(int32(nd))
		}
	}
	t.Active = make([]bool, len(t.Nodes))
	if leaf, _ := f.leafNode(m); leaf >= 0 {
		t.Leaf = int(pos[leaf])
		if p, err := f.Walk(f.uuidOf(leaf), false); err == nil {
			for _, nd := range p.nodes {
				if pos[nd] >= 0 {
					t.Active[pos[nd]] = true
				}
			}
		}
	}
	return t, nil
}

// forkLabel labels a record with several children (from the index only).
func (f *File) forkLabel(nd int32) string {
	kids := f.kids(nd)
	if len(kids) < 2 {
		return ""
	}
	me := &f.lines[f.nLast[nd]]
	var prompts, results, sameMsg, otherAsst, apiErr, bridged int
	asstIDs := map[int32]bool{}
	for _, c := range kids {
		k := &f.lines[f.nLast[c]]
		if k.parent != f.effPar[c] {
			bridged++
		}
		typ := f.names[k.typ]
		switch {
		case k.flags&fAPIError != 0:
			apiErr++
		case typ == TypeUser && k.flags&fToolResult != 0:
			results++
		case typ == TypeUser && k.flags&fMeta == 0:
			prompts++
		case typ == TypeAssistant && me.msgID >= 0 && k.msgID == me.msgID:
			sameMsg++
		case typ == TypeAssistant:
			otherAsst++
			asstIDs[k.msgID] = true
		}
	}
	switch {
	case apiErr > 0:
		return ForkRetryAPIError
	case bridged > 1:
		return ForkProgress
	case prompts > 1:
		return ForkRewind
	case f.names[me.typ] == TypeAssistant && me.flags&fToolUse != 0 && prompts == 0 && otherAsst == 0 && results+sameMsg == len(kids):
		return ForkParallelTools
	case len(asstIDs) > 1:
		return ForkRetry
	}
	return ForkOther
}

// Preview returns the first line of a record's text for display (at most
// max runes, 0 = 120), decoding only that line.
func (f *File) Preview(line int, max int) string {
	if max <= 0 {
		max = 120
	}
	li := int32(line - 1)
	if li < 0 || int(li) >= len(f.lines) || f.lines[li].kind != 1 {
		return ""
	}
	lr := &f.lines[li]
	v, _, long, err := f.parseLong(&f.pparser, li)
	if err == nil && long {
		if s, ok := previewOf(v, f.names[lr.typ], f.names[lr.sub], max, f); ok {
			return s
		}
		v, _, err = f.parseLine(&f.pparser, li)
	}
	if err != nil {
		return ""
	}
	s, _ := previewOf(v, f.names[lr.typ], f.names[lr.sub], max, nil)
	return s
}

// head returns the first non-blank line of b, cut to max runes, as a new
// string (never a view into a large text).
func head(b []byte, max int) string {
	b = bytes.TrimLeft(b, " \t\r\n")
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		b = b[:i]
	}
	b = bytes.TrimRight(b, " \t\r")
	n := 0
	for i := range string(b) {
		if n == max-1 && i < len(b) {
			if len(string(b[i:])) > 0 && utf8.RuneCount(b[i:]) > 1 {
				return string(b[:i]) + "…"
			}
			break
		}
		n++
	}
	return string(b)
}

// previewOf is the one-line description of a parsed record: its first
// text, tool call or tool result, cut to max runes. lg, when not nil, is
// the File whose placeholders v (the elided copy of a long line) holds:
// a text that is one is read from the file as far as the description
// needs; ok is false when a placeholder is where that cannot be done
// (the line is then read whole).
func previewOf(v *fastjson.Value, typ, sub string, max int, lg *File) (_ string, ok bool) {
	// hd is head(prefix + t, max), t trimmed (bytes.TrimSpace) when trim.
	hd := func(prefix string, t []byte, trim bool) string {
		if ref := lg.longRefBytes(t); ref != nil {
			return lg.longHead(prefix, ref, trim, max)
		}
		if trim {
			t = bytes.TrimSpace(t)
		}
		return head(append([]byte(prefix), t...), max)
	}
	// js is head(prefix + JSON, max) for JSON whose strings may be
	// placeholders: expanded from the file as far as head reads.
	js := func(out []byte) string {
		if lg != nil && jsonl.HoldsBytes(out) {
			out = lg.expandHead(out, max)
		}
		return head(out, max)
	}
	switch typ {
	case TypeSystem:
		if c := strBytes(v, "content"); len(c) > 0 {
			return hd(sub+": ", c, false), true
		}
		if e := v.Get("error"); e != nil {
			if e.Type() == fastjson.TypeString {
				x, _ := e.StringBytes()
				return hd(sub+": ", x, false), true
			}
			return js(e.MarshalTo([]byte(sub + ": "))), true
		}
		return sub, true
	case TypeAttachment:
		t := strBytes(v, "attachment", "type")
		return head([]byte("attachment: "+string(t)), max), !jsonl.HoldsBytes(t)
	}
	c := v.Get("message", "content")
	if c == nil {
		return "", true
	}
	if c.Type() == fastjson.TypeString {
		b, _ := c.StringBytes()
		return hd("", b, false), true
	}
	for _, b := range c.GetArray() {
		switch string(strBytes(b, "type")) {
		case "text":
			if t := strBytes(b, "text"); !lg.blank(t) {
				return hd("", t, false), true
			}
		case "tool_use", "server_tool_use":
			out := []byte("→ ")
			name := strBytes(b, "name")
			out = append(out, name...)
			out = append(out, ' ')
			if in := b.Get("input"); in != nil {
				out = in.MarshalTo(out)
			}
			return js(out), !jsonl.HoldsBytes(name)
		case "tool_result":
			pre := "← "
			if boolField(b, "is_error") {
				pre += "error: "
			}
			r := b.Get("content")
			switch {
			case r == nil:
			case r.Type() == fastjson.TypeString:
				x, _ := r.StringBytes()
				return hd(pre, x, true), true
			case r.Type() == fastjson.TypeArray:
				for _, x := range r.GetArray() {
					if string(strBytes(x, "type")) == "text" {
						return hd(pre, strBytes(x, "text"), true), true
					}
					if string(strBytes(x, "type")) == "image" {
						return head([]byte(pre+"[image]"), max), true
					}
				}
			}
			return head([]byte(pre), max), true
		case "thinking", "redacted_thinking":
			return "(thinking)", true
		case "image":
			return "[image]", true
		}
	}
	return "", true
}

// TreeJSON is the --json shape of the tree (same shape as for pi, uuids as
// ids, plus Claude-specific fields).
type TreeJSON struct {
	Format     string         `json:"format"`
	Path       string         `json:"path,omitempty"`
	LeafID     *string        `json:"leafId"`
	LeafMode   LeafMode       `json:"leafMode"`
	LeafModes  LeafChoice     `json:"leafModes"`
	Roots      []string       `json:"roots"`
	Nodes      []TreeNodeJSON `json:"nodes"`
	Orphans    []string       `json:"orphans"`
	Cycles     [][]string     `json:"cycles"`
	Duplicates []string       `json:"duplicates"`
	// BridgedProgress counts legacy progress lines bridged over.
	BridgedProgress int            `json:"bridgedProgress"`
	Subagents       []SubagentJSON `json:"subagents,omitempty"`
	// ContinuedIn links the session it was resumed into (continued-in).
	ContinuedIn  string `json:"continuedIn,omitempty"`
	RelocatedCwd string `json:"relocatedCwd,omitempty"`
}

// TreeNodeJSON is one node of TreeJSON.
type TreeNodeJSON struct {
	ID              string   `json:"id"`
	ParentID        *string  `json:"parentId"`
	Type            string   `json:"type"`
	Subtype         string   `json:"subtype,omitempty"`
	Role            string   `json:"role,omitempty"`
	Label           string   `json:"label,omitempty"`
	Line            int      `json:"line"`
	Timestamp       string   `json:"timestamp,omitempty"`
	Children        []string `json:"children"`
	Sidechain       bool     `json:"isSidechain,omitempty"`
	Fork            string   `json:"fork,omitempty"`
	Active          bool     `json:"active,omitempty"`
	LogicalParentID string   `json:"logicalParentUuid,omitempty"`
	Bridged         bool     `json:"bridgedProgress,omitempty"`
	ToolUseHolder   string   `json:"toolUseParentId,omitempty"`
	Subagents       []string `json:"subagents,omitempty"`
}

// JSON converts the tree to its --json shape. subs may be nil.
func (t *Tree) JSON(path string, mode LeafMode, choice LeafChoice, subs *Subagents) *TreeJSON {
	ids := func(ns []int) []string {
		out := make([]string, len(ns))
		for k, n := range ns {
			out[k] = t.Nodes[n].ID
		}
		return out
	}
	var trueRoots []int
	for i := range t.Nodes {
		if !t.Nodes[i].HasParent {
			trueRoots = append(trueRoots, i)
		}
	}
	j := &TreeJSON{Format: "claude-code", Path: path, LeafMode: mode, LeafModes: choice,
		Roots: ids(trueRoots), Orphans: ids(t.Orphans), Cycles: [][]string{}, Duplicates: t.Duplicates,
		Nodes: make([]TreeNodeJSON, len(t.Nodes)), BridgedProgress: t.Progress, ContinuedIn: t.ContinuedIn, RelocatedCwd: t.RelocatedCwd}
	if j.Duplicates == nil {
		j.Duplicates = []string{}
	}
	if t.Leaf >= 0 {
		id := t.Nodes[t.Leaf].ID
		j.LeafID = &id
	}
	for _, c := range t.Cycles {
		j.Cycles = append(j.Cycles, ids(c))
	}
	for i := range t.Nodes {
		n := &t.Nodes[i]
		tn := TreeNodeJSON{ID: n.ID, Type: n.Type, Subtype: n.Subtype, Role: n.Role, Line: n.Line,
			Children: ids(n.Children), Sidechain: n.Sidechain, Fork: n.Fork, Active: t.Active[i],
			LogicalParentID: n.LogicalParentID, Bridged: n.Bridged, ToolUseHolder: n.ToolUseHolder}
		if n.Time != 0 {
			tn.Timestamp = fmtTS(n.Time)
		}
		if n.HasParent {
			p := n.ParentID
			tn.ParentID = &p
		}
		j.Nodes[i] = tn
	}
	if subs != nil {
		index := map[string]int{}
		for i := range t.Nodes {
			index[t.Nodes[i].ID] = i
		}
		for _, s := range subs.Files {
			j.Subagents = append(j.Subagents, s.JSON())
			if s.ParentUUID != "" {
				if i, ok := index[s.ParentUUID]; ok {
					j.Nodes[i].Subagents = append(j.Nodes[i].Subagents, s.AgentID)
				}
			}
		}
	}
	return j
}

// String is a short description of a node for messages.
func (n *TreeNode) String() string {
	return fmt.Sprintf("%s %s (line %d)", short(n.ID), n.Type, n.Line)
}

// SetLeaf marks leaf (a uuid or unique prefix) and its loader path instead
// of the mode's leaf.
func (t *Tree) SetLeaf(f *File, leaf string) error {
	nd, err := f.resolveLeaf(leaf)
	if err != nil {
		return err
	}
	p, err := f.Walk(f.uuidOf(nd), false)
	if err != nil {
		return err
	}
	index := make(map[string]int, len(t.Nodes))
	for i := range t.Nodes {
		index[t.Nodes[i].ID] = i
	}
	for i := range t.Active {
		t.Active[i] = false
	}
	for _, u := range p.UUIDs(f) {
		if i, ok := index[u]; ok {
			t.Active[i] = true
		}
	}
	t.Leaf = index[f.uuidOf(nd)]
	return nil
}

// holderIfNotParent returns the uuid of the line holding the tool_use that
// node nd's tool_result answers, when it is not nd's parent.
func (f *File) holderIfNotParent(nd int32) string {
	h, ok := f.toolResHold[f.nLast[nd]]
	if !ok {
		return ""
	}
	hu := f.lines[h].uuid
	if hu < 0 || hu == f.effPar[nd] {
		return ""
	}
	return f.ids.str(hu)
}
