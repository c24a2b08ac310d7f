package render

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/sessctl/sessctl/internal/model"
)

// TreeOptions controls tree drawing.
type TreeOptions struct {
	Full     bool   // draw every node (no folding of linear runs)
	FoldMin  int    // fold linear runs longer than this (default 12)
	Keep     int    // nodes kept at each end of a folded run (default 3)
	Width    int    // cut lines to this width (0 = no cut)
	TTY      bool   // relative-free local times; else RFC 3339 UTC
	Styles   Styles // colours
	ShortIDs int    // characters of ids to show (0 = all)
	// FlatLast draws the last child of a branch point at the branch point's
	// own indent (the other children hang above it with ├─), so that DAGs
	// whose forks are mostly short side branches (Claude Code's parallel
	// tool results) do not drift right.
	FlatLast bool
}

// Row is one drawn line of a tree: a node or a fold marker.
type Row struct {
	Node   int // node number, or -1 for a fold row
	Prefix string
	Folded int // number of nodes folded (fold rows)
	// Continues marks the first row of the child of a branch point that
	// leads to the active leaf (drawn "◀ continues").
	Continues bool
}

// ContinuesMark flags, at a branch point, the child that leads to the
// active leaf; the other children are branches left behind.
const ContinuesMark = "◀ continues"

// leafPath reports the nodes from the active leaf up to its root (nil when
// there is no leaf). Parents are taken from the children lists.
func leafPath(t *model.Tree) []bool {
	if t.Leaf < 0 || t.Leaf >= len(t.Nodes) {
		return nil
	}
	parent := make([]int, len(t.Nodes))
	for i := range parent {
		parent[i] = -1
	}
	for i := range t.Nodes {
		for _, c := range t.Nodes[i].Children {
			if c >= 0 && c < len(parent) && parent[c] < 0 && c != i {
				parent[c] = i
			}
		}
	}
	on := make([]bool, len(t.Nodes))
	for n := t.Leaf; n >= 0 && !on[n]; n = parent[n] {
		on[n] = true
	}
	return on
}

// TreeRows lays a tree out. Linear chains stay at one indent; children of a
// branch point are drawn with ├─/└─. It never recurses, so chains of any
// length are fine.
func TreeRows(t *model.Tree, o TreeOptions) []Row {
	if t.Source != nil {
		return nil // drawn by streaming (DrawTree)
	}
	if o.FoldMin == 0 {
		o.FoldMin = 12
	}
	if o.Keep == 0 {
		o.Keep = 3
	}
	type frame struct {
		node           int
		first, further string // prefix of the node's own row and of rows below it
		cont           bool   // the node is the child of a branch point that leads to the leaf
	}
	onPath := leafPath(t)
	var rows []Row
	var stack []frame
	for i := len(t.Roots) - 1; i >= 0; i-- {
		stack = append(stack, frame{node: t.Roots[i]})
	}
	drawn := make([]bool, len(t.Nodes))
	for len(stack) > 0 {
		fr := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		// Walk the linear chain starting at fr.node.
		var chain []int
		n := fr.node
		for {
			if drawn[n] {
				break
			}
			drawn[n] = true
			chain = append(chain, n)
			kids := t.Nodes[n].Children
			if len(kids) != 1 {
				break
			}
			n = kids[0]
		}
		start := len(rows)
		rows = appendChain(rows, t, chain, fr.first, fr.further, o)
		if fr.cont && len(rows) > start {
			rows[start].Continues = true
		}
		if len(chain) == 0 {
			continue
		}
		last := chain[len(chain)-1]
		kids := t.Nodes[last].Children
		if len(kids) <= 1 {
			continue
		}
		for k := len(kids) - 1; k >= 0; k-- {
			cont := onPath != nil && onPath[kids[k]]
			if k == len(kids)-1 && o.FlatLast {
				stack = append(stack, frame{node: kids[k], first: fr.further, further: fr.further, cont: cont})
			} else if k == len(kids)-1 {
				stack = append(stack, frame{node: kids[k], first: fr.further + "└─ ", further: fr.further + "   ", cont: cont})
			} else {
				stack = append(stack, frame{node: kids[k], first: fr.further + "├─ ", further: fr.further + "│  ", cont: cont})
			}
		}
	}
	return rows
}

func appendChain(rows []Row, t *model.Tree, chain []int, first, further string, o TreeOptions) []Row {
	keep := func(n int) bool {
		nd := &t.Nodes[n]
		return nd.Label != "" || nd.Separator != "" || n == t.Leaf || len(nd.Marks) > 0
	}
	folding := !o.Full && len(chain) > o.FoldMin
	for k := 0; k < len(chain); k++ {
		prefix := further
		if k == 0 {
			prefix = first
		}
		if folding && k >= o.Keep && k < len(chain)-o.Keep && !keep(chain[k]) {
			// count the run of foldable nodes
			j := k
			for j < len(chain)-o.Keep && !keep(chain[j]) {
				j++
			}
			rows = append(rows, Row{Node: -1, Prefix: further, Folded: j - k})
			k = j - 1
			continue
		}
		rows = append(rows, Row{Node: chain[k], Prefix: prefix})
	}
	return rows
}

// DrawTree prints rows of t. Node texts must have been filled for the rows'
// nodes beforehand.
//
// A tree with a Source is streamed (StreamTree) and rows are ignored.
func DrawTree(w io.Writer, t *model.Tree, rows []Row, o TreeOptions) error {
	if t.Source != nil {
		return StreamTree(w, t.Source, o)
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	var scratch [2][]byte
	for _, r := range rows {
		if r.Node < 0 {
			drawFold(bw, r.Prefix, r.Folded, o)
			continue
		}
		active := r.Node < len(t.Active) && t.Active[r.Node]
		drawNode(bw, &scratch, &t.Nodes[r.Node], r.Prefix, active, r.Node == t.Leaf, r.Continues, o)
	}
	return bw.Flush()
}

func drawFold(w io.Writer, prefix string, folded int, o TreeOptions) {
	fmt.Fprintln(w, prefix+o.Styles.Dim.Sprintf("┊ … %d more %s (--full shows them)", folded, plural(folded, "entry", "entries")))
}

func drawNode(w *bufio.Writer, scratch *[2][]byte, nd *model.TreeNode, prefix string, active, leaf, cont bool, o TreeOptions) {
	if nd.Separator != "" {
		fmt.Fprintln(w, prefix+o.Styles.Dim.Sprint("──── "+EscapeLine(nd.Separator)+" ────"))
	}
	// The row is assembled in two reused buffers (left part, then the tail
	// of label, marks, time and leaf marker): a tree of millions of rows
	// allocates next to nothing per row.
	b, tail := scratch[0][:0], scratch[1][:0]
	b = append(b, prefix...)
	if active {
		b = append(b, "●"...)
	} else {
		b = append(b, "○"...)
	}
	id := nd.ID
	if o.ShortIDs > 0 && len(id) > o.ShortIDs {
		id = id[:o.ShortIDs]
	}
	kind := nd.Type
	if nd.Role != "" {
		kind = nd.Role
	}
	b = append(b, ' ')
	b = append(b, EscapeLine(id)...)
	b = append(b, ' ')
	b = append(b, EscapeLine(kind)...)
	sep := func() {
		if len(tail) > 0 {
			tail = append(tail, ' ')
		}
	}
	if nd.Label != "" {
		tail = append(tail, '[')
		tail = append(tail, EscapeLine(nd.Label)...)
		tail = append(tail, ']')
	}
	for _, m := range nd.Marks {
		sep()
		tail = append(tail, '(')
		tail = append(tail, EscapeLine(m)...)
		tail = append(tail, ')')
	}
	if !nd.Time.IsZero() {
		sep()
		if o.TTY {
			tail = nd.Time.Local().AppendFormat(tail, "2006-01-02 15:04:05")
		} else {
			tail = nd.Time.UTC().AppendFormat(tail, time.RFC3339)
		}
	}
	if leaf {
		sep()
		tail = append(tail, "◀ active leaf"...)
	} else if cont {
		sep()
		tail = append(tail, ContinuesMark...)
	}
	if nd.Text != "" {
		text := EscapeLine(nd.Text)
		if o.Width > 0 {
			avail := o.Width - utf8.RuneCount(b) - utf8.RuneCount(tail) - 3
			if avail < 10 {
				avail = 10
			}
			text = Truncate(text, avail)
		}
		b = append(b, "  "...)
		b = append(b, text...)
	}
	if len(tail) > 0 {
		b = append(b, "  "...)
		b = append(b, tail...)
	}
	switch {
	case leaf:
		w.WriteString(o.Styles.Leaf.Sprint(string(b)))
	case active:
		w.WriteString(o.Styles.Active.Sprint(string(b)))
	default:
		w.Write(b)
	}
	w.WriteByte('\n')
	scratch[0], scratch[1] = b, tail
}

// TreeSource gives StreamTree a tree one node at a time (model.TreeSource).
type TreeSource = model.TreeSource

// StreamTree draws a tree as TreeRows and DrawTree would, row by row: what
// it holds besides the source is one bit per node (drawn or not) and the
// stack of pending branches, never a row list or a copy of a chain.
func StreamTree(w io.Writer, src TreeSource, o TreeOptions) error {
	if o.FoldMin == 0 {
		o.FoldMin = 12
	}
	if o.Keep == 0 {
		o.Keep = 3
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	type frame struct {
		node           int
		first, further string
		cont           bool // the child of a branch point that leads to the leaf
	}
	drawn := make([]uint64, (src.Len()+63)/64)
	isDrawn := func(n int) bool { return drawn[n/64]&(1<<(n%64)) != 0 }
	leaf := src.Leaf()
	var err error
	var scratch [2][]byte
	draw := func(n int, prefix string, cont bool) {
		if err != nil {
			return
		}
		var nd model.TreeNode
		if nd, err = src.Node(n); err == nil {
			drawNode(bw, &scratch, &nd, prefix, src.Active(n), n == leaf, cont, o)
		}
	}
	var stack []frame
	src.Roots(func(root int) bool {
		stack = append(stack[:0], frame{node: root})
		for len(stack) > 0 && err == nil {
			fr := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			// First walk: mark the linear chain from fr.node and count it.
			length, last := 0, -1
			for n := fr.node; !isDrawn(n); {
				drawn[n/64] |= 1 << (n % 64)
				length++
				last = n
				if src.NumChildren(n) != 1 {
					break
				}
				n = src.Child(n, 0)
			}
			// Second walk: draw it, folding runs of plain nodes.
			folding := !o.Full && length > o.FoldMin
			pending := 0
			n := fr.node
			for k := 0; k < length; k++ {
				if folding && k >= o.Keep && k < length-o.Keep && !src.Keep(n) {
					pending++
				} else {
					if pending > 0 {
						drawFold(bw, fr.further, pending, o)
						pending = 0
					}
					prefix := fr.further
					if k == 0 {
						prefix = fr.first
					}
					draw(n, prefix, k == 0 && fr.cont)
				}
				if k < length-1 {
					n = src.Child(n, 0)
				}
			}
			if pending > 0 {
				drawFold(bw, fr.further, pending, o)
			}
			if length == 0 {
				continue
			}
			kids := src.NumChildren(last)
			if kids <= 1 {
				continue
			}
			// A source's active nodes are the path to the leaf: at an
			// active branch point, the one active child continues (when
			// several are active, none is singled out).
			cont := -1
			if leaf >= 0 && src.Active(last) {
				for k := 0; k < kids; k++ {
					if c := src.Child(last, k); src.Active(c) {
						if cont >= 0 {
							cont = -1
							break
						}
						cont = c
					}
				}
			}
			for k := kids - 1; k >= 0; k-- {
				c := src.Child(last, k)
				if k == kids-1 && o.FlatLast {
					stack = append(stack, frame{node: c, first: fr.further, further: fr.further, cont: c == cont})
				} else if k == kids-1 {
					stack = append(stack, frame{node: c, first: fr.further + "└─ ", further: fr.further + "   ", cont: c == cont})
				} else {
					stack = append(stack, frame{node: c, first: fr.further + "├─ ", further: fr.further + "│  ", cont: c == cont})
				}
			}
		}
		return err == nil
	})
	if err != nil {
		bw.Flush()
		return err
	}
	return bw.Flush()
}

// FormatTime formats a time for people: local "2006-01-02 15:04:05" on a
// terminal, RFC 3339 in UTC otherwise.
func FormatTime(t time.Time, tty bool) string {
	if tty {
		return t.Local().Format("2006-01-02 15:04:05")
	}
	return t.UTC().Format(time.RFC3339)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// TreeFooter lists orphans, cycles and duplicate ids below a tree.
func TreeFooter(w io.Writer, t *model.Tree, st Styles) {
	if t.Source != nil {
		WriteTreeFooter(w, t.Source.Footer(), st)
		return
	}
	var d TreeFooterData
	for _, o := range t.Orphans {
		n := &t.Nodes[o]
		d.Orphans = append(d.Orphans, FooterNode{Line: n.Line, ID: n.ID, Parent: n.ParentID})
	}
	for _, c := range t.Cycles {
		var cyc []FooterNode
		for _, n := range c {
			cyc = append(cyc, FooterNode{Line: t.Nodes[n].Line, ID: t.Nodes[n].ID})
		}
		d.Cycles = append(d.Cycles, cyc)
	}
	if len(t.Duplicates) > 0 {
		lines := make(map[string][]int, len(t.Duplicates))
		for _, id := range t.Duplicates {
			lines[id] = nil
		}
		for i := range t.Nodes {
			if l, ok := lines[t.Nodes[i].ID]; ok {
				lines[t.Nodes[i].ID] = append(l, t.Nodes[i].Line)
			}
		}
		for _, id := range t.Duplicates {
			d.Duplicates = append(d.Duplicates, FooterDup{ID: id, Lines: lines[id]})
		}
	}
	WriteTreeFooter(w, &d, st)
}

// FooterNode, FooterDup and TreeFooterData are model's footer types.
type (
	FooterNode     = model.FooterNode
	FooterDup      = model.FooterDup
	TreeFooterData = model.TreeFooter
)

// WriteTreeFooter lists orphans, cycles and duplicate ids below a tree.
func WriteTreeFooter(w io.Writer, d *TreeFooterData, st Styles) {
	bw := bufio.NewWriterSize(w, 64<<10)
	defer bw.Flush()
	if len(d.Orphans) > 0 {
		fmt.Fprintln(bw, st.Warn.Sprintf("\norphans (parent missing): %d", len(d.Orphans)))
		for _, n := range d.Orphans {
			fmt.Fprintf(bw, "  line %d: %s → missing parent %s\n", n.Line, EscapeLine(n.ID), EscapeLine(n.Parent))
		}
	}
	if len(d.Cycles) > 0 {
		fmt.Fprintln(bw, st.Warn.Sprintf("\nparent cycles: %d", len(d.Cycles)))
		for _, c := range d.Cycles {
			var parts []string
			for _, n := range c {
				parts = append(parts, fmt.Sprintf("%s (line %d)", EscapeLine(n.ID), n.Line))
			}
			fmt.Fprintf(bw, "  %s\n", strings.Join(parts, " → "))
		}
	}
	if len(d.Duplicates) > 0 {
		fmt.Fprintln(bw, st.Warn.Sprintf("\nduplicate ids: %d", len(d.Duplicates)))
		for _, dup := range d.Duplicates {
			lines := make([]string, len(dup.Lines))
			for k, l := range dup.Lines {
				lines[k] = fmt.Sprint(l)
			}
			fmt.Fprintf(bw, "  %s on lines %s\n", EscapeLine(dup.ID), strings.Join(lines, ", "))
		}
	}
}
