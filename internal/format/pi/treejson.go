package pi

import (
	"bufio"
	"encoding/json"
	"io"

	"github.com/sessctl/sessctl/internal/tree"
)

// WriteTreeJSON writes the tree --json object (the shape of
// render.TreeJSON) straight from the index, one node at a time, so that a
// file of a million entries needs no extra copy of its tree in memory.
func (f *File) WriteTreeJSON(out io.Writer, leaf int) error {
	x := f.Index
	if leaf == tree.None {
		leaf = x.Last()
	}
	w := bufio.NewWriterSize(out, 1<<20)
	str := func(s string) {
		if jsonSafe(s) {
			w.WriteByte('"')
			w.WriteString(s)
			w.WriteByte('"')
			return
		}
		b, _ := json.Marshal(s)
		w.Write(b)
	}
	ids := func(ns []int) {
		w.WriteByte('[')
		for k, n := range ns {
			if k > 0 {
				w.WriteByte(',')
			}
			str(f.DisplayID(n))
		}
		w.WriteByte(']')
	}
	w.WriteString(`{"format":"pi","dialect":`)
	str(string(f.Dialect))
	w.WriteString(`,"path":`)
	str(f.Path)
	w.WriteString(`,"leafId":`)
	if leaf == tree.None {
		w.WriteString("null")
	} else {
		str(f.DisplayID(leaf))
	}
	w.WriteString(`,"roots":`)
	ids(x.Roots())
	w.WriteString(`,"nodes":[`)
	var line [16]byte
	for i := range x.Len() {
		n := x.Node(i)
		e := &f.Entries[i]
		if i > 0 {
			w.WriteByte(',')
		}
		w.WriteString(`{"id":`)
		str(f.DisplayID(i))
		w.WriteString(`,"parentId":`)
		if n.HasParent {
			str(displayID(n.Parent))
		} else {
			w.WriteString("null")
		}
		w.WriteString(`,"type":`)
		typ := e.Type()
		if typ == "" {
			typ = "(no type)"
		}
		str(typ)
		if r := e.Role(); r != "" {
			w.WriteString(`,"role":`)
			str(r)
		}
		if !x.Shadowed(i) {
			if l, ok := f.Labels[n.ID]; ok && l != "" {
				w.WriteString(`,"label":`)
				str(l)
			}
		}
		w.WriteString(`,"line":`)
		w.Write(appendInt(line[:0], int64(n.Line)))
		w.WriteString(`,"children":[`)
		for k, c := range x.Children(i) {
			if k > 0 {
				w.WriteByte(',')
			}
			str(f.DisplayID(int(c)))
		}
		w.WriteString("]}")
	}
	w.WriteString(`],"orphans":`)
	ids(f.Orphans())
	w.WriteString(`,"cycles":[`)
	for k, c := range x.Cycles() {
		if k > 0 {
			w.WriteByte(',')
		}
		ids(c)
	}
	w.WriteString(`],"duplicates":[`)
	k := 0
	for _, d := range x.Duplicates() {
		if d == noIDKey {
			continue
		}
		if k > 0 {
			w.WriteByte(',')
		}
		str(displayID(d))
		k++
	}
	w.WriteString("]}\n")
	return w.Flush()
}

// jsonSafe reports whether s can be written between quotes as is.
func jsonSafe(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c == '"' || c == '\\' || c >= 0x7f || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}

func appendInt(b []byte, n int64) []byte {
	if n == 0 {
		return append(b, '0')
	}
	var tmp [20]byte
	i := len(tmp)
	neg := n < 0
	if neg {
		n = -n
	}
	for n > 0 {
		i--
		tmp[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		tmp[i] = '-'
	}
	return append(b, tmp[i:]...)
}
