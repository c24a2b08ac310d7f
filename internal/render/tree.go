package render

import (
	"fmt"
	"io"
	"strings"
	"time"

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
}

// TreeRows lays a tree out. Linear chains stay at one indent; children of a
// branch point are drawn with ├─/└─. It never recurses, so chains of any
// length are fine.
func TreeRows(t *model.Tree, o TreeOptions) []Row {
	if o.FoldMin == 0 {
		o.FoldMin = 12
	}
	if o.Keep == 0 {
		o.Keep = 3
	}
	type frame struct {
		node           int
		first, further string // prefix of the node's own row and of rows below it
	}
	var rows []Row
	var stack []frame
	for i := len(t.Roots) - 1; i >= 0; i-- {
		stack = append(stack, frame{node: t.Roots[i]})
	}
	drawn := make(map[int]bool)
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
		rows = appendChain(rows, t, chain, fr.first, fr.further, o)
		if len(chain) == 0 {
			continue
		}
		last := chain[len(chain)-1]
		kids := t.Nodes[last].Children
		if len(kids) <= 1 {
			continue
		}
		for k := len(kids) - 1; k >= 0; k-- {
			if k == len(kids)-1 && o.FlatLast {
				stack = append(stack, frame{node: kids[k], first: fr.further, further: fr.further})
			} else if k == len(kids)-1 {
				stack = append(stack, frame{node: kids[k], first: fr.further + "└─ ", further: fr.further + "   "})
			} else {
				stack = append(stack, frame{node: kids[k], first: fr.further + "├─ ", further: fr.further + "│  "})
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
func DrawTree(w io.Writer, t *model.Tree, rows []Row, o TreeOptions) error {
	var b strings.Builder
	for _, r := range rows {
		b.Reset()
		if r.Node < 0 {
			b.WriteString(r.Prefix)
			b.WriteString(o.Styles.Dim.Sprintf("┊ … %d more %s (--full shows them)", r.Folded, plural(r.Folded, "entry", "entries")))
			fmt.Fprintln(w, b.String())
			continue
		}
		nd := &t.Nodes[r.Node]
		if nd.Separator != "" {
			fmt.Fprintln(w, r.Prefix+o.Styles.Dim.Sprint("──── "+EscapeLine(nd.Separator)+" ────"))
		}
		active := r.Node < len(t.Active) && t.Active[r.Node]
		marker := "○"
		if active {
			marker = "●"
		}
		id := nd.ID
		if o.ShortIDs > 0 && len(id) > o.ShortIDs {
			id = id[:o.ShortIDs]
		}
		kind := nd.Type
		if nd.Role != "" {
			kind = nd.Role
		}
		var left strings.Builder
		left.WriteString(r.Prefix)
		left.WriteString(marker)
		left.WriteByte(' ')
		left.WriteString(EscapeLine(id))
		left.WriteByte(' ')
		left.WriteString(EscapeLine(kind))
		var right []string
		if nd.Label != "" {
			right = append(right, "["+EscapeLine(nd.Label)+"]")
		}
		for _, m := range nd.Marks {
			right = append(right, "("+EscapeLine(m)+")")
		}
		if !nd.Time.IsZero() {
			right = append(right, FormatTime(nd.Time, o.TTY))
		}
		if r.Node == t.Leaf {
			right = append(right, "◀ active leaf")
		}
		text := EscapeLine(nd.Text)
		tail := strings.Join(right, " ")
		line := left.String()
		if text != "" {
			avail := 0
			if o.Width > 0 {
				avail = o.Width - runeLen(line) - runeLen(tail) - 3
				if avail < 10 {
					avail = 10
				}
				text = Truncate(text, avail)
			}
			line += "  " + text
		}
		if tail != "" {
			line += "  " + tail
		}
		switch {
		case r.Node == t.Leaf:
			line = o.Styles.Leaf.Sprint(line)
		case active:
			line = o.Styles.Active.Sprint(line)
		}
		fmt.Fprintln(w, line)
	}
	return nil
}

// FormatTime formats a time for people: local "2006-01-02 15:04:05" on a
// terminal, RFC 3339 in UTC otherwise.
func FormatTime(t time.Time, tty bool) string {
	if tty {
		return t.Local().Format("2006-01-02 15:04:05")
	}
	return t.UTC().Format(time.RFC3339)
}

func runeLen(s string) int { return len([]rune(s)) }

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// TreeFooter lists orphans, cycles and duplicate ids below a tree.
func TreeFooter(w io.Writer, t *model.Tree, st Styles) {
	if len(t.Orphans) > 0 {
		fmt.Fprintln(w, st.Warn.Sprintf("\norphans (parent missing): %d", len(t.Orphans)))
		for _, o := range t.Orphans {
			n := &t.Nodes[o]
			fmt.Fprintf(w, "  line %d: %s → missing parent %s\n", n.Line, EscapeLine(n.ID), EscapeLine(n.ParentID))
		}
	}
	if len(t.Cycles) > 0 {
		fmt.Fprintln(w, st.Warn.Sprintf("\nparent cycles: %d", len(t.Cycles)))
		for _, c := range t.Cycles {
			var parts []string
			for _, n := range c {
				parts = append(parts, fmt.Sprintf("%s (line %d)", EscapeLine(t.Nodes[n].ID), t.Nodes[n].Line))
			}
			fmt.Fprintf(w, "  %s\n", strings.Join(parts, " → "))
		}
	}
	if len(t.Duplicates) > 0 {
		fmt.Fprintln(w, st.Warn.Sprintf("\nduplicate ids: %d", len(t.Duplicates)))
		for _, d := range t.Duplicates {
			var lines []string
			for i := range t.Nodes {
				if t.Nodes[i].ID == d {
					lines = append(lines, fmt.Sprint(t.Nodes[i].Line))
				}
			}
			fmt.Fprintf(w, "  %s on lines %s\n", EscapeLine(d), strings.Join(lines, ", "))
		}
	}
}
