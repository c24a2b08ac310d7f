package tree

import (
	"slices"
	"strings"
	"testing"
)

// fuzzID maps a letter to an id: 'o' is the empty id, 'n' and 'p' are long
// (255 and 300 bytes: past what the arena's length byte holds), the others
// are the letter itself.
func fuzzID(c byte) string {
	switch c {
	case 'o':
		return ""
	case 'n':
		return strings.Repeat("n", 255)
	case 'p':
		return strings.Repeat("p", 300)
	}
	return string(c)
}

// fuzzNodes turns bytes into a node list: byte 0 picks the policy, then each
// pair of bytes is (id, parent) over a small alphabet so that duplicates,
// orphans, self-parents and cycles are common. Parent 'z' and '-' are ids no
// node carries ('-' stands for "no parent").
func fuzzNodes(data []byte) (Policy, []Node) {
	if len(data) == 0 {
		return LastWins, nil
	}
	p := Policy(data[0] % 2)
	data = data[1:]
	const alpha = "abcdefghijklmnop"
	var nodes []Node
	line := int32(0)
	for i := 0; i+1 < len(data) && len(nodes) < 256; i += 2 {
		line += 1 + int32(data[i]>>7) // the top bit of the id byte skips a line
		id := fuzzID(alpha[int(data[i])%len(alpha)])
		var parent string
		switch c := data[i+1] % 20; {
		case c < 16:
			parent = fuzzID(alpha[c])
		case c < 18:
			parent = "" // root
		default:
			parent = "z" // unknown id: orphan
		}
		nodes = append(nodes, Node{ID: id, Parent: parent, Line: line})
	}
	return p, nodes
}

// oracle is a brute-force model of the index.
type oracle struct {
	byID   map[string]int
	parent []int  // resolved parent or None
	cyc    []bool // onCycle, memoized
}

func newOracle(p Policy, nodes []Node) *oracle {
	o := &oracle{byID: map[string]int{}, parent: make([]int, len(nodes))}
	for i, n := range nodes {
		if _, seen := o.byID[n.ID]; !seen || p == LastWins {
			o.byID[n.ID] = i
		}
	}
	for i, n := range nodes {
		o.parent[i] = None
		if n.Parent != "" {
			if j, ok := o.byID[n.Parent]; ok {
				o.parent[i] = j
			}
		}
	}
	o.cyc = make([]bool, len(nodes))
	for i := range nodes {
		o.cyc[i] = o.onCycle(i)
	}
	return o
}

// onCycle: following parents from i comes back to i, and i is not its own parent.
func (o *oracle) onCycle(i int) bool {
	if o.parent[i] == i {
		return false
	}
	v := i
	for range len(o.parent) {
		v = o.parent[v]
		if v == None {
			return false
		}
		if v == i {
			return true
		}
	}
	return false
}

// reachesCycle: the parent walk from i meets a node on a cycle or a node
// that is its own parent (Path reports both as cycle = true).
func (o *oracle) reachesCycle(i int) bool {
	v := i
	for range len(o.parent) + 1 {
		if v == None {
			return false
		}
		if o.cyc[v] {
			return true
		}
		if o.parent[v] == v {
			return true
		}
		v = o.parent[v]
	}
	return false
}

func FuzzIndex(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{0, 0, 16, 1, 0, 2, 1})                 // chain a<-b<-c
	f.Add([]byte{0, 0, 1, 1, 0})                        // 2-cycle a<b b<a
	f.Add([]byte{1, 0, 2, 1, 0, 2, 1, 3, 2})            // 3-cycle with a tail
	f.Add([]byte{0, 0, 0, 1, 1})                        // self-parents
	f.Add([]byte{1, 0, 16, 0, 0, 1, 0, 0, 1})           // duplicates, first wins
	f.Add([]byte{0, 0, 18, 1, 0, 0, 19, 2, 2, 3, 3, 4}) // orphans and self-parents
	f.Fuzz(func(t *testing.T, data []byte) {
		pol, nodes := fuzzNodes(data)
		hint := 0 // bit 1 of byte 0: pre-size the index or let it grow
		if len(data) > 0 && data[0]&2 != 0 {
			hint = len(nodes)
		}
		x := New(pol, hint)
		hashed := len(data) > 0 && data[0]&4 != 0 // bit 2: AddHashed with HashBytes, Touch ahead
		for k, n := range nodes {
			if hashed {
				x.Touch([]uint64{HashString(n.ID), uint64(k) * 0x9e3779b97f4a7c15})
				x.AddHashed(n, HashBytes([]byte(n.ID)))
			} else {
				x.Add(n)
			}
		}
		for i, nd := range nodes { // before Finish too
			if x.ID(i) != nd.ID || x.ParentID(i) != nd.Parent {
				t.Fatalf("before Finish: node %d is %q<%q, want %q<%q", i, x.ID(i), x.ParentID(i), nd.ID, nd.Parent)
			}
		}
		x.Finish()
		o := newOracle(pol, nodes)
		n := len(nodes)
		if x.Len() != n || x.Last() != n-1 {
			t.Fatalf("Len %d Last %d for %d nodes", x.Len(), x.Last(), n)
		}

		var wantRoots, wantOrphans, wantSelf, wantLeaves []int
		childCount := make([]int, n)
		for i := range nodes {
			if p := o.parent[i]; p != None && p != i {
				childCount[p]++
			}
		}
		for i, nd := range nodes {
			switch {
			case nd.Parent == "":
				wantRoots = append(wantRoots, i)
			case o.parent[i] == None:
				wantOrphans = append(wantOrphans, i)
			case o.parent[i] == i:
				wantSelf = append(wantSelf, i)
			}
			if childCount[i] == 0 {
				wantLeaves = append(wantLeaves, i)
			}
			if x.ID(i) != nd.ID || x.ParentID(i) != nd.Parent || x.HasParent(i) != (nd.Parent != "") || x.Line(i) != nd.Line {
				t.Fatalf("node %d is %+v, want %+v", i, x.Node(i), nd)
			}
			if got, ok := x.Lookup(nd.ID); !ok || got != o.byID[nd.ID] {
				t.Fatalf("Lookup(%q) = %d, %v, want %d", nd.ID, got, ok, o.byID[nd.ID])
			}
			if want, _ := o.byID[nd.ID]; x.Shadowed(i) != (want != i) {
				t.Fatalf("Shadowed(%d) = %v", i, x.Shadowed(i))
			}
			wantParent := o.parent[i]
			if wantParent == i {
				wantParent = None
			}
			if x.Parent(i) != wantParent {
				t.Fatalf("Parent(%d) = %d, want %d", i, x.Parent(i), wantParent)
			}
			var wantChildren []int32
			for j := range nodes {
				if o.parent[j] == i && j != i {
					wantChildren = append(wantChildren, int32(j))
				}
			}
			if got := x.Children(i); !slices.Equal(got, wantChildren) {
				t.Fatalf("Children(%d) = %v, want %v", i, got, wantChildren)
			}
		}
		eq := func(name string, got, want []int) {
			if !slices.Equal(got, want) {
				t.Fatalf("%s = %v, want %v", name, got, want)
			}
		}
		for i := range nodes {
			for j := range nodes {
				if x.SameID(i, j) != (nodes[i].ID == nodes[j].ID) {
					t.Fatalf("SameID(%d, %d) = %v for ids %q, %q", i, j, x.SameID(i, j), nodes[i].ID, nodes[j].ID)
				}
			}
		}
		if _, ok := x.Lookup("z"); ok {
			t.Fatalf("Lookup(z) found an id no node has")
		}
		eq("Roots", x.Roots(), wantRoots)
		eq("Orphans", x.Orphans(), wantOrphans)
		eq("SelfParents", x.SelfParents(), wantSelf)
		eq("Leaves", x.Leaves(), wantLeaves)

		// Duplicates: ids seen more than once, in order of second occurrence.
		var wantDups []string
		count := map[string]int{}
		for _, nd := range nodes {
			count[nd.ID]++
			if count[nd.ID] == 2 {
				wantDups = append(wantDups, nd.ID)
			}
		}
		if !slices.Equal(x.Duplicates(), wantDups) {
			t.Fatalf("Duplicates = %v, want %v", x.Duplicates(), wantDups)
		}

		// Cycles: every node in at most one cycle, exactly the oracle's cycle
		// nodes, each cycle in parent order, no self-parents.
		member := make([]int, n)
		for ci, c := range x.Cycles() {
			if len(c) < 2 {
				t.Fatalf("cycle %d too short: %v", ci, c)
			}
			for k, v := range c {
				if member[v] != 0 {
					t.Fatalf("node %d in cycles %d and %d", v, member[v]-1, ci)
				}
				member[v] = ci + 1
				if o.parent[v] != c[(k+1)%len(c)] {
					t.Fatalf("cycle %v not in parent order at %d", c, v)
				}
			}
		}
		for i := range nodes {
			want := o.cyc[i]
			if (member[i] != 0) != want || x.InCycle(i) != want {
				t.Fatalf("node %d: in Cycles %v, InCycle %v, oracle %v", i, member[i] != 0, x.InCycle(i), want)
			}
		}

		// Path terminates, has no repeated node, ends at i, follows parents.
		// PathInto gives the same, in a reused buffer (too short at first,
		// holding the previous path after).
		var buf []int
		for i := range nodes {
			p, cyc := x.Path(i)
			pi, cyci := x.PathInto(buf, i)
			if !slices.Equal(pi, p) || cyci != cyc {
				t.Fatalf("PathInto(%d) = %v, %v; Path %v, %v", i, pi, cyci, p, cyc)
			}
			buf = pi
			if len(p) == 0 || p[len(p)-1] != i || len(p) > n {
				t.Fatalf("Path(%d) = %v", i, p)
			}
			seen := map[int]bool{}
			for k, v := range p {
				if seen[v] {
					t.Fatalf("Path(%d) repeats %d: %v", i, v, p)
				}
				seen[v] = true
				if k > 0 && o.parent[v] != p[k-1] {
					t.Fatalf("Path(%d) = %v: %d's parent is %d", i, p, v, o.parent[v])
				}
			}
			if cyc != o.reachesCycle(i) {
				t.Fatalf("Path(%d) cycle = %v, oracle %v", i, cyc, o.reachesCycle(i))
			}
			if top := p[0]; !cyc && x.Parent(top) != None {
				t.Fatalf("Path(%d) = %v does not start at a node without parent", i, p)
			}
		}
	})
}

// summary is everything an index answers about its nodes, as text.
func summary(x *Index) string {
	var b strings.Builder
	for i := range x.Len() {
		path, cyc := x.Path(i)
		b.WriteString(strings.Join([]string{x.ID(i), x.ParentID(i), itoa(x.Parent(i)), itoa(int(x.Line(i))),
			strings.Join(children(x, i), ","), strings.Join(ids(x, path), ","), itoa(len(x.Children(i)))}, "|"))
		if cyc || x.InCycle(i) || x.Shadowed(i) || x.HasParent(i) {
			b.WriteString(strings.Join([]string{"", itoa(boolInt(cyc)), itoa(boolInt(x.InCycle(i))), itoa(boolInt(x.Shadowed(i))), itoa(boolInt(x.HasParent(i)))}, "/"))
		}
		b.WriteByte('\n')
	}
	for _, id := range []string{"a", "b", "z", "", strings.Repeat("n", 255)} {
		j, ok := x.Lookup(id)
		b.WriteString(itoa(j) + itoa(boolInt(ok)) + ";")
	}
	b.WriteString(strings.Join(x.Duplicates(), ",") + "\n")
	for _, o := range x.Orphans() {
		b.WriteString(itoa(o) + ",")
	}
	for _, c := range x.Cycles() {
		for _, n := range c {
			b.WriteString(itoa(n) + " ")
		}
		b.WriteString(";")
	}
	for _, r := range x.Roots() {
		b.WriteString(itoa(r) + ",")
	}
	return b.String()
}

func boolInt(v bool) int {
	if v {
		return 1
	}
	return 0
}

// FuzzResetSameAsNew: an index Reset after another file (its memory kept)
// answers as a new one about the next file's nodes, whatever the first
// held (more or fewer nodes, long ids, cycles, duplicates).
func FuzzResetSameAsNew(f *testing.F) {
	f.Add([]byte{0, 0, 16, 1, 0, 2, 1}, []byte{1, 0, 2, 1, 0, 2, 1, 3, 2})
	f.Add([]byte{0, 13, 1, 14, 2, 0, 19, 1, 1, 5, 5}, []byte{0, 0, 1, 1, 0})
	f.Add(append([]byte{2}, make([]byte, 400)...), []byte{3, 0, 18, 1, 0, 0, 19, 2, 2, 3, 3, 4})
	f.Fuzz(func(t *testing.T, first, second []byte) {
		build := func(x *Index, nodes []Node) {
			for _, n := range nodes {
				x.Add(n)
			}
			x.Finish()
		}
		p1, n1 := fuzzNodes(first)
		p2, n2 := fuzzNodes(second)
		hint := 0
		if len(second) > 0 && second[0]&2 != 0 {
			hint = len(n2)
		}
		x := New(p1, len(n1))
		build(x, n1)
		x.Reset(p2, hint)
		build(x, n2)
		y := New(p2, hint)
		build(y, n2)
		if a, b := summary(x), summary(y); a != b {
			t.Fatalf("reset index:\n%s\nnew index:\n%s", a, b)
		}
	})
}

// TestResetManyIDs: ids over several arena chunks, then Reset and other
// ids over several chunks (the first index's, reused) and the child rows
// of a bigger index: the answers are a new index's.
func TestResetManyIDs(t *testing.T) {
	nodes := func(n int, tag string) []Node {
		var out []Node
		for i := range n {
			id := tag + strings.Repeat("x", i%40) + itoa(i)
			parent := ""
			if i > 0 {
				parent = tag + strings.Repeat("x", (i-1)%40) + itoa(i-1)
				if i%7 == 0 {
					parent = tag + itoa(i/2) // an orphan or an earlier id
				}
			}
			out = append(out, Node{ID: id, Parent: parent, Line: int32(i + 1)})
		}
		return out
	}
	x := New(LastWins, 0)
	for _, n := range nodes(30000, "a") {
		x.Add(n)
	}
	x.Finish()
	if len(x.ar.chunks) < 3 {
		t.Fatalf("%d arena chunks: the test needs several", len(x.ar.chunks))
	}
	for _, k := range []int{20000, 50000} {
		second := nodes(k, "b")
		x.Reset(FirstWins, 100)
		y := New(FirstWins, 100)
		for _, n := range second {
			x.Add(n)
			y.Add(n)
		}
		x.Finish()
		y.Finish()
		if a, b := summary(x), summary(y); a != b {
			t.Fatalf("%d nodes: the reset index differs from a new one", k)
		}
	}
}
