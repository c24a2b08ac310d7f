// Package tree indexes the id/parent structure of an append-only session file.
//
// Entries are added in file order with their id and parent id. The index
// answers structural questions without ever looping: children, roots (several
// roots are normal), leaves, orphans (the parent id names no entry), self
// parents, cycles, duplicate ids and the root→leaf path of any entry, with a
// cycle guard. It stores ids and small integers only, never payloads.
package tree

import "slices"

// Policy says which entry an id resolves to when it occurs more than once.
type Policy uint8

const (
	// LastWins resolves a duplicate id to its last occurrence (pi's byId map).
	LastWins Policy = iota
	// FirstWins resolves a duplicate id to its first occurrence.
	FirstWins
)

// None is the node number of "no node".
const None = -1

// Node is one entry of the index.
type Node struct {
	ID        string
	Parent    string // parent id as stored ("" when absent or null)
	HasParent bool   // set by Add: the parent id is a non-empty string
	Line      int32  // 1-based line number in the file
}

// Index is the id/parent index of one file. Build it with Add then Finish.
type Index struct {
	nodes  []Node
	policy Policy

	byID       map[string]int32
	parent     []int32 // resolved parent node or None
	childStart []int32 // children of i are childList[childStart[i]:childStart[i+1]]
	childList  []int32
	dups       []string
	dupSeen    map[string]bool
	finished   bool
	cycles     [][]int
	inCycle    []bool
}

// New returns an empty index resolving duplicates by p. sizeHint pre-sizes it.
func New(p Policy, sizeHint int) *Index {
	return &Index{
		policy: p,
		nodes:  make([]Node, 0, sizeHint),
		byID:   make(map[string]int32, sizeHint),
	}
}

// Add appends an entry in file order and returns its node number.
func (x *Index) Add(n Node) int {
	n.HasParent = n.Parent != ""
	i := int32(len(x.nodes))
	x.nodes = append(x.nodes, n)
	if x.policy == LastWins {
		// One map operation: the map grows exactly when the id is new.
		before := len(x.byID)
		x.byID[n.ID] = i
		if len(x.byID) == before {
			x.addDup(n.ID)
		}
		return int(i)
	}
	if prev, ok := x.byID[n.ID]; ok {
		if x.dupSeen == nil {
			x.dupSeen = map[string]bool{}
		}
		if !x.dupSeen[n.ID] {
			x.dupSeen[n.ID] = true
			x.dups = append(x.dups, n.ID)
		}
		if x.policy == LastWins {
			x.byID[n.ID] = i
		} else {
			_ = prev
		}
	} else {
		x.byID[n.ID] = i
	}
	return int(i)
}

func (x *Index) addDup(id string) {
	if x.dupSeen == nil {
		x.dupSeen = map[string]bool{}
	}
	if !x.dupSeen[id] {
		x.dupSeen[id] = true
		x.dups = append(x.dups, id)
	}
}

// unique reports whether id occurs once at most (no map lookup unless the
// file has duplicate ids).
func (x *Index) unique(id string) bool { return x.dupSeen == nil || !x.dupSeen[id] }

// Grow makes room for at least n more entries without reallocating.
func (x *Index) Grow(n int) {
	if n > 0 {
		x.nodes = slices.Grow(x.nodes, n)
	}
}

// Finish resolves parents, children and cycles. Call it once after the last Add.
//
// Besides the nodes and the id map, the finished index holds 12 bytes per
// entry (resolved parent, child row start, child list); building it needs one
// more byte per entry for a moment (the cycle walk's state).
func (x *Index) Finish() {
	n := len(x.nodes)
	x.parent = make([]int32, n)
	// Children in compressed rows without a separate fill array: s[p+2]
	// counts p's children, the prefix sums make s[p+1] the start of p's row,
	// and placing each child advances s[p+1] to the start of row p+1, so that
	// afterwards s[k] is the start of row k. File order is kept because i grows.
	s := make([]int32, n+2)
	for i := range x.nodes {
		x.parent[i] = None
		nd := &x.nodes[i]
		if !nd.HasParent {
			continue
		}
		var p int32
		if i > 0 && x.nodes[i-1].ID == nd.Parent && x.unique(nd.Parent) {
			p = int32(i - 1) // the usual chain: no lookup in the id map
		} else {
			var ok bool
			if p, ok = x.byID[nd.Parent]; !ok {
				continue
			}
		}
		nd.Parent = x.nodes[p].ID // share the parent's string: one copy of each id
		x.parent[i] = p
		if int(p) != i {
			s[p+2]++
		}
	}
	for i := 2; i < len(s); i++ {
		s[i] += s[i-1]
	}
	x.childList = make([]int32, s[n+1])
	for i := range x.nodes {
		p := x.parent[i]
		if p == None || int(p) == i {
			continue
		}
		x.childList[s[p+1]] = int32(i)
		s[p+1]++
	}
	x.childStart = s[: n+1 : n+1]
	x.findCycles()
	x.finished = true
}

// findCycles finds every cycle of the parent function (each node has at most
// one parent, so the graph is functional and each cycle is found once).
func (x *Index) findCycles() {
	n := len(x.nodes)
	x.cycles = nil
	state := make([]uint8, n) // 0 new, 1 on current walk, 2 done
	x.inCycle = nil           // allocated when the first cycle is found
	var walk []int32
	for s := 0; s < n; s++ {
		if state[s] != 0 {
			continue
		}
		walk = walk[:0]
		v := int32(s)
		for v != None && state[v] == 0 {
			state[v] = 1
			walk = append(walk, v)
			p := x.parent[v]
			if p == v { // self-parent: reported separately, not a cycle
				break
			}
			v = p
		}
		if v != None && state[v] == 1 && x.parent[v] != v {
			// v is on the current walk: the cycle is walk[pos(v):].
			var cyc []int
			for k := len(walk) - 1; k >= 0; k-- {
				cyc = append(cyc, int(walk[k]))
				if walk[k] == v {
					break
				}
			}
			// report in file order of the walk, starting from the earliest node
			for i, j := 0, len(cyc)-1; i < j; i, j = i+1, j-1 {
				cyc[i], cyc[j] = cyc[j], cyc[i]
			}
			if x.inCycle == nil {
				x.inCycle = make([]bool, n)
			}
			for _, c := range cyc {
				x.inCycle[c] = true
			}
			x.cycles = append(x.cycles, cyc)
		}
		for _, w := range walk {
			state[w] = 2
		}
	}
}

// Len is the number of entries.
func (x *Index) Len() int { return len(x.nodes) }

// ID returns the id of node i as it was added.
func (x *Index) ID(i int) string { return x.nodes[i].ID }

// ParentID returns the parent id of node i as stored ("" when it has none).
func (x *Index) ParentID(i int) string { return x.nodes[i].Parent }

// HasParent reports whether node i has a parent id (a non-empty string).
func (x *Index) HasParent(i int) bool { return x.nodes[i].HasParent }

// Line returns the line number node i was added with.
func (x *Index) Line(i int) int32 { return x.nodes[i].Line }

// Node returns node i as a value (ID, Parent, HasParent, Line).
func (x *Index) Node(i int) Node { return x.nodes[i] }

// Lookup returns the node an id resolves to under the index's policy.
func (x *Index) Lookup(id string) (int, bool) {
	i, ok := x.byID[id]
	return int(i), ok
}

// Parent returns the resolved parent node of i, or None (no parent, unknown
// parent, or i is its own parent).
func (x *Index) Parent(i int) int {
	p := int(x.parent[i])
	if p == i {
		return None
	}
	return p
}

// Children returns the children of i in file order (do not modify).
func (x *Index) Children(i int) []int32 {
	return x.childList[x.childStart[i]:x.childStart[i+1]]
}

// Roots returns the nodes with no parent id, in file order.
func (x *Index) Roots() []int {
	var out []int
	for i := range x.nodes {
		if !x.nodes[i].HasParent {
			out = append(out, i)
		}
	}
	return out
}

// CountRoots returns the number of nodes with no parent id and the second
// of them in file order (None when there are fewer than two), without
// listing them all.
func (x *Index) CountRoots() (n, second int) {
	second = None
	for i := range x.nodes {
		if !x.nodes[i].HasParent {
			n++
			if n == 2 {
				second = i
			}
		}
	}
	return n, second
}

// Orphans returns the nodes whose parent id names no entry, in file order.
func (x *Index) Orphans() []int {
	var out []int
	for i := range x.nodes {
		if x.nodes[i].HasParent && x.parent[i] == None {
			out = append(out, i)
		}
	}
	return out
}

// SelfParents returns the nodes whose parent id is their own id.
func (x *Index) SelfParents() []int {
	var out []int
	for i := range x.nodes {
		if x.parent[i] == int32(i) {
			out = append(out, i)
		}
	}
	return out
}

// Cycles returns the parent cycles, excluding self-parents. Each cycle lists
// node numbers in parent order: the parent of c[k] is c[k+1], the parent of
// the last is c[0]; c[0] is the first cycle node reached by a scan in file
// order.
func (x *Index) Cycles() [][]int { return x.cycles }

// InCycle reports whether node i is on a parent cycle.
func (x *Index) InCycle(i int) bool { return x.inCycle != nil && x.inCycle[i] }

// Duplicates returns the ids that occur more than once, in order of their
// second occurrence.
func (x *Index) Duplicates() []string { return x.dups }

// Shadowed reports whether node i is an occurrence of a duplicate id that the
// policy does not resolve to.
func (x *Index) Shadowed(i int) bool {
	id := x.nodes[i].ID
	if x.unique(id) {
		return false
	}
	return int(x.byID[id]) != i
}

// Leaves returns the nodes without children, in file order.
func (x *Index) Leaves() []int {
	var out []int
	for i := range x.nodes {
		if x.childStart[i] == x.childStart[i+1] {
			out = append(out, i)
		}
	}
	return out
}

// Last returns the last node in file order (pi's active leaf), or None.
func (x *Index) Last() int { return len(x.nodes) - 1 }

// Path returns the root→i path. If the parent walk meets a node twice (a
// cycle, or a node that is its own parent), it stops before repeating and
// reports cycle = true.
func (x *Index) Path(i int) (path []int, cycle bool) {
	if i < 0 || i >= len(x.nodes) {
		return nil, false
	}
	// A walk that ends at None within len(nodes) steps met no node twice:
	// collect it without remembering nodes. Only a walk into a cycle (rare)
	// needs the set of nodes seen.
	steps := 0
	v := int32(i)
	for ; v != None && steps <= len(x.nodes) && x.parent[v] != v; v = x.parent[v] {
		steps++
	}
	if v == None {
		path = make([]int, 0, steps)
		for v := int32(i); v != None; v = x.parent[v] {
			path = append(path, int(v))
		}
	} else {
		seen := make(map[int32]struct{})
		for v := int32(i); v != None; v = x.parent[v] {
			if _, ok := seen[v]; ok {
				cycle = true
				break
			}
			seen[v] = struct{}{}
			path = append(path, int(v))
			if x.parent[v] == v { // its own parent: a loop of one
				cycle = true
				break
			}
		}
	}
	for a, b := 0, len(path)-1; a < b; a, b = a+1, b-1 {
		path[a], path[b] = path[b], path[a]
	}
	return path, cycle
}
