package claude

import (
	"strings"

	"github.com/valyala/fastjson"
)

// Range describes a run of records on a path.
type Range struct {
	Count     int    `json:"count"`
	Messages  int    `json:"messages"` // user and assistant records among them
	FirstUUID string `json:"firstUuid,omitempty"`
	LastUUID  string `json:"lastUuid,omitempty"`
	FirstLine int    `json:"firstLine,omitempty"`
	LastLine  int    `json:"lastLine,omitempty"`
}

// Preserved is a compaction's preserved segment.
type Preserved struct {
	HeadUUID   string `json:"headUuid"`
	AnchorUUID string `json:"anchorUuid"`
	TailUUID   string `json:"tailUuid"`
	// Range is the preserved records found by walking tail -> head.
	Range Range `json:"range"`
	// Relinked is true when this is the segment Claude Code relinks on load
	// (the last boundary with a preserved segment, and the walk reaches head).
	Relinked bool   `json:"relinked"`
	Problem  string `json:"problem,omitempty"`
}

// Compaction is one compact boundary on the path, with what it hides and
// what it keeps.
type Compaction struct {
	UUID                 string     `json:"uuid"`
	Line                 int        `json:"line"`
	Timestamp            string     `json:"timestamp,omitempty"`
	Trigger              string     `json:"trigger,omitempty"`
	PreTokens            int64      `json:"preTokens,omitempty"`
	MessagesSummarized   int64      `json:"messagesSummarized,omitempty"`
	LogicalParentUUID    string     `json:"logicalParentUuid,omitempty"`
	LogicalParentMissing bool       `json:"logicalParentMissing,omitempty"`
	SummaryUUID          string     `json:"summaryUuid,omitempty"`
	SummaryLine          int        `json:"summaryLine,omitempty"`
	Summary              string     `json:"summary,omitempty"`
	Hidden               Range      `json:"hidden"`
	Kept                 Range      `json:"kept"`
	Preserved            *Preserved `json:"preserved,omitempty"`
}

// Compactions lists the compactions on the whole-history path of leaf ("" =
// the last-prompt leaf), oldest first. For each boundary, Hidden is the run
// of records before it on the path (back to the previous boundary or the
// root) that it takes out of context, less any preserved segment; Kept is
// the run after it up to the next boundary or the leaf.
func (f *File) Compactions(leaf string) ([]Compaction, []Problem, error) {
	p, err := f.Walk(leaf, true)
	if err != nil {
		return nil, nil, err
	}
	// segment the path at boundaries
	var bidx []int
	for i, nd := range p.nodes {
		if f.isBoundary(nd) {
			bidx = append(bidx, i)
		}
	}
	var parser fastjson.Parser
	out := make([]Compaction, 0, len(bidx))
	for k, bi := range bidx {
		nd := p.nodes[bi]
		li := f.nLast[nd]
		lr := f.lines[li]
		c := Compaction{UUID: f.ids.str(lr.uuid), Line: int(lr.ln), Timestamp: fmtTS(lr.ts)}
		if lr.lpar >= 0 {
			c.LogicalParentUUID = f.ids.str(lr.lpar)
			ln := f.nodeOf[lr.lpar]
			c.LogicalParentMissing = ln < 0 || !f.member[ln]
		}
		var pres []bool
		if v, _, err := f.parseLine(&parser, li); err == nil {
			if md := v.Get("compactMetadata"); md != nil {
				c.Trigger = string(strBytes(md, "trigger"))
				c.PreTokens = md.GetInt64("preTokens")
				c.MessagesSummarized = md.GetInt64("messagesSummarized")
				if seg := md.Get("preservedSegment"); seg != nil && seg.Type() == fastjson.TypeObject {
					ps := &Preserved{HeadUUID: string(strBytes(seg, "headUuid")), AnchorUUID: string(strBytes(seg, "anchorUuid")),
						TailUUID: string(strBytes(seg, "tailUuid"))}
					pres, ps.Range, ps.Problem = f.preservedRange(ps.HeadUUID, ps.TailUUID)
					ps.Relinked = f.relink != nil && f.relink.ok && f.relink.boundary == nd
					c.Preserved = ps
				}
			}
		}
		start := 0
		if k > 0 {
			start = bidx[k-1] + 1
		}
		var hidden []int32
		for _, x := range p.nodes[start:bi] {
			if pres != nil && pres[x] {
				continue
			}
			hidden = append(hidden, x)
		}
		c.Hidden = f.rangeOf(hidden)
		end := len(p.nodes)
		if k+1 < len(bidx) {
			end = bidx[k+1]
		}
		kept := p.nodes[bi+1 : end]
		c.Kept = f.rangeOf(kept)
		for _, x := range kept {
			l := &f.lines[f.nLast[x]]
			if l.flags&fCompactSummary != 0 {
				c.SummaryUUID = f.ids.str(l.uuid)
				c.SummaryLine = int(l.ln)
				if t, err := f.decodeTurn(&parser, f.nLast[x], true, false); err == nil {
					var parts []string
					for _, b := range t.Blocks {
						if b.Type == "text" {
							if b.Long != nil {
								b.Text, _ = f.holdLong(b.Long)
							}
							parts = append(parts, b.Text)
						}
					}
					c.Summary = strings.Join(parts, "\n")
				}
				break
			}
		}
		out = append(out, c)
	}
	return out, p.Warnings, nil
}

func (f *File) rangeOf(nodes []int32) Range {
	r := Range{Count: len(nodes)}
	if len(nodes) == 0 {
		return r
	}
	for _, nd := range nodes {
		if f.isConv(nd) {
			r.Messages++
		}
	}
	a, b := nodes[0], nodes[len(nodes)-1]
	r.FirstUUID, r.LastUUID = f.uuidOf(a), f.uuidOf(b)
	r.FirstLine, r.LastLine = int(f.lines[f.nLast[a]].ln), int(f.lines[f.nLast[b]].ln)
	return r
}

// preservedRange walks from tail up to head in the file's graph.
func (f *File) preservedRange(head, tail string) ([]bool, Range, string) {
	hn, tn := f.nodeByUUID(head), f.nodeByUUID(tail)
	if hn < 0 || tn < 0 {
		return nil, Range{}, "head or tail of the preserved segment is not in the file"
	}
	pres := make([]bool, len(f.nFirst))
	var seg []int32
	for cur, steps := tn, 0; cur >= 0 && steps <= len(f.nFirst); steps++ {
		if pres[cur] {
			break
		}
		pres[cur] = true
		seg = append(seg, cur)
		if cur == hn {
			for i, j := 0, len(seg)-1; i < j; i, j = i+1, j-1 {
				seg[i], seg[j] = seg[j], seg[i]
			}
			return pres, f.rangeOf(seg), ""
		}
		cur = f.parent[cur]
	}
	return nil, Range{}, "walking from tail does not reach head; Claude Code does not relink this segment"
}
