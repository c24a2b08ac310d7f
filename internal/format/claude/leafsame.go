package claude

import (
	"sort"
	"strconv"
	"strings"

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
	v, _, err := f.parseLine(p, f.nLast[nd])
	if err != nil {
		return false
	}
	c := v.Get("message", "content")
	if c == nil {
		return false
	}
	const marker = "[Request interrupted by user"
	switch c.Type() {
	case fastjson.TypeString:
		return strings.HasPrefix(string(c.GetStringBytes()), marker)
	case fastjson.TypeArray:
		blocks := c.GetArray()
		if len(blocks) == 0 {
			return false
		}
		for _, b := range blocks {
			if string(b.GetStringBytes("type")) != "text" || !strings.HasPrefix(string(b.GetStringBytes("text")), marker) {
				return false
			}
		}
		return true
	}
	return false
}
