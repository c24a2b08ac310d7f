package claude

import (
	"bufio"
	"encoding/json"
	"io"
)

// WriteTreeJSON streams the tree --json shape straight from the index,
// without building a Tree: the output equals Tree(mode) then WriteJSON,
// with the leaf replaced by leaf when it is not "".
func (f *File) WriteTreeJSON(w io.Writer, path string, mode LeafMode, leaf string, subs *Subagents) error {
	if mode == "" {
		mode = LeafLastPrompt
	}
	if _, err := ParseLeafMode(string(mode)); err != nil {
		return err
	}
	nn := len(f.nFirst)
	ln := int32(-1)
	if leaf != "" {
		nd, err := f.resolveLeaf(leaf)
		if err != nil {
			return err
		}
		ln = nd
	} else {
		ln, _ = f.leafNode(mode)
	}
	active := make([]bool, nn)
	if ln >= 0 {
		if p, err := f.Walk(f.uuidOf(ln), false); err == nil {
			for _, nd := range p.nodes {
				active[nd] = true
			}
		}
	}
	choice := f.LeafModes()
	bw := bufio.NewWriterSize(w, 1<<20)
	enc := func(v any) {
		b, _ := json.Marshal(v)
		bw.Write(b)
	}
	idList := func(ns []int32) {
		bw.WriteByte('[')
		for k, n := range ns {
			if k > 0 {
				bw.WriteByte(',')
			}
			enc(f.uuidOf(n))
		}
		bw.WriteByte(']')
	}
	sub := map[string][]string{}
	var subJSON []SubagentJSON
	if subs != nil {
		for _, s := range subs.Files {
			subJSON = append(subJSON, s.JSON())
			if s.ParentUUID != "" {
				sub[s.ParentUUID] = append(sub[s.ParentUUID], s.AgentID)
			}
		}
	}
	bw.WriteString(`{"format":"claude-code","path":`)
	enc(path)
	bw.WriteString(`,"leafId":`)
	if ln >= 0 {
		enc(f.uuidOf(ln))
	} else {
		bw.WriteString("null")
	}
	bw.WriteString(`,"leafMode":`)
	enc(mode)
	bw.WriteString(`,"leafModes":`)
	enc(choice)
	bw.WriteString(`,"roots":`)
	var roots, orphans []int32
	for nd := int32(0); int(nd) < nn; nd++ {
		if !f.member[nd] {
			continue
		}
		if f.effPar[nd] < 0 {
			roots = append(roots, nd)
		} else if f.parent[nd] < 0 {
			orphans = append(orphans, nd)
		}
	}
	idList(roots)
	bw.WriteString(`,"nodes":[`)
	first := true
	for nd := int32(0); int(nd) < nn; nd++ {
		if !f.member[nd] {
			continue
		}
		if !first {
			bw.WriteByte(',')
		}
		first = false
		lr := &f.lines[f.nLast[nd]]
		u := f.ids.str(lr.uuid)
		tn := TreeNodeJSON{ID: u, Type: f.names[lr.typ], Subtype: f.names[lr.sub], Line: int(lr.ln),
			Sidechain: lr.flags&fSidechain != 0, Fork: f.forkLabel(nd), Active: active[nd], Subagents: sub[u],
			ToolUseHolder: f.holderIfNotParent(nd)}
		switch tn.Type {
		case TypeUser, TypeAssistant:
			tn.Role = tn.Type
		}
		if lr.ts != noTS {
			tn.Timestamp = fmtTS(lr.ts)
		}
		if f.effPar[nd] >= 0 {
			p := f.ids.str(f.effPar[nd])
			tn.ParentID = &p
			tn.Bridged = lr.parent != f.effPar[nd]
		}
		if f.isBoundary(nd) && lr.lpar >= 0 {
			tn.LogicalParentID = f.ids.str(lr.lpar)
		}
		tn.Children = make([]string, len(f.kids(nd)))
		for k, c := range f.kids(nd) {
			tn.Children[k] = f.uuidOf(c)
		}
		enc(tn)
	}
	bw.WriteString(`],"orphans":`)
	idList(orphans)
	bw.WriteString(`,"cycles":[`)
	for k, c := range f.cycles {
		if k > 0 {
			bw.WriteByte(',')
		}
		idList(c)
	}
	bw.WriteString(`],"duplicates":`)
	dups := []string{}
	seen := map[string]bool{}
	for _, p := range f.problems {
		if p.Code == ProbDuplicateUUID && !seen[p.UUID] {
			seen[p.UUID] = true
			dups = append(dups, p.UUID)
		}
	}
	enc(dups)
	bw.WriteString(`,"bridgedProgress":`)
	enc(nn - f.Messages())
	if len(subJSON) > 0 {
		bw.WriteString(`,"subagents":`)
		enc(subJSON)
	}
	if f.Meta.ContinuedIn != "" {
		bw.WriteString(`,"continuedIn":`)
		enc(f.Meta.ContinuedIn)
	}
	if f.Meta.RelocatedCwd != "" {
		bw.WriteString(`,"relocatedCwd":`)
		enc(f.Meta.RelocatedCwd)
	}
	bw.WriteString("}\n")
	return bw.Flush()
}
