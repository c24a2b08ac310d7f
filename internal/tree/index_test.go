package tree

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// build parses "id<parent id ..." ("a<" or "a" = no parent) into an index.
func build(t testing.TB, p Policy, spec string) *Index {
	t.Helper()
	fields := strings.Fields(spec)
	x := New(p, len(fields))
	for _, f := range fields {
		id, parent, _ := strings.Cut(f, "<")
		x.Add(Node{ID: id, Parent: parent})
	}
	x.Finish()
	return x
}

// ids maps node numbers to their ids.
func ids(x *Index, nodes []int) []string {
	out := []string{}
	for _, n := range nodes {
		out = append(out, x.ID(n))
	}
	return out
}

func children(x *Index, i int) []string {
	out := []string{}
	for _, c := range x.Children(i) {
		out = append(out, x.ID(int(c)))
	}
	return out
}

func lookup(t *testing.T, x *Index, id string) int {
	t.Helper()
	i, ok := x.Lookup(id)
	require.True(t, ok, "id %q", id)
	return i
}

func TestStructure(t *testing.T) {
	tests := []struct {
		name     string
		spec     string
		roots    []string
		leaves   []string
		orphans  []string
		self     []string
		cycles   [][]string
		children map[string][]string
	}{
		{
			name: "single chain", spec: "a b<a c<b",
			roots: []string{"a"}, leaves: []string{"c"}, orphans: []string{}, self: []string{},
			children: map[string][]string{"a": {"b"}, "b": {"c"}, "c": {}},
		},
		{
			name: "several roots and branches in file order", spec: "r1 a<r1 b<r1 r2 c<a d<r2 e<r1",
			roots: []string{"r1", "r2"}, leaves: []string{"b", "c", "d", "e"}, orphans: []string{}, self: []string{},
			children: map[string][]string{"r1": {"a", "b", "e"}, "a": {"c"}, "r2": {"d"}},
		},
		{
			name: "child before parent in file", spec: "b<a a",
			roots: []string{"a"}, leaves: []string{"b"}, orphans: []string{}, self: []string{},
			children: map[string][]string{"a": {"b"}},
		},
		{
			name: "orphans", spec: "a b<zz c<b d<yy",
			roots: []string{"a"}, leaves: []string{"a", "c", "d"}, orphans: []string{"b", "d"}, self: []string{},
			children: map[string][]string{"b": {"c"}},
		},
		{
			name: "self parent is not a cycle", spec: "a b<b c<b",
			roots: []string{"a"}, leaves: []string{"a", "c"}, orphans: []string{}, self: []string{"b"},
			children: map[string][]string{"b": {"c"}},
		},
		{
			name: "2-cycle", spec: "r a<b b<a",
			roots: []string{"r"}, leaves: []string{"r"}, orphans: []string{}, self: []string{},
			cycles:   [][]string{{"a", "b"}},
			children: map[string][]string{"a": {"b"}, "b": {"a"}},
		},
		{
			name: "3-cycle", spec: "a<c b<a c<b",
			roots: []string{}, leaves: []string{}, orphans: []string{}, self: []string{},
			cycles: [][]string{{"a", "c", "b"}},
		},
		{
			name: "cycle with a tail", spec: "t2<t1 t1<a a<b b<a x<t2",
			roots: []string{}, leaves: []string{"x"}, orphans: []string{}, self: []string{},
			cycles:   [][]string{{"a", "b"}},
			children: map[string][]string{"a": {"t1", "b"}, "t1": {"t2"}, "t2": {"x"}},
		},
		{
			name: "two cycles and a self parent", spec: "a<b b<a s<s c<d d<e e<c",
			roots: []string{}, leaves: []string{"s"}, orphans: []string{}, self: []string{"s"},
			cycles: [][]string{{"a", "b"}, {"c", "d", "e"}},
		},
		{
			name: "empty index", spec: "",
			roots: []string{}, leaves: []string{}, orphans: []string{}, self: []string{},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			x := build(t, LastWins, tc.spec)
			assert.Equal(t, tc.roots, ids(x, x.Roots()), "roots")
			assert.Equal(t, tc.leaves, ids(x, x.Leaves()), "leaves")
			assert.Equal(t, tc.orphans, ids(x, x.Orphans()), "orphans")
			assert.Equal(t, tc.self, ids(x, x.SelfParents()), "self-parents")
			var cyc [][]string
			for _, c := range x.Cycles() {
				cyc = append(cyc, ids(x, c))
			}
			assert.Equal(t, tc.cycles, cyc, "cycles")
			inCycle := map[string]bool{}
			for _, c := range tc.cycles {
				for _, id := range c {
					inCycle[id] = true
				}
			}
			for i := range x.Len() {
				assert.Equal(t, inCycle[x.ID(i)], x.InCycle(i), "InCycle(%s)", x.ID(i))
			}
			for id, want := range tc.children {
				assert.Equal(t, want, children(x, lookup(t, x, id)), "children of %s", id)
			}
			// Each cycle lists nodes in parent order.
			for _, c := range x.Cycles() {
				for k := range c {
					assert.Equal(t, c[(k+1)%len(c)], x.Parent(c[k]), "parent order in cycle")
				}
			}
		})
	}
}

func TestPath(t *testing.T) {
	x := build(t, LastWins, "r a<r b<a c<b o<zz p<o s<s q<s t2<t1 t1<k k<m m<k")
	tests := []struct {
		id    string
		path  []string
		cycle bool
	}{
		{"r", []string{"r"}, false},
		{"c", []string{"r", "a", "b", "c"}, false},
		{"p", []string{"o", "p"}, false},             // an orphan starts the path
		{"q", []string{"s", "q"}, true},              // a self parent ends the walk: a loop of one (pi hangs there)
		{"s", []string{"s"}, true},                   // (not listed in Cycles, but the walk loops)
		{"m", []string{"k", "m"}, true},              // on a cycle: stops before repeating
		{"t2", []string{"m", "k", "t1", "t2"}, true}, // on a tail hanging off a cycle
	}
	for _, tc := range tests {
		t.Run(tc.id, func(t *testing.T) {
			p, cyc := x.Path(lookup(t, x, tc.id))
			assert.Equal(t, tc.path, ids(x, p))
			assert.Equal(t, tc.cycle, cyc)
		})
	}
	p, cyc := x.Path(-1)
	assert.Nil(t, p)
	assert.False(t, cyc)
	p, _ = x.Path(x.Len())
	assert.Nil(t, p)
}

// TestPathIntoOrdered: with every parent before its child, PathInto walks
// into the buffer it is given (room for i+1 nodes) and Finish finds no
// cycle; a parent after its child (a later duplicate) takes the general
// walk, which still finds the cycle it makes.
func TestPathIntoOrdered(t *testing.T) {
	x := build(t, LastWins, "r a<r b<a x<r c<b d<x")
	assert.Empty(t, x.Cycles())
	buf := make([]int, 16)
	for k := range buf {
		buf[k] = -7 // not a node: a stale value would show
	}
	p, cyc := x.PathInto(buf, 4)
	assert.Equal(t, []int{0, 1, 2, 4}, p)
	assert.False(t, cyc)
	assert.Same(t, &buf[0], &p[0], "the path is in the buffer given")
	p, _ = x.PathInto(p, 5)
	assert.Equal(t, []int{0, 3, 5}, p)
	p, _ = x.PathInto(make([]int, 2), 4) // too short: a new array
	assert.Equal(t, []int{0, 1, 2, 4}, p)
	p, cyc = x.PathInto(nil, 0)
	assert.Equal(t, []int{0}, p)
	assert.False(t, cyc)

	y := build(t, LastWins, "r a<r b<a a<b")
	assert.Equal(t, [][]int{{2, 3}}, y.Cycles())
	p, cyc = y.PathInto(buf, 3)
	assert.Equal(t, []int{2, 3}, p)
	assert.True(t, cyc)
	p, cyc = y.PathInto(buf, 1) // shadowed a: its parent r still resolves
	assert.Equal(t, []int{0, 1}, p)
	assert.False(t, cyc)
}

func TestDuplicates(t *testing.T) {
	spec := "r a<r a<r b<a a<b c<a"
	//       0 1    2    3    4    5
	t.Run("last wins", func(t *testing.T) {
		x := build(t, LastWins, spec)
		assert.Equal(t, []string{"a"}, x.Duplicates())
		i, _ := x.Lookup("a")
		assert.Equal(t, 4, i)
		assert.True(t, x.Shadowed(1))
		assert.True(t, x.Shadowed(2))
		assert.False(t, x.Shadowed(4))
		// b's parent "a" resolves to node 4, whose parent b resolves to node 3: a 2-cycle.
		assert.Equal(t, 4, x.Parent(3))
		assert.Equal(t, [][]int{{3, 4}}, x.Cycles())
		assert.Equal(t, []int32{3, 5}, x.Children(4))
		assert.Empty(t, x.Children(1))
		p, cyc := x.Path(5)
		assert.Equal(t, []int{3, 4, 5}, p)
		assert.True(t, cyc)
		assert.Equal(t, []int{1, 2, 5}, x.Leaves())
	})
	t.Run("first wins", func(t *testing.T) {
		x := build(t, FirstWins, spec)
		assert.Equal(t, []string{"a"}, x.Duplicates())
		i, _ := x.Lookup("a")
		assert.Equal(t, 1, i)
		assert.False(t, x.Shadowed(1))
		assert.True(t, x.Shadowed(2))
		assert.True(t, x.Shadowed(4))
		assert.Empty(t, x.Cycles())
		assert.Equal(t, []int32{3, 5}, x.Children(1))
		p, cyc := x.Path(5)
		assert.Equal(t, []int{0, 1, 5}, p)
		assert.False(t, cyc)
		p, _ = x.Path(4)
		assert.Equal(t, []int{0, 1, 3, 4}, p)
	})
	t.Run("reported once, in order of second occurrence", func(t *testing.T) {
		x := build(t, LastWins, "b a a b a c c")
		assert.Equal(t, []string{"a", "b", "c"}, x.Duplicates())
	})
	t.Run("no duplicates", func(t *testing.T) {
		x := build(t, LastWins, "a b c")
		assert.Empty(t, x.Duplicates())
	})
	t.Run("duplicate self parent with first wins is a child of the first", func(t *testing.T) {
		x := build(t, FirstWins, "a a<a")
		assert.Empty(t, x.SelfParents())
		assert.Equal(t, 0, x.Parent(1))
		y := build(t, LastWins, "a a<a")
		assert.Equal(t, []int{1}, y.SelfParents())
	})
}

func TestLast(t *testing.T) {
	assert.Equal(t, None, build(t, LastWins, "").Last())
	x := build(t, LastWins, "r a<r b<r")
	assert.Equal(t, 2, x.Last())
	assert.Equal(t, "b", x.ID(x.Last()))
}

func TestAddDerivesHasParent(t *testing.T) {
	x := New(LastWins, 0)
	x.Add(Node{ID: "a"})
	x.Add(Node{ID: "b", Parent: "a"})                 // HasParent not set by the caller
	x.Add(Node{ID: "c", Parent: "", HasParent: true}) // an empty parent id is no parent
	x.Finish()
	assert.Equal(t, []int{0, 2}, x.Roots())
	assert.Equal(t, 0, x.Parent(1))
	assert.True(t, x.HasParent(1))
	assert.False(t, x.HasParent(2))
}

func TestFinishTwice(t *testing.T) {
	x := build(t, LastWins, "a<b b<a")
	x.Finish()
	assert.Len(t, x.Cycles(), 1, "a second Finish does not duplicate cycles")
}

func TestLookupMissing(t *testing.T) {
	x := build(t, LastWins, "a")
	_, ok := x.Lookup("nope")
	assert.False(t, ok)
	assert.Equal(t, 1, x.Len())
	assert.Equal(t, None, x.Parent(0))
}

func TestLongChainPath(t *testing.T) {
	// A long single chain: Path must be linear and exact.
	const n = 200000
	x := New(LastWins, n)
	x.Add(Node{ID: "n0"})
	for i := 1; i < n; i++ {
		x.Add(Node{ID: "n" + itoa(i), Parent: "n" + itoa(i-1)})
	}
	x.Finish()
	p, cyc := x.Path(n - 1)
	require.Len(t, p, n)
	assert.False(t, cyc)
	for i, v := range p {
		if v != i {
			t.Fatalf("path[%d] = %d", i, v)
		}
	}
	assert.Equal(t, []int{n - 1}, x.Leaves())
}

func itoa(i int) string {
	var b [20]byte
	pos := len(b)
	for {
		pos--
		b[pos] = byte('0' + i%10)
		i /= 10
		if i == 0 {
			break
		}
	}
	return string(b[pos:])
}

// Many ids fill several arena chunks (and grow the first one and the table
// from nothing): every id and parent id reads back, ids returned early keep
// their value while more are added, and lookups find the last occurrence.
func TestManyIDs(t *testing.T) {
	x := New(LastWins, 0)
	const n = 30000
	id := func(i int) string { return fmt.Sprintf("id-%08d", i%(n-100)) } // the last 100 repeat earlier ids
	early := []string{}
	for i := range n {
		parent := ""
		if i > 0 {
			parent = id(i - 1)
		}
		if i == 5000 {
			parent = "dangling-parent"
		}
		x.Add(Node{ID: id(i), Parent: parent, Line: int32(i + 2)})
		if i < 50 {
			early = append(early, x.ID(i))
		}
	}
	x.Finish()
	for i, s := range early {
		require.Equal(t, id(i), s)
	}
	for i := range n {
		require.Equal(t, id(i), x.ID(i))
		require.Equal(t, int32(i+2), x.Line(i))
		want := ""
		if i > 0 {
			want = id(i - 1)
		}
		if i == 5000 {
			want = "dangling-parent"
		}
		require.Equal(t, want, x.ParentID(i))
		j, ok := x.Lookup(id(i))
		require.True(t, ok)
		require.Equal(t, id(i), x.ID(j))
		if i < 100 {
			require.Equal(t, n-100+i, j)
			require.True(t, x.Shadowed(i))
		} else {
			require.Equal(t, i, j)
			require.False(t, x.Shadowed(i))
		}
	}
	require.Equal(t, []int{5000}, x.Orphans())
	require.Len(t, x.Duplicates(), 100)
	require.Greater(t, len(x.ar.chunks), 3)
}

// Line numbers are kept as runs while nodes sit on consecutive lines, and
// as one number per node once gaps are common; both read back exactly.
func TestLines(t *testing.T) {
	for _, tc := range []struct {
		name  string
		gap   func(i int) int32
		dense bool
	}{
		{"consecutive", func(int) int32 { return 1 }, false},
		{"a few gaps", func(i int) int32 { return 1 + int32(i%500/499)*3 }, false},
		{"gap after every other", func(i int) int32 { return 1 + int32(i%2) }, true},
		{"records over several lines", func(i int) int32 { return 1 + int32(i%7) }, true},
	} {
		x := New(LastWins, 0)
		var want []int32
		line := int32(1)
		for i := range 5000 {
			line += tc.gap(i)
			want = append(want, line)
			x.Add(Node{ID: fmt.Sprint(i), Line: line})
		}
		x.Finish()
		for i, l := range want {
			require.Equal(t, l, x.Line(i), "%s: line of node %d", tc.name, i)
		}
		require.Equal(t, tc.dense, x.lines.dense != nil, tc.name)
		if !tc.dense {
			require.Less(t, len(x.lines.runs), 20, tc.name)
		}
	}
}

// AddHashed with the hash from HashBytes (as the parallel index pass gives
// it) builds the same index as Add, Touch included, duplicates and unknown
// parents too.
func TestAddHashedSameAsAdd(t *testing.T) {
	ids := []string{"a", "b", "c", "b", "", "\x00no-id", "d", strings.Repeat("x", 300), "e"}
	a, b := New(LastWins, 0), New(LastWins, 0)
	var hs []uint64
	for _, id := range ids {
		hs = append(hs, HashBytes([]byte(id)))
	}
	for i, id := range ids {
		p := ""
		if i > 0 {
			p = ids[i-1]
		}
		if i == 6 {
			p = "missing"
		}
		n := Node{ID: id, Parent: p, Line: int32(i + 1)}
		a.Add(n)
		b.Touch(hs[i:])
		b.AddHashed(n, hs[i])
	}
	a.Finish()
	b.Finish()
	for i := range ids {
		if a.Node(i) != b.Node(i) || a.Parent(i) != b.Parent(i) || a.Shadowed(i) != b.Shadowed(i) {
			t.Fatalf("node %d: %+v/%d vs %+v/%d", i, a.Node(i), a.Parent(i), b.Node(i), b.Parent(i))
		}
		if HashString(ids[i]) != hs[i] {
			t.Fatalf("HashString(%q) != HashBytes", ids[i])
		}
	}
	if !slices.Equal(a.Duplicates(), b.Duplicates()) || !slices.Equal(a.Orphans(), b.Orphans()) || len(b.Orphans()) != 1 {
		t.Fatalf("duplicates %v/%v orphans %v/%v", a.Duplicates(), b.Duplicates(), a.Orphans(), b.Orphans())
	}
	if n, ok := b.Lookup("b"); !ok || n != 3 {
		t.Fatalf("Lookup(b) = %d, %v", n, ok)
	}
}

// TestChildrenLazy: the children are listed when first asked for, by
// Children or Leaves, from any number of goroutines at once, and an index
// Reset before or after that lists the next file's right.
func TestChildrenLazy(t *testing.T) {
	spec := "r a<r b<a c<a d<r e<zz f<e"
	for _, ask := range []bool{false, true} {
		x := build(t, LastWins, "r a<r b<a a<b x<a y<x")
		if ask {
			var wg sync.WaitGroup
			for range 4 {
				wg.Add(1)
				go func() { defer wg.Done(); _ = x.Children(0) }()
			}
			wg.Wait()
			assert.Equal(t, []int32{1}, x.Children(0))
		}
		x.Reset(LastWins, 8)
		for _, f := range strings.Fields(spec) {
			id, parent, _ := strings.Cut(f, "<")
			x.Add(Node{ID: id, Parent: parent})
		}
		x.Finish()
		assert.Equal(t, []int{2, 3, 4, 6}, x.Leaves(), "asked before Reset: %v", ask)
		assert.Equal(t, []int32{1, 4}, x.Children(0))
		assert.Equal(t, []int32{2, 3}, x.Children(1))
		assert.Equal(t, []int32{6}, x.Children(5))
		assert.Empty(t, x.Children(6))
	}
}

// TestArenaEqual: equal agrees with str(h) == s for ids of every length
// around the one compared as a word (8 bytes), long ids and the empty one,
// against the same id, another of its length and others of other lengths.
func TestArenaEqual(t *testing.T) {
	var a arena
	var ids []string
	for _, n := range []int{0, 1, 7, 8, 9, 16, 254, 255, 300} {
		ids = append(ids, strings.Repeat("a", n), strings.Repeat("b", n))
		if n > 0 {
			ids = append(ids, strings.Repeat("a", n-1)+"c")
		}
	}
	hs := make([]uint32, len(ids))
	for i, id := range ids {
		hs[i] = a.add(id)
	}
	for i, h := range hs {
		require.Equal(t, ids[i], a.str(h))
		for _, s := range ids {
			assert.Equal(t, ids[i] == s, a.equal(h, s), "id %q, s %q", ids[i], s)
		}
	}
}
