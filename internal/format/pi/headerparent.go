package pi

import (
	"strconv"

	"github.com/sessctl/sessctl/internal/problem"
)

// CodeHeaderParent is the info note on an entry whose parentId is the
// session header's id (OpenClaw's transcripts start their chain there).
// pi and OpenClaw index entries only, so the walk from the leaf stops at
// such an entry as at a root and nothing above it is lost: it is a root,
// not an orphan, in check, tree and repair.
const CodeHeaderParent = "header-parent"

// HeaderParented reports whether entry i's parent id is the session
// header's id (and no entry has that id).
func (f *File) HeaderParented(i int) bool {
	if f.Header == nil || f.Index == nil || i < 0 || i >= f.Index.Len() {
		return false
	}
	n := f.Index.Node(i)
	if !n.HasParent || n.Parent != f.Header.ID {
		return false
	}
	_, found := f.Index.Lookup(n.Parent)
	return !found
}

// Orphans are the index's orphans (parent id names no entry) but those
// whose parent is the session header (HeaderParented), in file order.
func (f *File) Orphans() []int {
	all := f.Index.Orphans()
	out := all[:0:0]
	for _, i := range all {
		if !f.HeaderParented(i) {
			out = append(out, i)
		}
	}
	return out
}

// headerParentNote is the info check gives for the entries whose parent is
// the header (one note, on the first of them).
func (f *File) headerParentNote() {
	n, first := 0, -1
	for _, i := range f.Index.Orphans() {
		if f.HeaderParented(i) {
			if first < 0 {
				first = i
			}
			n++
		}
	}
	if n == 0 {
		return
	}
	msg := "entry names the session header as its parent; the agent starts the conversation there (a root), nothing is lost"
	if n > 1 {
		msg = "entries name the session header as their parent; the agent starts each conversation there (a root), nothing is lost"
	}
	f.add(problem.Problem{Code: CodeHeaderParent, Severity: problem.Info, Line: int(f.Index.Line(first)), ID: displayID(f.Index.ID(first)),
		Message: strconv.Itoa(n) + " " + msg})
}
