// Package tree indexes the id/parent structure of an append-only session file.
//
// Entries are added in file order with their id and parent id. The index
// answers structural questions without ever looping: children, roots (several
// roots are normal), leaves, orphans (the parent id names no entry), self
// parents, cycles, duplicate ids and the root→leaf path of any entry, with a
// cycle guard. It stores ids and small integers only, never payloads.
//
// Memory: per entry the finished index holds an id handle, the resolved
// parent, a child-row start and (for entries with a parent) a slot in the
// child list, 4 bytes each, plus one bit for "has a parent id". Line numbers
// cost nothing per entry while entries sit on consecutive lines (see
// lineTable), at most 4 bytes otherwise. Ids
// are stored once each in an append-only byte arena (a length byte and the
// bytes), found through an open-addressing table of entry numbers (4 bytes a
// slot and a 1-byte tag of the id's hash, at most seven eighths full). Repeated ids (duplicates, every entry
// without an id) share one copy. A parent id that names no entry is kept in
// the arena too and found by binary search in a list of the orphans.
package tree

import (
	"encoding/binary"
	"hash/maphash"
	"iter"
	"slices"
	"sort"
	"strings"
	"sync"
	"unsafe"
)

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

// Node is one entry of the index, as given to Add and returned by Node.
type Node struct {
	ID        string
	Parent    string // parent id as stored ("" when absent or null)
	HasParent bool   // set by Add: the parent id is a non-empty string
	Line      int32  // 1-based line number in the file
}

// Index is the id/parent index of one file. Build it with Add then Finish.
type Index struct {
	policy Policy

	ids   []uint32 // id handle of each node (into ar)
	lines lineTable
	// par holds, while building, the handle of each node's parent id (0
	// when it has none) and, after Finish, the resolved parent node or None.
	par    []int32
	hasPar []uint64 // bit i: node i has a parent id
	ar     arena
	// tab is an open-addressing hash table of node+1 (0 = empty slot): the
	// node each distinct id resolves to under the policy. tags[i] is 0 for
	// an empty slot and otherwise 0x80 | seven bits of the id's hash, so a
	// probe compares the id (two dependent loads from memory, ids and the
	// arena) only when its tag matches: a miss costs one load of tags.
	tab  []uint32
	tags []uint8
	// touched keeps the loads of Touch from being optimized away.
	touched uint8
	nKeys   int
	// orphans holds, after Finish, the parent id handles of the nodes whose
	// parent id names no node, in node order.
	orphans []orphan

	childStart []int32 // children of i are childList[childStart[i]:childStart[i+1]]
	childList  []int32
	dups       []string
	dupSeen    map[uint32]bool // id handles that occur more than once
	finished   bool
	// ordered is set by Finish when every resolved parent is an earlier
	// node (the file order of an append-only session): the parent walk
	// then only goes down, so there is no cycle and no path is longer than
	// the node's number plus one.
	ordered bool
	cycles  [][]int
	inCycle []bool
	// spareRows holds, after Reset, the child rows of the index before
	// (childStart, childList), for children to reuse.
	spareRows [2][]int32
	// kids lists the children when first asked for (children).
	kids sync.Once
}

type orphan struct {
	node int32
	h    uint32
}

// New returns an empty index resolving duplicates by p. sizeHint pre-sizes it.
func New(p Policy, sizeHint int) *Index {
	x := &Index{policy: p}
	x.Grow(sizeHint)
	n := 16
	for n*7 < sizeHint*8 {
		n *= 2
	}
	x.tab = make([]uint32, n)
	x.tags = make([]uint8, n)
	return x
}

// Reset empties x for another file, resolving duplicates by p and sized
// for sizeHint entries as New sizes it, keeping the memory x has grown: a
// listing indexes thousands of files one after another. Every string x
// returned before (ID, ParentID, Node, Duplicates) is invalid after it.
func (x *Index) Reset(p Policy, sizeHint int) {
	rows := [2][]int32{x.childStart[:0], x.childList[:0]}
	if cap(x.spareRows[0]) > cap(rows[0]) {
		rows = x.spareRows
	}
	n := 16
	for n*7 < sizeHint*8 {
		n *= 2
	}
	tab, tags := x.tab, x.tags
	if cap(tab) >= n && cap(tags) >= n {
		tab, tags = tab[:n], tags[:n]
		clear(tab)
		clear(tags)
	} else {
		tab, tags = make([]uint32, n), make([]uint8, n)
	}
	ar := x.ar
	ar.reset()
	*x = Index{policy: p, ids: x.ids[:0], par: x.par[:0], hasPar: x.hasPar[:0], lines: lineTable{runs: x.lines.runs[:0]},
		ar: ar, tab: tab, tags: tags, orphans: x.orphans[:0], spareRows: rows}
	x.Grow(sizeHint)
}

// Add appends an entry in file order and returns its node number.
// n.HasParent is ignored: an entry has a parent when n.Parent is not "".
// The index keeps copies of n.ID and n.Parent, never the strings given:
// they may share a buffer the caller reuses.
func (x *Index) Add(n Node) int {
	return x.AddHashed(n, HashString(n.ID))
}

// HashString is the hash of an id that AddHashed takes: callers may compute
// it ahead, on another goroutine.
func HashString(id string) uint64 { return maphash.String(seed, id) }

// HashBytes is HashString(string(id)) without the conversion.
func HashBytes(id []byte) uint64 { return maphash.Bytes(seed, id) }

// AddHashed is Add with h = HashString(n.ID) given: the hash can be computed
// where the id is found (a parallel worker), not on the goroutine that
// builds the index. A wrong h makes a wrong index.
func (x *Index) AddHashed(n Node, hash uint64) int {
	i := len(x.ids)
	if (x.nKeys+1)*8 > len(x.tab)*7 { // growTable's test, without the call
		x.growTable()
	}
	// findHashed, without the call
	mask := len(x.tab) - 1
	slot, tag := hashTag(hash, mask)
	found := false
	tags := x.tags[:len(x.tab)]
	for {
		slot &= mask
		if t := tags[slot]; t == 0 {
			break
		} else if t == tag && x.ar.equal(x.ids[x.tab[slot]-1], n.ID) {
			found = true
			break
		}
		slot++
	}
	var h uint32
	if found {
		h = x.ids[x.tab[slot]-1] // share the first copy of the id
		if x.policy == LastWins {
			x.tab[slot] = uint32(i + 1)
		}
		x.addDup(h)
	} else {
		h = x.ar.add(n.ID)
		x.tab[slot] = uint32(i + 1)
		x.tags[slot] = tag
		x.nKeys++
	}
	x.ids = append(x.ids, h)
	if t := &x.lines; t.dense == nil && len(t.runs) > 0 && t.runs[len(t.runs)-1].delta == n.Line-int32(i) {
		t.n = i + 1 // the run goes on (lineTable.add, without the call)
	} else {
		t.add(i, n.Line)
	}
	if i%64 == 0 {
		x.hasPar = append(x.hasPar, 0)
	}
	var ph uint32
	if n.Parent != "" {
		x.hasPar[i/64] |= 1 << (i % 64)
		switch {
		case i > 0 && x.ar.equal(x.ids[i-1], n.Parent):
			ph = x.ids[i-1] // the usual chain
		default:
			if s, _, ok := x.find(n.Parent); ok {
				ph = x.ids[x.tab[s]-1]
			} else {
				ph = x.ar.add(n.Parent) // a later entry's id, or dangling
			}
		}
	}
	x.par = append(x.par, int32(ph))
	return i
}

func (x *Index) addDup(h uint32) {
	if x.dupSeen == nil {
		x.dupSeen = map[uint32]bool{}
	}
	if !x.dupSeen[h] {
		x.dupSeen[h] = true
		x.dups = append(x.dups, x.ar.str(h))
	}
}

// unique reports whether the id with handle h occurs once at most (no map
// lookup unless the file has duplicate ids).
func (x *Index) unique(h uint32) bool { return x.dupSeen == nil || !x.dupSeen[h] }

var seed = maphash.MakeSeed()

// hashTag returns the table slot an id with hash h starts probing at and
// its tag.
func hashTag(h uint64, mask int) (int, uint8) {
	return int(h) & mask, uint8(h>>57) | 0x80
}

// find returns the table slot holding id s, or the empty slot where it goes,
// with the tag of s.
func (x *Index) find(s string) (slot int, tag uint8, found bool) {
	return x.findHashed(s, maphash.String(seed, s))
}

// findHashed is find with h = HashString(s) given.
func (x *Index) findHashed(s string, h uint64) (slot int, tag uint8, found bool) {
	mask := len(x.tab) - 1
	i, t := hashTag(h, mask)
	tags := x.tags[:len(x.tab)]
	for {
		switch tags[i&mask] {
		case 0:
			return i & mask, t, false
		case t:
			if x.ar.str(x.ids[x.tab[i&mask]-1]) == s {
				return i & mask, t, true
			}
		}
		i++
	}
}

// Touch loads the table's tag bytes and entries where ids of hashes hs
// start their probe, so that the memory reads of a run of Adds overlap
// instead of each waiting for its own (the loads are independent of one
// another). The entry matters as much as the tag: Add stores into it, and
// a store that misses the cache holds a slot of the CPU's store buffer
// until the line arrives; a few of them fill it and stall every later
// store. It changes nothing.
func (x *Index) Touch(hs []uint64) {
	if len(x.tags) == 0 {
		return
	}
	mask := uint64(len(x.tags) - 1)
	tags, tab := x.tags, x.tab[:len(x.tags)]
	var acc uint8
	var acc2 uint32
	for _, h := range hs {
		acc |= tags[h&mask]
		acc2 |= tab[h&mask]
	}
	x.touched |= acc | uint8(acc2)
}

// growTable doubles the table before it gets more than seven eighths full
// (with tags, a probe of an occupied slot reads a byte, so long runs are
// cheap: the table can be fuller than without).
func (x *Index) growTable() {
	if len(x.tab) == 0 {
		x.tab = make([]uint32, 16)
		x.tags = make([]uint8, 16)
	}
	if (x.nKeys+1)*8 <= len(x.tab)*7 {
		return
	}
	old := x.tab
	x.tab = make([]uint32, 2*len(old))
	x.tags = make([]uint8, 2*len(old))
	mask := len(x.tab) - 1
	for _, v := range old {
		if v == 0 {
			continue
		}
		i, t := hashTag(maphash.String(seed, x.ar.str(x.ids[v-1])), mask)
		for x.tags[i] != 0 {
			i = (i + 1) & mask
		}
		x.tab[i] = v
		x.tags[i] = t
	}
}

// Grow makes room for at least n more entries without reallocating.
func (x *Index) Grow(n int) {
	if n > 0 {
		x.ids = slices.Grow(x.ids, n)
		x.par = slices.Grow(x.par, n)
		x.hasPar = slices.Grow(x.hasPar, (len(x.ids)+n+63)/64-len(x.hasPar))
	}
}

// Finish resolves parents and cycles. Call it once after the last Add;
// later calls do nothing. The children are listed when first asked for
// (Children, Leaves): a listing, which never asks, does not build them.
//
// Building it needs, besides the finished index, one byte per entry for a
// moment (the cycle walk's state).
func (x *Index) Finish() {
	if x.finished {
		return
	}
	n := len(x.ids)
	later := false // a parent at or after its child (self-parents included)
	for i := range n {
		if !x.HasParent(i) {
			x.par[i] = None
			continue
		}
		h := uint32(x.par[i])
		p := int32(None)
		if i > 0 && x.ids[i-1] == h && x.unique(h) {
			p = int32(i - 1) // the usual chain: no lookup
		} else if slot, _, ok := x.find(x.ar.str(h)); ok {
			p = int32(x.tab[slot] - 1)
		} else {
			x.orphans = append(x.orphans, orphan{int32(i), h})
		}
		x.par[i] = p
		if p >= int32(i) {
			later = true
		}
	}
	x.ordered = !later
	if x.ordered {
		// Every walk goes to smaller nodes and ends: no cycle.
		x.cycles, x.inCycle = nil, nil
	} else {
		x.findCycles()
	}
	x.finished = true
}

// children lists the children of every node (childStart, childList), once.
func (x *Index) children() {
	if !x.finished {
		return // as before Finish: no rows
	}
	x.kids.Do(func() {
		n := len(x.ids)
		// Children in compressed rows without a separate fill array:
		// s[p+2] counts p's children, the prefix sums make s[p+1] the
		// start of p's row, and placing each child advances s[p+1] to
		// the start of row p+1, so that afterwards s[k] is the start of
		// row k. File order is kept because i grows.
		s := x.spareRows[0]
		if cap(s) >= n+2 {
			s = s[:n+2]
			clear(s)
		} else {
			s = make([]int32, n+2)
		}
		for i := range n {
			if p := x.par[i]; p != None && int(p) != i {
				s[p+2]++
			}
		}
		for i := 2; i < len(s); i++ {
			s[i] += s[i-1]
		}
		if cl := x.spareRows[1]; cap(cl) >= int(s[n+1]) {
			x.childList = cl[:s[n+1]] // every slot is written below
		} else {
			x.childList = make([]int32, s[n+1])
		}
		x.spareRows = [2][]int32{}
		for i := range n {
			p := x.par[i]
			if p == None || int(p) == i {
				continue
			}
			x.childList[s[p+1]] = int32(i)
			s[p+1]++
		}
		x.childStart = s[: n+1 : n+1]
	})
}

// Len is the number of entries.
func (x *Index) Len() int { return len(x.ids) }

// ID returns the id of node i as it was added. The string shares the
// index's memory (it stays valid and unchanged for as long as it is used).
func (x *Index) ID(i int) string { return x.ar.str(x.ids[i]) }

// SameID reports whether nodes i and j have the same id, as
// ID(i) == ID(j) but without reading the ids: equal ids share one copy.
func (x *Index) SameID(i, j int) bool { return x.ids[i] == x.ids[j] }

// ParentID returns the parent id of node i as stored ("" when it has none).
func (x *Index) ParentID(i int) string {
	if !x.HasParent(i) {
		return ""
	}
	if !x.finished {
		return x.ar.str(uint32(x.par[i]))
	}
	if p := x.par[i]; p != None {
		return x.ar.str(x.ids[p]) // the parent's own id: the same string
	}
	k := sort.Search(len(x.orphans), func(k int) bool { return x.orphans[k].node >= int32(i) })
	return x.ar.str(x.orphans[k].h)
}

// HasParent reports whether node i has a parent id (a non-empty string).
func (x *Index) HasParent(i int) bool { return x.hasPar[i/64]&(1<<(i%64)) != 0 }

// Line returns the line number node i was added with.
func (x *Index) Line(i int) int32 { return x.lines.at(i) }

// Node returns node i as a value (ID, Parent, HasParent, Line).
func (x *Index) Node(i int) Node {
	return Node{ID: x.ID(i), Parent: x.ParentID(i), HasParent: x.HasParent(i), Line: x.lines.at(i)}
}

// Lookup returns the node an id resolves to under the index's policy.
func (x *Index) Lookup(id string) (int, bool) {
	if len(x.tab) == 0 {
		return 0, false
	}
	slot, _, ok := x.find(id)
	if !ok {
		return 0, false
	}
	return int(x.tab[slot] - 1), true
}

// Parent returns the resolved parent node of i, or None (no parent, unknown
// parent, or i is its own parent).
func (x *Index) Parent(i int) int {
	p := int(x.par[i])
	if p == i {
		return None
	}
	return p
}

// Children returns the children of i in file order (do not modify).
func (x *Index) Children(i int) []int32 {
	x.children()
	return x.childList[x.childStart[i]:x.childStart[i+1]]
}

// EachRoot yields the nodes with no parent id, in file order.
func (x *Index) EachRoot() iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := range x.ids {
			if !x.HasParent(i) && !yield(i) {
				return
			}
		}
	}
}

// Roots returns the nodes with no parent id, in file order.
func (x *Index) Roots() []int { return slices.Collect(x.EachRoot()) }

// CountRoots returns the number of nodes with no parent id and the second
// of them in file order (None when there are fewer than two), without
// listing them all.
func (x *Index) CountRoots() (n, second int) {
	second = None
	for i := range x.EachRoot() {
		n++
		if n == 2 {
			second = i
		}
	}
	return n, second
}

// Orphans returns the nodes whose parent id names no entry, in file order.
func (x *Index) Orphans() []int {
	var out []int
	for _, o := range x.orphans {
		out = append(out, int(o.node))
	}
	return out
}

// SelfParents returns the nodes whose parent id is their own id.
func (x *Index) SelfParents() []int {
	var out []int
	for i := range x.ids {
		if x.par[i] == int32(i) {
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
	h := x.ids[i]
	if x.unique(h) {
		return false
	}
	slot, _, _ := x.find(x.ar.str(h))
	return int(x.tab[slot]-1) != i
}

// Leaves returns the nodes without children, in file order.
func (x *Index) Leaves() []int {
	x.children()
	var out []int
	for i := range x.ids {
		if x.childStart[i] == x.childStart[i+1] {
			out = append(out, i)
		}
	}
	return out
}

// Last returns the last node in file order (pi's active leaf), or None.
func (x *Index) Last() int { return len(x.ids) - 1 }

// Path returns the root→i path. If the parent walk meets a node twice (a
// cycle, or a node that is its own parent), it stops before repeating and
// reports cycle = true.
func (x *Index) Path(i int) (path []int, cycle bool) {
	return x.path(nil, i)
}

// PathInto is Path in buf's memory: the path returned is buf[:len(path)]
// when buf has room for i+1 nodes, else a new array of that size (a
// listing walks the active paths of thousands of files one after another,
// each taking much of its file). With a finished index whose parents all
// come before their children (an append-only file), it walks the parents
// once; Path walks them twice to size the path exactly.
func (x *Index) PathInto(buf []int, i int) (path []int, cycle bool) {
	if i < 0 || i >= len(x.ids) {
		return nil, false
	}
	if !x.ordered || !x.finished {
		return x.path(buf, i)
	}
	// Every parent is an earlier node: the walk from i has at most i+1
	// nodes and meets none twice. Fill them in from the end of room for
	// i+1, in one walk, and move them to the front.
	if cap(buf) < i+1 {
		buf = make([]int, i+1)
	}
	buf = buf[:i+1]
	k := i + 1
	for v := int32(i); v != None; v = x.par[v] {
		k--
		buf[k] = int(v)
	}
	n := copy(buf, buf[k:])
	return buf[:n], false
}

// path is Path, in buf when it has room for the path.
func (x *Index) path(buf []int, i int) (path []int, cycle bool) {
	if i < 0 || i >= len(x.ids) {
		return nil, false
	}
	// A walk that ends at None within Len() steps met no node twice:
	// collect it without remembering nodes. Only a walk into a cycle (rare)
	// needs the set of nodes seen.
	steps := 0
	v := int32(i)
	for ; v != None && steps <= len(x.ids) && x.par[v] != v; v = x.par[v] {
		steps++
	}
	if v == None {
		if cap(buf) >= steps {
			path = buf[:0]
		} else {
			path = make([]int, 0, steps)
		}
		for v := int32(i); v != None; v = x.par[v] {
			path = append(path, int(v))
		}
	} else {
		seen := make(map[int32]struct{})
		for v := int32(i); v != None; v = x.par[v] {
			if _, ok := seen[v]; ok {
				cycle = true
				break
			}
			seen[v] = struct{}{}
			path = append(path, int(v))
			if x.par[v] == v { // its own parent: a loop of one
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

// findCycles finds every cycle of the parent function (each node has at most
// one parent, so the graph is functional and each cycle is found once).
func (x *Index) findCycles() {
	n := len(x.ids)
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
			p := x.par[v]
			if p == v { // self-parent: reported separately, not a cycle
				break
			}
			v = p
		}
		if v != None && state[v] == 1 && x.par[v] != v {
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

// lineTable holds the line numbers of the nodes. Line minus node number
// changes only where a node is not on the line after the previous one's
// (blank or bad lines, a record over several lines), so it is kept as runs
// (first node, line minus node) and found by binary search; when the runs
// would take more room than a number per node, it switches to that.
type lineTable struct {
	runs  []lineRun
	dense []int32 // used instead of runs once set
	n     int
}

type lineRun struct{ start, delta int32 }

func (t *lineTable) add(i int, line int32) {
	t.n = i + 1
	if t.dense != nil {
		t.dense = append(t.dense, line)
		return
	}
	d := line - int32(i)
	if k := len(t.runs); k > 0 && t.runs[k-1].delta == d {
		return
	}
	if len(t.runs) >= 64 && len(t.runs) >= i/2 { // 8 bytes a run: denser than 4 a node
		dense := make([]int32, i, max(2*i, 1024))
		for j := range i {
			dense[j] = t.at(j)
		}
		t.runs = nil
		t.dense = append(dense, line)
		return
	}
	t.runs = append(t.runs, lineRun{int32(i), d})
}

func (t *lineTable) at(i int) int32 {
	if i < 0 || i >= t.n {
		panic("tree: line of a node out of range")
	}
	if t.dense != nil {
		return t.dense[i]
	}
	// the last run starting at or before i
	k := sort.Search(len(t.runs), func(k int) bool { return int(t.runs[k].start) > i }) - 1
	return int32(i) + t.runs[k].delta
}

// arena holds the ids: a handle below 1<<31 is chunk<<16 | offset of a
// length byte followed by the bytes; a handle with the top bit set indexes
// big (ids of 255 bytes or more, or any id once the chunks hold 2 GiB).
// Bytes once written never change or move (a full chunk is never
// reallocated; only the first, small chunk grows, and a grown copy keeps
// the bytes an older view points to), so strings returned by str can share
// them. Every chunk is kept at its full length; fill is how much of the
// last one is used, so that an add stores an id and a number, not a
// slice.
type arena struct {
	chunks [][]byte
	fill   int
	big    []string
	// spare holds full-size chunks of an arena before reset, for add.
	spare [][]byte
}

// reset empties a, keeping its full-size chunks for the ids to come.
func (a *arena) reset() {
	for _, c := range a.chunks {
		if len(c) == chunkSize {
			a.spare = append(a.spare, c)
		}
	}
	clear(a.chunks)
	a.chunks, a.big, a.fill = a.chunks[:0], nil, 0
}

// newChunk is a chunk for add: a spare one when there is one, else a new
// one of n bytes.
func (a *arena) newChunk(n int) []byte {
	if k := len(a.spare); k > 0 {
		c := a.spare[k-1]
		a.spare[k-1] = nil
		a.spare = a.spare[:k-1]
		return c
	}
	return make([]byte, n)
}

const (
	chunkBits = 16
	chunkSize = 1 << chunkBits
	maxChunks = 1 << (31 - chunkBits)
	bigBit    = 1 << 31
)

// add stores s and returns its handle.
func (a *arena) add(s string) uint32 {
	need := 1 + len(s)
	if n := len(a.chunks); n > 0 && len(s) < 255 {
		c := a.chunks[n-1]
		if f := a.fill; f+need <= len(c) {
			c[f] = byte(len(s))
			copy(c[f+1:f+need], s)
			a.fill = f + need
			return uint32(n-1)<<chunkBits | uint32(f)
		}
	}
	return a.addSlow(s)
}

// addSlow is add when the last chunk has no room for s (or there is none,
// or s is long).
func (a *arena) addSlow(s string) uint32 {
	need := 1 + len(s)
	if len(s) < 255 {
		n := len(a.chunks)
		if n > 0 && a.fill+need > chunkSize {
			if n < maxChunks {
				a.chunks = append(a.chunks, a.newChunk(chunkSize))
				a.fill = 0
				n++
			} else {
				n = -1
			}
		}
		if n == 0 {
			a.chunks = append(a.chunks, a.newChunk(256))
			a.fill = 0
			n = 1
		}
		if n > 0 {
			c := a.chunks[n-1]
			if len(c)-a.fill < need { // only the first chunk: grow by doubling
				nc := make([]byte, min(chunkSize, max(2*len(c), a.fill+need)))
				copy(nc, c[:a.fill])
				c = nc
				a.chunks[n-1] = c
			}
			f := a.fill
			c[f] = byte(len(s))
			copy(c[f+1:f+need], s)
			a.fill = f + need
			return uint32(n-1)<<chunkBits | uint32(f)
		}
	}
	a.big = append(a.big, strings.Clone(s)) // s may share a caller's buffer
	return bigBit | uint32(len(a.big)-1)
}

// equal reports whether the id with handle h is s, as str(h) == s; an id
// of 8 bytes (pi's) is compared as one word.
func (a *arena) equal(h uint32, s string) bool {
	if h&bigBit == 0 {
		c := a.chunks[h>>chunkBits]
		off := int(h & (chunkSize - 1))
		if int(c[off]) != len(s) {
			return false
		}
		if len(s) == 8 {
			b := c[off+1 : off+9]
			return binary.LittleEndian.Uint64(b) == binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(s), 8))
		}
	}
	return a.str(h) == s
}

func (a *arena) str(h uint32) string {
	if h&bigBit != 0 {
		return a.big[h&^bigBit]
	}
	c := a.chunks[h>>chunkBits]
	off := h & (chunkSize - 1)
	n := int(c[off])
	if n == 0 {
		return ""
	}
	return unsafe.String(&c[off+1], n)
}
