package claude

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/valyala/fastjson"
)

// LeafMode names a way of picking the leaf the conversation is walked from.
type LeafMode string

// Leaf modes. LeafLastPrompt is what current Claude Code does (2.1.2xx).
const (
	// LeafLastPrompt: the leafUuid recorded by the last last-prompt line
	// (wiped by a later compact boundary; explicit:true with no leaf clears
	// it and the newest record by timestamp wins; a recorded leaf that is a
	// proper ancestor of the file-order-last record gives way to it; a leaf
	// absent from the file falls back to the file-order-last record), then
	// climbed to the nearest user/assistant record; when that climb finds
	// none, the picker's newest leaf candidate.
	LeafLastPrompt LeafMode = "last-prompt"
	// LeafPicker: the /resume picker: the latest-timestamp user/assistant
	// tip (records nothing points at, climbed to user/assistant).
	LeafPicker LeafMode = "picker"
	// LeafResume: claude --resume <id>: the latest-timestamp non-sidechain
	// record of the four transcript types.
	LeafResume LeafMode = "resume"
	// LeafFileOrder: the last non-sidechain record in file order, climbed to
	// user/assistant (the byte pre-walk of large files).
	LeafFileOrder LeafMode = "file-order"
)

// AllLeafModes lists the modes in the order they are reported.
var AllLeafModes = []LeafMode{LeafLastPrompt, LeafPicker, LeafResume, LeafFileOrder}

// ParseLeafMode checks a --leaf-mode value.
func ParseLeafMode(s string) (LeafMode, error) {
	for _, m := range AllLeafModes {
		if string(m) == s {
			return m, nil
		}
	}
	return "", fmt.Errorf("unknown leaf mode %q (want last-prompt, picker, resume or file-order)", s)
}

// LeafChoice is the leaf every mode picks and whether they disagree.
type LeafChoice struct {
	// Modes maps each mode to the uuid it picks ("" when none).
	Modes map[LeafMode]string `json:"modes"`
	// Source says how the last-prompt mode resolved: "last-prompt",
	// "explicit", "cleared", "leaf-absent", "advanced" (recorded leaf was an
	// ancestor of the file-order tail), "tail" (no last-prompt leaf) or
	// "tips" (none of these climbs to a user/assistant record: the newest
	// leaf candidate, as the picker picks).
	Source string `json:"lastPromptSource"`
	// Disagree is true when the modes lead to different conversations
	// (different user/assistant leaves whose walked paths hold different
	// user/assistant records, interruption markers aside).
	Disagree bool `json:"disagree"`
	// Lost counts, for each mode, the chain members reachable from another
	// mode's leaf that this mode's conversation does not include.
	Lost map[LeafMode]int `json:"lost,omitempty"`
}

// Summary is a one-line description of the choice, for stderr.
func (c LeafChoice) Summary() string {
	var b strings.Builder
	if c.Disagree {
		b.WriteString("leaf modes disagree:")
	} else {
		b.WriteString("leaf modes agree:")
	}
	for _, m := range AllLeafModes {
		u := short(c.Modes[m])
		if u == "" {
			u = "(none)"
		}
		fmt.Fprintf(&b, " %s=%s", m, u)
		if n := c.Lost[m]; n > 0 {
			fmt.Fprintf(&b, " (misses %d)", n)
		}
	}
	return b.String()
}

// relinkState is the outcome of the preserved-segment relink of the last
// compact boundary that has a preservedSegment (Claude Code 2.1.88
// applyPreservedSegmentRelinks).
type relinkState struct {
	boundary           int32 // node
	head, anchor, tail string
	ok                 bool
	reason             string
	override           map[int32]int32 // node -> parent node after relink
	removed            []bool          // node deleted by the relink
	preserved          []bool
}

func (f *File) computeRelink() *relinkState {
	last := int32(-1)
	for li := len(f.lines) - 1; li >= 0; li-- {
		lr := &f.lines[li]
		if lr.flags&fPreserved != 0 && f.names[lr.sub] == SubtypeCompactBoundary && lr.uuid >= 0 {
			last = int32(li)
			break
		}
	}
	if last < 0 || f.ra == nil {
		return nil
	}
	bn := f.nodeOf[f.lines[last].uuid]
	if bn < 0 || f.nLast[bn] != last {
		return nil
	}
	rs := &relinkState{boundary: bn}
	var p fastjson.Parser
	v, _, err := f.parseLine(&p, last)
	if err != nil {
		rs.reason = "boundary line cannot be re-read: " + err.Error()
		return rs
	}
	if pm := v.Get("compactMetadata", "preservedMessages"); pm != nil && pm.Type() == fastjson.TypeObject {
		return f.relinkMessages(rs, pm, last)
	}
	seg := v.Get("compactMetadata", "preservedSegment")
	rs.head = string(strBytes(seg, "headUuid"))
	rs.anchor = string(strBytes(seg, "anchorUuid"))
	rs.tail = string(strBytes(seg, "tailUuid"))
	hn, an, tn := f.nodeByUUID(rs.head), f.nodeByUUID(rs.anchor), f.nodeByUUID(rs.tail)
	if hn < 0 || an < 0 || tn < 0 {
		rs.reason = "preservedSegment names a record that is not in the file"
		return rs
	}
	nn := len(f.parent)
	pres := make([]bool, nn)
	found := false
	for cur, steps := tn, 0; cur >= 0 && steps <= nn; steps++ {
		if pres[cur] {
			break
		}
		pres[cur] = true
		if cur == hn {
			found = true
			break
		}
		cur = f.parent[cur]
	}
	if !found {
		rs.reason = "walking from tailUuid does not reach headUuid; Claude Code skips the relink"
		return rs
	}
	rs.ok = true
	rs.preserved = pres
	rs.override = map[int32]int32{hn: an}
	for _, c := range f.kids(an) {
		if c != hn {
			rs.override[c] = tn
		}
	}
	rs.removed = make([]bool, nn)
	blast := f.nFirst[bn]
	for nd := 0; nd < nn; nd++ {
		if f.nFirst[nd] < blast && !pres[nd] {
			rs.removed[nd] = true
		}
	}
	return rs
}

// removed reports whether the loader deleted node nd (preserved relink).
func (f *File) removed(nd int32) bool {
	if f.skipLine >= 0 && f.nLast[nd] < f.skipLine {
		return true
	}
	return f.relink != nil && f.relink.ok && f.relink.removed[nd]
}

// lparent is the parent of nd as the loader sees it after the relink, or -1.
func (f *File) lparent(nd int32) int32 {
	if f.relink != nil && f.relink.ok {
		if p, ok := f.relink.override[nd]; ok {
			return p
		}
	}
	p := f.parent[nd]
	if p >= 0 && f.removed(p) {
		return -1
	}
	return p
}

func (f *File) sidechain(nd int32) bool { return f.lines[f.nLast[nd]].flags&fSidechain != 0 }
func (f *File) nodeType(nd int32) string {
	return f.names[f.lines[f.nLast[nd]].typ]
}
func (f *File) isConv(nd int32) bool {
	t := f.nodeType(nd)
	return t == TypeUser || t == TypeAssistant
}
func (f *File) isBoundary(nd int32) bool {
	lr := &f.lines[f.nLast[nd]]
	return f.names[lr.typ] == TypeSystem && f.names[lr.sub] == SubtypeCompactBoundary
}
func (f *File) ts(nd int32) int64 { return f.lines[f.nLast[nd]].ts }

// live reports whether nd takes part in leaf selection.
func (f *File) live(nd int32, sideOK bool) bool {
	if !f.member[nd] || f.removed(nd) {
		return false
	}
	return sideOK || !f.sidechain(nd)
}

// climb walks up from nd to the nearest user/assistant record.
func (f *File) climb(nd int32) int32 {
	for steps := 0; nd >= 0 && steps <= len(f.parent); steps++ {
		if f.isConv(nd) {
			return nd
		}
		nd = f.lparent(nd)
	}
	return -1
}

// isAncestor reports whether anc is a proper ancestor of nd.
func (f *File) isAncestor(anc, nd int32) bool {
	if anc == nd {
		return false
	}
	for steps := 0; nd >= 0 && steps <= len(f.parent); steps++ {
		if nd == anc {
			return true
		}
		nd = f.lparent(nd)
	}
	return false
}

// sideOK: in a file of sidechain lines only (a subagent transcript) the
// sidechain filter does not apply.
func (f *File) sideOK() bool { return f.sideOnly }

// tail is the live record written last: a uuid written again counts at
// the position of its last write, as Claude Code's loader sees it.
func (f *File) tail(sideOK bool) int32 {
	best := int32(-1)
	for nd := int32(len(f.nFirst)) - 1; nd >= 0; nd-- {
		if f.live(nd, sideOK) && (best < 0 || f.nLast[nd] > f.nLast[best]) {
			best = nd
		}
	}
	return best
}

func (f *File) newest(sideOK bool, convOnly bool, tipsOnly []bool) int32 {
	best := int32(-1)
	for nd := int32(0); int(nd) < len(f.nFirst); nd++ {
		if !f.live(nd, sideOK) || (convOnly && !f.isConv(nd)) || (tipsOnly != nil && !tipsOnly[nd]) {
			continue
		}
		t := f.ts(nd)
		if t == noTS {
			continue
		}
		if best < 0 || t > f.ts(best) {
			best = nd
		}
	}
	return best
}

// tips marks the picker's leaf candidates: records no live record points
// at, climbed to user/assistant.
func (f *File) tips(sideOK bool) []bool {
	nn := len(f.nFirst)
	ref := make([]bool, nn)
	for nd := int32(0); int(nd) < nn; nd++ {
		if !f.member[nd] || f.removed(nd) {
			continue
		}
		if p := f.lparent(nd); p >= 0 && p != nd {
			ref[p] = true
		}
	}
	out := make([]bool, nn)
	// climb with memo: chains of system/attachment tips share their walk
	memo := make([]int32, nn)
	for i := range memo {
		memo[i] = -2
	}
	var stack []int32
	climbMemo := func(nd int32) int32 {
		stack = stack[:0]
		res := int32(-1)
		for steps := 0; nd >= 0 && steps <= nn; steps++ {
			if memo[nd] != -2 {
				res = memo[nd]
				break
			}
			if f.isConv(nd) {
				res = nd
				break
			}
			memo[nd] = -1 // cycle guard while walking
			stack = append(stack, nd)
			nd = f.lparent(nd)
		}
		for _, x := range stack {
			memo[x] = res
		}
		return res
	}
	for nd := int32(0); int(nd) < nn; nd++ {
		if !f.live(nd, sideOK) || ref[nd] {
			continue
		}
		if c := climbMemo(nd); c >= 0 {
			out[c] = true
		}
	}
	return out
}

func (f *File) leafNode(m LeafMode) (int32, string) {
	side := f.sideOK()
	switch m {
	case LeafPicker:
		return f.newest(side, true, f.tips(side)), ""
	case LeafResume:
		return f.newest(side, false, nil), ""
	case LeafFileOrder:
		return f.climb(f.tail(side)), ""
	}
	nd, src := f.lastPromptNode(side)
	if nd < 0 && src != "cleared-empty" {
		// the recorded leaf and the file's last record climb to no
		// user/assistant record (e.g. the last record names itself and has
		// no timestamp for the 5 s repair): Claude Code 2.1.330 resumes the
		// newest leaf candidate, as the picker does
		if t := f.newest(side, true, f.tips(side)); t >= 0 {
			return t, "tips"
		}
	}
	return nd, src
}

// lastPromptNode is the last-prompt leaf rule before the tips fallback.
func (f *File) lastPromptNode(side bool) (int32, string) {
	rec := f.recorded
	tail := f.tail(side)
	if rec.cleared {
		if f.ResumesEmpty() {
			return -1, "cleared-empty"
		}
		return f.climb(f.newest(side, false, nil)), "cleared"
	}
	if rec.leaf == "" {
		return f.climb(tail), "tail"
	}
	cur := f.nodeByUUID(rec.leaf)
	if cur >= 0 && (!f.member[cur] || f.removed(cur)) {
		cur = -1
	}
	if cur < 0 {
		return f.climb(tail), "leaf-absent"
	}
	src := "last-prompt"
	if rec.explicit {
		src = "explicit"
	}
	if tail >= 0 && tail != cur && f.isAncestor(cur, tail) {
		cur, src = tail, "advanced"
	}
	if c := f.climb(cur); c >= 0 {
		return c, src
	}
	return f.climb(tail), src
}

// Leaf returns the uuid of the leaf picked by mode ("" if the file has no
// record the mode can pick).
func (f *File) Leaf(m LeafMode) (string, error) {
	if _, err := ParseLeafMode(string(m)); err != nil {
		return "", err
	}
	nd, _ := f.leafNode(m)
	if nd < 0 {
		return "", nil
	}
	return f.uuidOf(nd), nil
}

func (f *File) uuidOf(nd int32) string { return f.ids.str(f.lines[f.nLast[nd]].uuid) }

// LeafModes runs every mode and reports whether they disagree. The result
// is computed once per File.
func (f *File) LeafModes() LeafChoice {
	if f.choice != nil {
		return *f.choice
	}
	c := LeafChoice{Modes: map[LeafMode]string{}}
	nodes := make([]int32, len(AllLeafModes))
	for k, m := range AllLeafModes {
		nd, src := f.leafNode(m)
		if m == LeafLastPrompt {
			c.Source = src
		}
		nodes[k] = nd
		c.Modes[m] = ""
		if nd >= 0 {
			c.Modes[m] = f.uuidOf(nd)
		}
	}
	// compare conversations: climb each to user/assistant
	conv := map[int32]bool{}
	for _, nd := range nodes {
		conv[f.climb(nd)] = true
	}
	if len(conv) > 1 && !f.sameConversations(nodes) {
		c.Disagree = true
		// one bit per mode on every record of its path
		mark := make([]uint8, len(f.nFirst))
		for k, nd := range nodes {
			bit := uint8(1) << k
			for nd >= 0 && mark[nd]&bit == 0 {
				mark[nd] |= bit
				nd = f.lparent(nd)
			}
		}
		all := uint8(1)<<len(nodes) - 1
		c.Lost = map[LeafMode]int{}
		for _, x := range mark {
			if x == 0 || x == all {
				continue
			}
			for k, m := range AllLeafModes {
				if x&(1<<k) == 0 {
					c.Lost[m]++
				}
			}
		}
	}
	f.choice = &c
	return c
}

// resolveLeaf turns a leaf uuid (or "" for the default mode) into a node.
func (f *File) resolveLeaf(leaf string) (int32, error) {
	if leaf == "" {
		nd, _ := f.leafNode(LeafLastPrompt)
		if nd < 0 {
			return -1, fmt.Errorf("no leaf: the file has no transcript messages")
		}
		return nd, nil
	}
	nd := f.nodeByUUID(leaf)
	if nd < 0 || !f.member[nd] {
		// allow a unique prefix
		var hit int32 = -1
		for i, s := range f.ids.s {
			if strings.HasPrefix(s, leaf) && f.nodeOf[i] >= 0 && f.member[f.nodeOf[i]] {
				if hit >= 0 {
					return -1, fmt.Errorf("uuid prefix %q is ambiguous", leaf)
				}
				hit = f.nodeOf[i]
			}
		}
		if hit < 0 {
			return -1, fmt.Errorf("no record with uuid %q", leaf)
		}
		nd = hit
	}
	return nd, nil
}

func sortProblems(p []Problem) {
	sort.SliceStable(p, func(i, j int) bool { return p[i].Line < p[j].Line })
}

func parseTime(s string) (time.Time, error) { return time.Parse(time.RFC3339Nano, s) }

// fmtTS formats unix milliseconds as RFC 3339 ("" for none).
func fmtTS(ms int64) string {
	if ms == noTS {
		return ""
	}
	return time.UnixMilli(ms).UTC().Format("2006-01-02T15:04:05.000Z")
}

// relinkMessages is the relink of Claude Code 2.1.330's
// compactMetadata.preservedMessages {anchorUuid, uuids}: uuids[0] hangs on
// the anchor, uuids[i] on uuids[i-1], the anchor's other children on the
// last of them; every record before the boundary that is not preserved is
// dropped. A list naming a record that is not in the file is ignored
// (parity cases compact-preserved-messages and -bad).
func (f *File) relinkMessages(rs *relinkState, pm *fastjson.Value, boundaryLine int32) *relinkState {
	rs.anchor = string(strBytes(pm, "anchorUuid"))
	an := f.nodeByUUID(rs.anchor)
	var list []int32
	for _, u := range pm.GetArray("uuids") {
		b, err := u.StringBytes()
		if err != nil {
			rs.reason = "preservedMessages.uuids holds a value that is not a string; Claude Code skips the relink"
			return rs
		}
		nd := f.nodeByUUID(string(b))
		if nd < 0 || !f.member[nd] {
			rs.reason = "preservedMessages names a record that is not in the file; Claude Code skips the relink"
			return rs
		}
		list = append(list, nd)
	}
	if an < 0 || !f.member[an] || len(list) == 0 {
		rs.reason = "preservedMessages has no anchor in the file or no uuids; Claude Code skips the relink"
		return rs
	}
	nn := len(f.parent)
	rs.head, rs.tail = f.uuidOf(list[0]), f.uuidOf(list[len(list)-1])
	rs.ok = true
	rs.preserved = make([]bool, nn)
	rs.override = map[int32]int32{}
	prev := an
	for _, nd := range list {
		rs.preserved[nd] = true
		rs.override[nd] = prev
		prev = nd
	}
	for _, c := range f.kids(an) {
		if _, ok := rs.override[c]; !ok {
			rs.override[c] = prev
		}
	}
	rs.removed = make([]bool, nn)
	blast := f.nFirst[rs.boundary]
	for nd := 0; nd < nn; nd++ {
		if f.nFirst[nd] < blast && !rs.preserved[nd] {
			rs.removed[nd] = true
		}
	}
	return rs
}
