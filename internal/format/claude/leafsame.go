package claude

import (
	"sort"
	"strconv"
	"strings"

	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/valyala/fastjson"
)

// sameConversations reports whether the leaves of nodes (one per leaf mode,
// -1 for none) lead to the same conversation once each is walked as the
// loader walks it (parallel tool results and sibling lines re-attached):
// the same user/assistant records, in any order. Claude Code's own
// interruption markers ("[Request interrupted by user…]") and records that
// are not user/assistant do not count. Two leaves that tie on a timestamp
// (a parallel tool result and the interrupt marker after it) then agree.
//
// Each distinct leaf is walked once (modes often pick the same one), and
// each user record is read once to see whether it is an interruption
// marker, however many of the walks pass through it.
func (f *File) sameConversations(nodes []int32) bool {
	var p fastjson.Parser
	first := ""
	keys := map[int32]string{}
	marker := map[int32]bool{}
	isMarker := func(x int32) bool {
		v, ok := marker[x]
		if !ok {
			v = f.interruptMarker(&p, x)
			marker[x] = v
		}
		return v
	}
	for k, nd := range nodes {
		key, done := keys[nd]
		if nd >= 0 && !done {
			u := f.uuidOf(nd)
			if u == "" {
				return false
			}
			path, err := f.Walk(u, false)
			if err != nil {
				return false
			}
			var ids []int
			for _, x := range path.nodes {
				if !f.isConv(x) || path.removed(f, x) || isMarker(x) {
					continue
				}
				ids = append(ids, int(x))
			}
			sort.Ints(ids)
			var b strings.Builder
			for _, id := range ids {
				b.WriteString(strconv.Itoa(id))
				b.WriteByte(',')
			}
			key = b.String()
			keys[nd] = key
		}
		if k == 0 {
			first = key
		} else if key != first {
			return false
		}
	}
	return true
}

// interruptMarker reports whether user record nd is only Claude Code's
// interruption marker: its content is text that starts with
// "[Request interrupted by user" (a string, or text blocks only).
func (f *File) interruptMarker(p *fastjson.Parser, nd int32) bool {
	if f.nodeType(nd) != TypeUser {
		return false
	}
	li := f.nLast[nd]
	v, _, long, err := f.parseLong(p, li)
	if err != nil {
		return false
	}
	if long {
		// the types and texts decide; a long type is read whole
		if m, ok := f.interruptOf(v); ok {
			return m
		}
		if v, _, err = f.parseLine(p, li); err != nil {
			return false
		}
	}
	m, _ := f.interruptOf(v)
	return m
}

// interruptOf is interruptMarker for a parsed line; ok is false when a
// block type is a left-out string (the line must be read whole).
func (f *File) interruptOf(v *fastjson.Value) (is, ok bool) {
	c := v.Get("message", "content")
	if c == nil {
		return false, true
	}
	const marker = "[Request interrupted by user"
	switch c.Type() {
	case fastjson.TypeString:
		return f.hasPrefix(c.GetStringBytes(), marker), true
	case fastjson.TypeArray:
		blocks := c.GetArray()
		if len(blocks) == 0 {
			return false, true
		}
		for _, b := range blocks {
			if jsonl.HoldsBytes(b.GetStringBytes("type")) {
				return false, false
			}
			if string(b.GetStringBytes("type")) != "text" || !f.hasPrefix(b.GetStringBytes("text"), marker) {
				return false, true
			}
		}
		return true, true
	}
	return false, true
}
