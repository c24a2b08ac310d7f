package claude

// The graph built after the last line: nodes, the progress bridge,
// parents, children, cycles; and the index accessors.

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/valyala/fastjson"
)

// finish builds the graph after the last line.
func (f *File) finish() {
	f.top = top{} // drop pointers into the reader's parser
	nIDs := len(f.ids.s)
	f.nodeOf = make([]int32, nIDs)
	for i := range f.nodeOf {
		f.nodeOf[i] = -1
	}
	// nodes in order of first occurrence; value = last occurrence
	for li := range f.lines {
		lr := &f.lines[li]
		if lr.uuid < 0 || !f.isGraphType(lr.typ) {
			continue
		}
		if nd := f.nodeOf[lr.uuid]; nd >= 0 {
			f.nLast[nd] = int32(li)
			first := f.lines[f.nFirst[nd]]
			f.addProblem(ProbDuplicateUUID, int(lr.ln), f.ids.str(lr.uuid),
				"uuid also on line %d; Claude Code keeps the first position and this later value", first.ln)
			continue
		}
		nd := int32(len(f.nFirst))
		f.nodeOf[lr.uuid] = nd
		f.nFirst = append(f.nFirst, int32(li))
		f.nLast = append(f.nLast, int32(li))
	}
	nn := len(f.nFirst)
	f.member = make([]bool, nn)
	for nd := 0; nd < nn; nd++ {
		f.member[nd] = f.typeName(f.nLast[nd]) != TypeProgress
	}
	// progress bridge: effective parent id of every node
	f.effPar = make([]int32, nn)
	bridge := make([]int32, nn) // for progress nodes: resolved id (-2 = not yet)
	for i := range bridge {
		bridge[i] = -2
	}
	var resolve func(nd int32) int32
	resolve = func(nd int32) int32 {
		// iterative resolution through runs of progress nodes with a cycle guard
		var stack []int32
		cur := nd
		var out int32
		for steps := 0; ; steps++ {
			if bridge[cur] != -2 {
				out = bridge[cur]
				break
			}
			if steps > nn {
				out = -1
				break
			}
			bridge[cur] = -3 // in progress (cycle guard)
			stack = append(stack, cur)
			p := f.lines[f.nLast[cur]].parent
			if p < 0 {
				out = -1
				break
			}
			pn := f.nodeOf[p]
			if pn < 0 || f.member[pn] {
				out = p
				break
			}
			if bridge[pn] == -3 { // progress cycle
				out = -1
				break
			}
			cur = pn
		}
		if out == -3 {
			out = -1
		}
		for _, s := range stack {
			bridge[s] = out
		}
		return out
	}
	progressInChain := 0
	firstProgressLine := 0
	for nd := int32(0); int(nd) < nn; nd++ {
		lr := &f.lines[f.nLast[nd]]
		p := lr.parent
		f.effPar[nd] = p
		if p < 0 {
			continue
		}
		pn := f.nodeOf[p]
		if pn >= 0 && !f.member[pn] {
			f.effPar[nd] = resolve(pn)
			if f.member[nd] {
				progressInChain++
				if firstProgressLine == 0 {
					firstProgressLine = int(lr.ln)
				}
				if f.nFirst[pn] > f.nLast[nd] {
					f.addProblem(ProbProgressForward, int(lr.ln), f.ids.str(lr.uuid),
						"parent is a progress line written later (line %d); Claude Code 2.1.85's single-pass bridge loses this link", f.lines[f.nFirst[pn]].ln)
				}
			}
		}
	}
	if progressInChain > 0 {
		f.addProblem(ProbLegacyProgress, firstProgressLine, "",
			"%d messages hang on legacy progress lines (bridged to the nearest non-progress ancestor)", progressInChain)
	}
	// parents and children among members
	f.parent = make([]int32, nn)
	counts := make([]int32, nn)
	for nd := 0; nd < nn; nd++ {
		f.parent[nd] = -1
		if !f.member[nd] || f.effPar[nd] < 0 {
			continue
		}
		pn := f.nodeOf[f.effPar[nd]]
		if pn < 0 || !f.member[pn] {
			lr := f.lines[f.nLast[nd]]
			f.addProblem(ProbDanglingParent, int(lr.ln), f.ids.str(lr.uuid),
				"parentUuid %s names no record in this file; the chain is cut here", f.ids.str(f.effPar[nd]))
			continue
		}
		f.parent[nd] = pn
		if pn == int32(nd) {
			lr := f.lines[f.nLast[nd]]
			f.addProblem(ProbSelfParent, int(lr.ln), f.ids.str(lr.uuid), "record names itself as parent")
			continue
		}
		counts[pn]++
	}
	// children in compressed rows: kidList[kidStart[nd]:kidStart[nd+1]]
	f.kidStart = make([]int32, nn+1)
	for nd := 0; nd < nn; nd++ {
		f.kidStart[nd+1] = f.kidStart[nd] + counts[nd]
	}
	f.kidList = make([]int32, f.kidStart[nn])
	fill := make([]int32, nn)
	for nd := 0; nd < nn; nd++ {
		p := f.parent[nd]
		if p >= 0 && p != int32(nd) {
			f.kidList[f.kidStart[p]+fill[p]] = int32(nd)
			fill[p]++
		}
	}
	f.findCycles()
	for _, c := range f.cycles {
		lr := f.lines[f.nLast[c[0]]]
		f.addProblem(ProbCycle, int(lr.ln), f.ids.str(lr.uuid), "parentUuid cycle of %d records", len(c))
	}
	// tool results -> assistant line holding the tool_use
	for _, pr := range f.pendingRes {
		if h, ok := f.toolUse[pr.id]; ok {
			if f.toolResHold == nil {
				f.toolResHold = map[int32]int32{}
			}
			f.toolResHold[pr.line] = h
		}
	}
	f.pendingRes = nil
	// summaries whose leaf is not in this file, in the order of their
	// leaves (a map's order would change from run to run)
	for _, leaf := range slices.Sorted(maps.Keys(f.Meta.Summaries)) {
		if f.nodeByUUID(leaf) < 0 {
			f.addProblem(ProbSummaryElse, 0, leaf, "summary line names leaf %s, which is not in this file (older CLIs appended the previous session's summary here)", leaf)
		}
	}
	if f.Size > MaxRewriteBytes {
		f.addProblem(ProbOver50MB, 0, "", "file is %d bytes, over 50 MB: Claude Code refuses full rewrites and sharing", f.Size)
	} else if f.Size > PrecompactSkipBytes {
		f.addProblem(ProbOver5MB, 0, "", "file is %d bytes, over 5 MB: Claude Code skips pre-compaction history and walks the chain by bytes", f.Size)
	}
	if nn == 0 {
		f.addProblem(ProbEmpty, 0, "", "no transcript messages")
	}
	f.sideOnly = f.SidechainOnly()
	f.skipLine = -1
	if f.Size > PrecompactSkipBytes {
		// Claude Code reads files over 5 MB forward and drops every byte
		// before the last compact boundary that has no preserved segment.
		for li := len(f.lines) - 1; li >= 0; li-- {
			lr := &f.lines[li]
			if lr.kind == jsonl.Object && f.names[lr.typ] == TypeSystem && f.names[lr.sub] == SubtypeCompactBoundary {
				if lr.flags&fPreserved == 0 {
					f.skipLine = int32(li)
				}
				break
			}
		}
	}
	f.relink = f.computeRelink()
	sortProblems(f.problems)
}

func (f *File) checkSessionName() {
	base := strings.TrimSuffix(filepath.Base(f.Path), ".jsonl")
	if !isUUID(base) {
		return
	}
	for _, s := range f.sessionIDs {
		if s != base {
			f.addProblem(ProbSessionMismatch, 0, "", "file holds lines of session %s (fork/resume copies keep the source id)", s)
			sortProblems(f.problems)
			return
		}
	}
}

func (f *File) findCycles() {
	nn := len(f.parent)
	f.inCycle = make([]bool, nn)
	state := make([]uint8, nn)
	var walk []int32
	for s := 0; s < nn; s++ {
		if state[s] != 0 || !f.member[s] {
			continue
		}
		walk = walk[:0]
		v := int32(s)
		for v >= 0 && state[v] == 0 {
			state[v] = 1
			walk = append(walk, v)
			p := f.parent[v]
			if p == v {
				break
			}
			v = p
		}
		if v >= 0 && state[v] == 1 && f.parent[v] != v {
			var cyc []int32
			for k := len(walk) - 1; k >= 0; k-- {
				cyc = append(cyc, walk[k])
				if walk[k] == v {
					break
				}
			}
			// cyc runs parent -> child; start from the earliest node in file order
			mi := 0
			for i := range cyc {
				if cyc[i] < cyc[mi] {
					mi = i
				}
			}
			cyc = append(cyc[mi:], cyc[:mi]...)
			for _, c := range cyc {
				f.inCycle[c] = true
			}
			f.cycles = append(f.cycles, cyc)
		}
		for _, w := range walk {
			state[w] = 2
		}
	}
}

func (f *File) isGraphType(t uint16) bool {
	switch f.names[t] {
	case TypeUser, TypeAssistant, TypeAttachment, TypeSystem, TypeProgress:
		return true
	}
	return false
}

func (f *File) typeName(li int32) string { return f.names[f.lines[li].typ] }

func (f *File) nodeByUUID(u string) int32 {
	id := f.ids.lookup(u)
	if id < 0 {
		return -1
	}
	return f.nodeOf[id]
}

// lineLen is the on-disk length of line li, newline included.
func (f *File) lineLen(li int32) int64 {
	if n, ok := f.big[li]; ok {
		return n
	}
	return int64(f.lines[li].n)
}

// RawLine returns the bytes of 1-based line number ln as stored, without the
// newline.
func (f *File) RawLine(ln int) ([]byte, error) {
	li := int32(ln - 1)
	if li < 0 || int(li) >= len(f.lines) {
		return nil, fmt.Errorf("line %d out of range", ln)
	}
	return f.rawLine(li)
}

func (f *File) rawLine(li int32) ([]byte, error) {
	if f.ra == nil {
		return nil, errors.New("transcript was not opened for random access")
	}
	lr := f.lines[li]
	b, err := jsonl.ReadLineAt(f.ra, lr.off, f.lineLen(li))
	if err != nil {
		return nil, err
	}
	return b, nil
}

// parseLine reads and parses line li. The returned value is owned by p.
func (f *File) parseLine(p *fastjson.Parser, li int32) (*fastjson.Value, []byte, error) {
	raw, err := f.rawLine(li)
	if err != nil {
		return nil, nil, err
	}
	body := raw
	if li == 0 {
		body = bytes.TrimPrefix(body, jsonl.BOM)
	}
	body = bytes.TrimSuffix(body, []byte("\r"))
	v, err := p.ParseBytes(body)
	if err != nil {
		return nil, raw, err
	}
	return v, raw, nil
}

// Problems returns the problems found while indexing, in line order. Leaf
// disagreement is added by LeafModes.
func (f *File) Problems() []Problem {
	out := append([]Problem(nil), f.problems...)
	if p, err := f.Walk("", false); err == nil && !p.Empty {
		if off, conv := f.offPath(p, true); conv >= 3 && off*2 > conv {
			out = append(out, Problem{Code: ProbMostOffPath, Msg: fmt.Sprintf("%d of the %d user/assistant records are not on the conversation Claude Code resumes (other branches, or records that lost their parent; tree shows them)", off, conv)})
		}
	}
	if lm := f.LeafModes(); lm.Disagree {
		out = append(out, Problem{Code: ProbLeafDisagree, UUID: lm.Modes[LeafLastPrompt], Msg: lm.Summary()})
	}
	return out
}

// Lines is the number of physical lines.
func (f *File) Lines() int { return len(f.lines) }

// Messages is the number of distinct chain members (user, assistant,
// attachment, system lines with a uuid; duplicates counted once).
func (f *File) Messages() int {
	n := 0
	for _, m := range f.member {
		if m {
			n++
		}
	}
	return n
}

// TypeCounts counts lines by type ("" types under "(no type)").
func (f *File) TypeCounts() map[string]int {
	out := map[string]int{}
	for _, lr := range f.lines {
		if lr.kind != jsonl.Object {
			out["("+lr.kind.String()+")"]++
			continue
		}
		t := f.names[lr.typ]
		if t == "" {
			t = "(no type)"
		}
		out[t]++
	}
	return out
}

// SessionIDs lists the distinct sessionId values of the messages (at most 16).
func (f *File) SessionIDs() []string { return append([]string(nil), f.sessionIDs...) }

// Cwd is the first cwd recorded in the file.
func (f *File) Cwd() string { return f.firstCwd }

// SidechainOnly reports whether every chain member is a sidechain line.
func (f *File) SidechainOnly() bool {
	any := false
	for nd, m := range f.member {
		if !m {
			continue
		}
		any = true
		if f.lines[f.nLast[nd]].flags&fSidechain == 0 {
			return false
		}
	}
	return any
}

func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < 36; i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
				return false
			}
		}
	}
	return true
}

// kids returns the children of node nd in file order (do not modify).
func (f *File) kids(nd int32) []int32 { return f.kidList[f.kidStart[nd]:f.kidStart[nd+1]] }
