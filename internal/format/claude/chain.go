package claude

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/valyala/fastjson"
)

// Walk warning codes.
const (
	WarnParentRepaired  = "parent-repaired"          // dangling/visited parent replaced by the 5 s rule
	WarnChainCut        = "chain-cut"                // parent missing and no repair: earlier history unreachable
	WarnCycle           = "cycle-stop"               // the walk met a record twice
	WarnBoundary        = "compaction-boundary"      // the walk stopped at a compact boundary
	WarnLogicalMissing  = "logical-parent-missing"   // --across-compactions: logicalParentUuid not in file
	WarnRelinked        = "preserved-relink"         // the preserved segment was relinked
	WarnRelinkSkipped   = "preserved-relink-skipped" // the preserved segment could not be relinked
	WarnRescued         = "rescued-siblings"         // off-chain lines of a message.id re-attached
	WarnLeafDescendants = "leaf-descendants"         // trailing non-conversation records appended
	WarnPrecompactSkip  = "precompact-skip"          // over 5 MB: records before the last plain boundary are not loaded
	WarnEmptyResume     = "empty-resume"             // a final explicit null last-prompt: Claude Code resumes nothing
)

// repairWindowMS is the parent-repair window of the current loader.
const repairWindowMS = 5000

// Path is the ordered list of records Claude Code would load for one leaf.
type Path struct {
	Leaf     string
	nodes    []int32
	rescued  map[int32]bool
	pre      []bool // node is before a crossed compaction boundary
	loader   bool   // loader graph (relink applied) rather than the file's
	Warnings []Problem
	// NoText makes EachTurn fill only the block types of Turn.Blocks (for
	// JSON output, which needs Content only).
	NoText bool
	// SentOnly makes EachTurn give exactly what Claude Code sends: turns,
	// lines and content blocks it drops before the request are left out.
	SentOnly bool
	// Empty is true when Claude Code resumes an empty conversation (a final
	// last-prompt with leafUuid null and explicit true).
	Empty bool

	notSent    map[int32]string // node -> reason it is not sent (send plan)
	dropBlocks map[int32][]int  // node -> content blocks not sent
}

func (p *Path) parentOf(f *File, nd int32) int32 {
	if p.loader {
		return f.lparent(nd)
	}
	q := f.parent[nd]
	if q == nd {
		return nd
	}
	return q
}

func (p *Path) removed(f *File, nd int32) bool { return p.loader && f.removed(nd) }

// Lines returns the 1-based line numbers of the path, in chain order.
func (p *Path) Lines(f *File) []int {
	out := make([]int, len(p.nodes))
	for i, nd := range p.nodes {
		out[i] = int(f.lines[f.nLast[nd]].ln)
	}
	return out
}

// UUIDs returns the uuids of the path, in chain order.
func (p *Path) UUIDs(f *File) []string {
	out := make([]string, len(p.nodes))
	for i, nd := range p.nodes {
		out[i] = f.uuidOf(nd)
	}
	return out
}

// Len is the number of records on the path.
func (p *Path) Len() int { return len(p.nodes) }

// Walk builds the path from leaf ("" = the last-prompt leaf) to the root as
// the loader does: parentUuid only, a missing or already visited parent
// repaired to the nearest unvisited record of the same isSidechain at most
// 5 s earlier, a cycle or a compact boundary ends it. With
// acrossCompactions the walk steps over each boundary through its
// logicalParentUuid. Off-chain lines of the same message.id and their
// tool results are re-attached after the last on-chain member of their
// message, and non-conversation records below the leaf are appended.
func (f *File) Walk(leaf string, acrossCompactions bool) (*Path, error) {
	if leaf == "" && f.ResumesEmpty() {
		p := &Path{Empty: true, rescued: map[int32]bool{}}
		lr := f.lines[f.recorded.line-1]
		p.Warnings = append(p.Warnings, Problem{Code: WarnEmptyResume, Line: int(lr.ln),
			Msg: "the last last-prompt line clears the leaf (leafUuid null, explicit true) and no record follows it: Claude Code resumes an empty conversation (--leaf or --leaf-mode shows the history)"})
		return p, nil
	}
	ln, err := f.resolveLeaf(leaf)
	if err != nil {
		return nil, err
	}
	nn := len(f.nFirst)
	visited := make([]bool, nn)
	p := &Path{Leaf: f.uuidOf(ln), rescued: map[int32]bool{}, pre: make([]bool, nn), loader: !acrossCompactions}
	if f.relink != nil && !acrossCompactions {
		if f.relink.ok {
			p.warn(f, WarnRelinked, f.relink.boundary, "preserved segment %s..%s relinked under %s; %d older records dropped by the loader",
				short(f.relink.head), short(f.relink.tail), short(f.relink.anchor), countTrue(f.relink.removed))
		} else {
			p.warn(f, WarnRelinkSkipped, f.relink.boundary, "%s", f.relink.reason)
		}
	}
	if f.skipLine >= 0 && !acrossCompactions {
		n := 0
		for nd := range f.nLast {
			if f.member[nd] && f.nLast[nd] < f.skipLine {
				n++
			}
		}
		lr := f.lines[f.skipLine]
		p.Warnings = append(p.Warnings, Problem{Code: WarnPrecompactSkip, Line: int(lr.ln), UUID: f.ids.str(lr.uuid),
			Msg: fmt.Sprintf("file over 5 MB: Claude Code does not load the %d records before the last compact boundary (unless CLAUDE_CODE_DISABLE_PRECOMPACT_SKIP is set)", n)})
	}
	var ts *tsTable
	var rev []int32
	crossed := false
	cur := ln
	for cur >= 0 {
		if visited[cur] {
			p.warn(f, WarnCycle, cur, "walk met %s twice; stopped", short(f.uuidOf(cur)))
			break
		}
		visited[cur] = true
		rev = append(rev, cur)
		if crossed {
			p.pre[cur] = true
		}
		if f.isBoundary(cur) && f.effPar[cur] < 0 {
			if !acrossCompactions {
				p.warn(f, WarnBoundary, cur, "stopped at compact boundary (use --across-compactions to see the earlier history)")
				break
			}
			lp := f.lines[f.nLast[cur]].lpar
			next := int32(-1)
			if lp >= 0 {
				next = f.nodeOf[lp]
			}
			if next >= 0 && f.member[next] && visited[next] {
				p.warn(f, WarnCycle, cur, "logicalParentUuid %s is already on the path; stopped", short(f.ids.str(lp)))
				break
			}
			if next < 0 || !f.member[next] {
				if lp >= 0 {
					p.warn(f, WarnLogicalMissing, cur, "logicalParentUuid %s is not in this file; earlier history unreachable", short(f.ids.str(lp)))
				}
				break
			}
			crossed = true
			cur = next
			continue
		}
		par := p.parentOf(f, cur)
		if par >= 0 && !visited[par] {
			cur = par
			continue
		}
		if f.effPar[cur] < 0 && par < 0 {
			break // a root
		}
		// parent missing, deleted or already visited: the 5 s repair
		if ts == nil {
			ts = f.buildTS(p)
		}
		rep := ts.repair(f, cur, visited)
		if rep >= 0 {
			p.warn(f, WarnParentRepaired, cur, "parent %s %s; loader re-attaches to %s (same sidechain, ≤5 s earlier)",
				short(f.ids.str(f.effPar[cur])), missingWhy(f, par, visited), short(f.uuidOf(rep)))
			cur = rep
			continue
		}
		if par >= 0 && visited[par] {
			p.warn(f, WarnCycle, cur, "parent %s already on the path; stopped", short(f.uuidOf(par)))
		} else {
			p.warn(f, WarnChainCut, cur, "parent %s is not in the file; everything before it is unreachable", short(f.ids.str(f.effPar[cur])))
		}
		break
	}
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	p.nodes = f.rescue(rev, visited, p)
	// non-conversation descendants of the leaf
	var tailAdd []int32
	queue := []int32{ln}
	for len(queue) > 0 {
		x := queue[0]
		queue = queue[1:]
		for _, c := range f.kids(x) {
			if visited[c] || f.isConv(c) || p.removed(f, c) {
				continue
			}
			visited[c] = true
			tailAdd = append(tailAdd, c)
			queue = append(queue, c)
		}
	}
	if len(tailAdd) > 0 {
		sort.SliceStable(tailAdd, func(i, j int) bool { return tailAdd[i] < tailAdd[j] })
		p.nodes = append(p.nodes, tailAdd...)
		p.warn(f, WarnLeafDescendants, ln, "%d non-conversation records below the leaf appended", len(tailAdd))
	}
	return p, nil
}

func missingWhy(f *File, par int32, visited []bool) string {
	if par >= 0 && visited[par] {
		return "is already on the path"
	}
	return "is not loaded"
}

// rescue re-attaches off-chain assistant lines that share a message.id with
// an on-chain assistant line, and tool_result lines whose parent is any
// member of such a group, after the last on-chain member, each list sorted by
// timestamp.
func (f *File) rescue(path []int32, visited []bool, p *Path) []int32 {
	// onMsg: message.id number -> index in path of its last on-chain member + 1
	onMsg := make([]int32, len(f.msgIDs.s))
	any := false
	for i, nd := range path {
		lr := &f.lines[f.nLast[nd]]
		if f.names[lr.typ] == TypeAssistant && lr.msgID >= 0 {
			onMsg[lr.msgID] = int32(i) + 1
			any = true
		}
	}
	if !any {
		return path
	}
	nn := len(f.nFirst)
	inGroup := make([]int32, nn) // node -> message.id number + 1 of its group
	for _, nd := range path {
		lr := &f.lines[f.nLast[nd]]
		if f.names[lr.typ] == TypeAssistant && lr.msgID >= 0 {
			inGroup[nd] = lr.msgID + 1
		}
	}
	sibs := map[int32][]int32{}
	for nd := int32(0); int(nd) < nn; nd++ {
		if visited[nd] || !f.member[nd] || p.removed(f, nd) || f.nodeType(nd) != TypeAssistant {
			continue
		}
		m := f.lines[f.nLast[nd]].msgID
		if m < 0 || onMsg[m] == 0 {
			continue
		}
		sibs[m] = append(sibs[m], nd)
		inGroup[nd] = m + 1
		visited[nd] = true
	}
	res := map[int32][]int32{}
	for nd := int32(0); int(nd) < nn; nd++ {
		if visited[nd] || !f.member[nd] || p.removed(f, nd) || f.nodeType(nd) != TypeUser {
			continue
		}
		if f.lines[f.nLast[nd]].flags&fToolResult == 0 {
			continue
		}
		par := p.parentOf(f, nd)
		if par < 0 || inGroup[par] == 0 {
			continue
		}
		m := inGroup[par] - 1
		res[m] = append(res[m], nd)
		visited[nd] = true
	}
	if len(sibs) == 0 && len(res) == 0 {
		return path
	}
	after := map[int][]int32{}
	total := 0
	byTS := func(s []int32) {
		sort.SliceStable(s, func(i, j int) bool { return tsLess(f.ts(s[i]), f.ts(s[j])) })
	}
	for m, i1 := range onMsg {
		if i1 == 0 {
			continue
		}
		i := int(i1 - 1)
		s, r := sibs[int32(m)], res[int32(m)]
		if len(s)+len(r) == 0 {
			continue
		}
		byTS(s)
		byTS(r)
		after[i] = append(append(after[i], s...), r...)
		total += len(s) + len(r)
	}
	out := make([]int32, 0, len(path)+total)
	for i, nd := range path {
		out = append(out, nd)
		for _, x := range after[i] {
			out = append(out, x)
			p.rescued[x] = true
			if p.pre[nd] {
				p.pre[x] = true
			}
		}
	}
	p.warn(f, WarnRescued, path[len(path)-1], "%d off-chain lines of on-chain messages (split blocks, parallel tool results) re-attached", total)
	return out
}

func tsLess(a, b int64) bool { return a < b }

// tsTable is the timestamp-sorted list of live records, built on first use.
type tsTable struct {
	ts    []int64
	nodes []int32
}

func (f *File) buildTS(p *Path) *tsTable {
	t := &tsTable{}
	for nd := int32(0); int(nd) < len(f.nFirst); nd++ {
		if !f.member[nd] || p.removed(f, nd) || f.ts(nd) == noTS {
			continue
		}
		t.nodes = append(t.nodes, nd)
	}
	sort.SliceStable(t.nodes, func(i, j int) bool { return f.ts(t.nodes[i]) < f.ts(t.nodes[j]) })
	t.ts = make([]int64, len(t.nodes))
	for i, nd := range t.nodes {
		t.ts[i] = f.ts(nd)
	}
	return t
}

// repair finds the nearest unvisited record with the same isSidechain whose
// timestamp is at most 5 s before nd's.
func (t *tsTable) repair(f *File, nd int32, visited []bool) int32 {
	now := f.ts(nd)
	if now == noTS {
		return -1
	}
	side := f.sidechain(nd)
	at := sort.Search(len(t.ts), func(i int) bool { return t.ts[i] > now })
	best := int32(-1)
	for at > 0 {
		at--
		if now-t.ts[at] > repairWindowMS || best >= 0 && t.ts[at] < f.ts(best) {
			break
		}
		k := t.nodes[at]
		if !visited[k] && f.sidechain(k) == side {
			best = k // records of one timestamp: the first written wins
		}
	}
	return best
}

func (p *Path) warn(f *File, code string, nd int32, msg string, args ...any) {
	lr := f.lines[f.nLast[nd]]
	p.Warnings = append(p.Warnings, Problem{Code: code, Line: int(lr.ln), UUID: f.ids.str(lr.uuid), Msg: fmt.Sprintf(msg, args...)})
}

func short(u string) string {
	if len(u) > 8 && isUUID(u) {
		return u[:8]
	}
	return u
}

func countTrue(b []bool) int {
	n := 0
	for _, x := range b {
		if x {
			n++
		}
	}
	return n
}

// Turn is one message of the conversation: one line, or several assistant
// lines of the same message.id merged.
type Turn struct {
	UUID              string            `json:"uuid"`
	UUIDs             []string          `json:"uuids,omitempty"` // all merged lines when more than one
	Type              string            `json:"type"`
	Subtype           string            `json:"subtype,omitempty"`
	Role              string            `json:"role,omitempty"`
	Timestamp         string            `json:"timestamp,omitempty"`
	Content           []json.RawMessage `json:"content"`
	Model             string            `json:"model,omitempty"`
	Usage             json.RawMessage   `json:"usage,omitempty"`
	MessageID         string            `json:"messageId,omitempty"`
	IsMeta            bool              `json:"isMeta,omitempty"`
	IsCompactSummary  bool              `json:"isCompactSummary,omitempty"`
	IsSidechain       bool              `json:"isSidechain,omitempty"`
	IsAPIError        bool              `json:"isApiError,omitempty"`
	LogicalParentUUID string            `json:"logicalParentUuid,omitempty"`
	CompactMetadata   json.RawMessage   `json:"compactMetadata,omitempty"`
	Rescued           bool              `json:"rescued,omitempty"`
	// Sent is true when Claude Code sends the turn (or part of it) to the
	// model; NotSent says why not, Dropped lists each line or content block
	// left out (see the NotSent* reasons).
	Sent          bool   `json:"sent"`
	NotSent       string `json:"notSent,omitempty"`
	Dropped       []Drop `json:"dropped,omitempty"`
	PreCompaction bool   `json:"preCompaction,omitempty"`
	Lines         []int  `json:"lines"`
	// Blocks is the decoded view of Content, for human output.
	Blocks []Block `json:"-"`
}

// Block is a decoded content block.
type Block struct {
	Type      string // text, thinking, redacted_thinking, tool_use, tool_result, image, ...
	Text      string // text, thinking, or the text of a tool_result
	Name      string // tool_use name
	ID        string // tool_use id
	ToolUseID string // tool_result tool_use_id
	Input     string // tool_use input as compact JSON
	IsError   bool
	MIME      string // image media type
	Size      int64  // decoded image size estimate, -1 when unknown
}

// EachTurn decodes the path's lines one by one and calls fn for each turn,
// merging consecutive assistant lines of one message.id (tool results
// between them move after the merged turn). Only one turn is held at a time.
func (f *File) EachTurn(p *Path, fn func(*Turn) error) error {
	var parser fastjson.Parser
	var cur *Turn
	var held []*Turn
	f.sendPlan(p)
	flush := func() error {
		if cur != nil {
			if err := fn(cur); err != nil {
				return err
			}
			cur = nil
		}
		for _, h := range held {
			if err := fn(h); err != nil {
				return err
			}
		}
		held = held[:0]
		return nil
	}
	for _, nd := range p.nodes {
		li := f.nLast[nd]
		t, err := f.decodeTurn(&parser, li, !p.NoText)
		if err != nil {
			return err
		}
		t.Rescued = p.rescued[nd]
		t.PreCompaction = p.pre[nd]
		p.markSend(t, nd)
		if p.SentOnly {
			if !t.Sent {
				continue
			}
			t.dropSentBlocks()
		}
		if cur != nil && t.Type == TypeAssistant && t.MessageID != "" && t.MessageID == cur.MessageID {
			cur.merge(t)
			continue
		}
		if cur != nil && t.Type == TypeUser && onlyToolResults(t) {
			held = append(held, t)
			continue
		}
		if err := flush(); err != nil {
			return err
		}
		if t.Type == TypeAssistant && t.MessageID != "" {
			cur = t
			continue
		}
		if err := fn(t); err != nil {
			return err
		}
	}
	return flush()
}

func onlyToolResults(t *Turn) bool {
	if len(t.Blocks) == 0 {
		return false
	}
	for _, b := range t.Blocks {
		if b.Type != "tool_result" {
			return false
		}
	}
	return true
}

func (t *Turn) merge(o *Turn) {
	if len(t.UUIDs) == 0 {
		t.UUIDs = []string{t.UUID}
	}
	t.UUIDs = append(t.UUIDs, o.UUID)
	t.Content = append(t.Content, o.Content...)
	t.Blocks = append(t.Blocks, o.Blocks...)
	t.Lines = append(t.Lines, o.Lines...)
	if len(o.Usage) > 0 {
		t.Usage = o.Usage // later blocks carry the final usage
	}
	if t.Model == "" {
		t.Model = o.Model
	}
	t.IsAPIError = t.IsAPIError || o.IsAPIError
	t.Rescued = t.Rescued && o.Rescued
	t.mergeSend(o)
}

// Chain returns the conversation for leaf ("" = the last-prompt leaf) as
// turns, with the walk's warnings.
func (f *File) Chain(leaf string, acrossCompactions bool) ([]Turn, []Problem, error) {
	p, err := f.Walk(leaf, acrossCompactions)
	if err != nil {
		return nil, nil, err
	}
	var out []Turn
	err = f.EachTurn(p, func(t *Turn) error {
		out = append(out, *t)
		return nil
	})
	return out, p.Warnings, err
}

func rawJSON(v *fastjson.Value) json.RawMessage {
	if v == nil {
		return nil
	}
	return json.RawMessage(v.MarshalTo(nil))
}

func textBlock(s string) json.RawMessage {
	b, _ := json.Marshal(map[string]string{"type": "text", "text": s})
	return b
}

// decodeTurn reads and decodes line li.
func (f *File) decodeTurn(p *fastjson.Parser, li int32, text bool) (*Turn, error) {
	v, _, err := f.parseLine(p, li)
	if err != nil {
		return nil, fmt.Errorf("line %d: %w", f.lines[li].ln, err)
	}
	lr := f.lines[li]
	t := &Turn{
		UUID:        f.ids.str(lr.uuid),
		Type:        f.names[lr.typ],
		Subtype:     f.names[lr.sub],
		Timestamp:   string(strBytes(v, "timestamp")),
		Lines:       []int{int(lr.ln)},
		IsMeta:      lr.flags&fMeta != 0,
		IsSidechain: lr.flags&fSidechain != 0,
		IsAPIError:  lr.flags&fAPIError != 0,
	}
	t.IsCompactSummary = lr.flags&fCompactSummary != 0
	msg := v.Get("message")
	switch t.Type {
	case TypeUser, TypeAssistant:
		if msg != nil {
			t.Role = string(strBytes(msg, "role"))
			t.Model = string(strBytes(msg, "model"))
			if t.Type == TypeAssistant {
				t.MessageID = string(strBytes(msg, "id"))
				if u := msg.Get("usage"); u != nil {
					t.Usage = rawJSON(u)
				}
			}
			c := msg.Get("content")
			switch {
			case c == nil:
			case c.Type() == fastjson.TypeString:
				s, _ := c.StringBytes()
				t.Content = []json.RawMessage{textBlock(string(s))}
				t.Blocks = []Block{{Type: "text"}}
				if text {
					t.Blocks[0].Text = string(s)
				}
			case c.Type() == fastjson.TypeArray:
				for _, b := range c.GetArray() {
					t.Content = append(t.Content, rawJSON(b))
					if text {
						t.Blocks = append(t.Blocks, decodeBlock(b))
					} else {
						t.Blocks = append(t.Blocks, Block{Type: string(strBytes(b, "type"))})
					}
				}
			default:
				t.Content = []json.RawMessage{rawJSON(c)}
				t.Blocks = []Block{{Type: "unknown", Text: string(c.MarshalTo(nil))}}
			}
		}
		if t.Role == "" {
			t.Role = t.Type
		}
	case TypeSystem:
		t.Role = "system"
		if c := v.Get("content"); c != nil && c.Type() == fastjson.TypeString {
			s, _ := c.StringBytes()
			t.Content = []json.RawMessage{textBlock(string(s))}
			t.Blocks = []Block{{Type: "text", Text: string(s)}}
		}
		if t.Subtype == SubtypeCompactBoundary {
			t.LogicalParentUUID = string(strBytes(v, "logicalParentUuid"))
			t.CompactMetadata = rawJSON(v.Get("compactMetadata"))
		}
		if t.Subtype == "api_error" {
			if e := v.Get("error"); e != nil {
				s := compactJSON(e)
				t.Blocks = append(t.Blocks, Block{Type: "text", Text: s})
			}
		}
	case TypeAttachment:
		a := v.Get("attachment")
		if a != nil {
			t.Subtype = string(strBytes(a, "type"))
			t.Content = []json.RawMessage{rawJSONWrap("attachment", a)}
			t.Blocks = []Block{{Type: "attachment", Name: t.Subtype}}
		}
	}
	if t.Content == nil {
		t.Content = []json.RawMessage{}
	}
	return t, nil
}

func rawJSONWrap(kind string, v *fastjson.Value) json.RawMessage {
	b := []byte(`{"type":"` + kind + `","` + kind + `":`)
	b = v.MarshalTo(b)
	b = append(b, '}')
	return b
}

func compactJSON(v *fastjson.Value) string {
	if v.Type() == fastjson.TypeString {
		s, _ := v.StringBytes()
		return string(s)
	}
	return string(v.MarshalTo(nil))
}

func decodeBlock(b *fastjson.Value) Block {
	out := Block{Type: string(strBytes(b, "type")), Size: -1}
	switch out.Type {
	case "image":
		out.MIME = string(strBytes(b, "source", "media_type"))
		if d := strBytes(b, "source", "data"); d != nil {
			out.Size = int64(len(d)) * 3 / 4
		}
	case "text":
		out.Text = string(strBytes(b, "text"))
	case "thinking":
		out.Text = string(strBytes(b, "thinking"))
	case "tool_use", "server_tool_use":
		out.Name = string(strBytes(b, "name"))
		out.ID = string(strBytes(b, "id"))
		if in := b.Get("input"); in != nil {
			out.Input = string(in.MarshalTo(nil))
		}
	case "tool_result":
		out.ToolUseID = string(strBytes(b, "tool_use_id"))
		out.IsError = boolField(b, "is_error")
		c := b.Get("content")
		switch {
		case c == nil:
		case c.Type() == fastjson.TypeString:
			s, _ := c.StringBytes()
			out.Text = string(s)
		case c.Type() == fastjson.TypeArray:
			for _, x := range c.GetArray() {
				switch string(strBytes(x, "type")) {
				case "text":
					if out.Text != "" {
						out.Text += "\n"
					}
					out.Text += string(strBytes(x, "text"))
				case "image":
					out.Text += "[image]"
				}
			}
		}
	}
	return out
}
