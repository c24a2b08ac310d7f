package claude

import (
	"fmt"
	"path/filepath"
	"sort"
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
	// ids, with NoText, fills the blocks' ID and ToolUseID (PathProblems).
	ids bool
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
		if par < 0 && f.externalParentOf(cur) {
			p.warn(f, WarnParentInSession, cur, "parent %s is a record of the parent session %s; the subagent's conversation starts here",
				short(f.ids.str(f.effPar[cur])), filepath.Base(f.ParentSession))
			break
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
