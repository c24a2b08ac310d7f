package pi

import (
	"encoding/json"
	"io"
	"runtime"
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/sessctl/sessctl/internal/tree"
)

// treeBlock is the number of nodes of tree --json rendered as one piece;
// treeWorkers the goroutines rendering pieces (0: GOMAXPROCS). Tests set
// them to compare the parallel output with the serial one.
var (
	treeBlock   = 8192
	treeWorkers = 0
)

// treeNodeSize is the room a block's buffer starts with per node: a node
// with 8-character ids, a role and one child takes about 115 bytes.
const treeNodeSize = 160

// WriteTreeJSON writes the tree --json object (the shape of
// render.TreeJSON) straight from the index, so that a file of a million
// entries needs no extra copy of its tree in memory (output goes out in
// pieces of about 1 MiB, as with a buffered writer). The nodes are
// rendered in blocks of treeBlock by GOMAXPROCS goroutines, at most a few
// blocks ahead of the writer, and written in file order.
func (f *File) WriteTreeJSON(out io.Writer, leaf int) error {
	x := f.Index
	if leaf == tree.None {
		leaf = x.Last()
	}
	// The parts around the nodes go through b, written out whenever it
	// holds 1 MiB: a file of millions of roots (lines without parent)
	// has a roots list of tens of MB.
	var b []byte
	var err error
	flush := func(limit int) {
		if len(b) >= limit && err == nil {
			_, err = out.Write(b)
			b = b[:0]
		}
	}
	id := func(k, n int) {
		if k > 0 {
			b = append(b, ',')
		}
		b = appendIDJSON(b, x.ID(n))
		flush(1 << 20)
	}
	ids := func(ns []int) {
		b = append(b, '[')
		for k, n := range ns {
			id(k, n)
		}
		b = append(b, ']')
	}
	b = append(b, `{"format":"pi","dialect":`...)
	b = appendJSONString(b, string(f.Dialect))
	b = append(b, `,"path":`...)
	b = appendJSONString(b, f.Path)
	b = append(b, `,"leafId":`...)
	if leaf == tree.None {
		b = append(b, "null"...)
	} else {
		b = appendIDJSON(b, x.ID(leaf))
	}
	b = append(b, `,"roots":[`...)
	k := 0
	for i := range x.EachRoot() {
		id(k, i)
		k++
	}
	b = append(b, `],"nodes":[`...)
	flush(0)
	if err != nil {
		return err
	}
	if err := f.writeTreeNodes(out); err != nil {
		return err
	}
	b = append(b[:0], `],"orphans":`...)
	ids(f.Orphans())
	b = append(b, `,"cycles":[`...)
	for k, c := range x.Cycles() {
		if k > 0 {
			b = append(b, ',')
		}
		ids(c)
	}
	b = append(b, `],"duplicates":[`...)
	k = 0
	for _, d := range x.Duplicates() {
		if d == noIDKey {
			continue
		}
		if k > 0 {
			b = append(b, ',')
		}
		b = appendIDJSON(b, d)
		flush(1 << 20)
		k++
	}
	b = append(b, "]}\n"...)
	flush(0)
	return err
}

// labelAt is a label shown in tree --json: that of node.
type labelAt struct {
	node  int
	label string
}

// nodeLabels returns the nodes that show a label, in file order: the node
// an id of f.Labels resolves to (a shadowed duplicate shows none), when
// its label is not empty.
func (f *File) nodeLabels() []labelAt {
	var out []labelAt
	for id, l := range f.Labels {
		if l == "" {
			continue
		}
		if i, ok := f.Index.Lookup(id); ok {
			out = append(out, labelAt{i, l})
		}
	}
	sort.Slice(out, func(a, b int) bool { return out[a].node < out[b].node })
	return out
}

// writeTreeNodes writes the nodes of tree --json, comma-separated, in file
// order.
func (f *File) writeTreeNodes(out io.Writer) error {
	n := f.Index.Len()
	labels := f.nodeLabels()
	kinds := kindTable()
	blocks := (n + treeBlock - 1) / treeBlock
	workers := treeWorkers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, blocks)
	if workers <= 1 {
		r := treeRenderer{f: f, kinds: kinds, labels: labels}
		for k := 0; k < blocks; k++ {
			b := r.block(nil, k*treeBlock, min(n, (k+1)*treeBlock))
			if _, err := out.Write(b); err != nil {
				return err
			}
		}
		return nil
	}
	// Block k goes to done[k]; a worker takes a token of ahead before it
	// takes a block and the writer returns it once the block is written,
	// so at most len(ahead) blocks are held. The lowest block not written
	// is always held by a worker with a token, so the writer never waits
	// for a block no one renders.
	done := make([]chan []byte, blocks)
	for k := range done {
		done[k] = make(chan []byte, 1)
	}
	ahead := make(chan struct{}, workers+1)
	free := make(chan []byte, workers+1)
	quit := make(chan struct{})
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := treeRenderer{f: f, kinds: kinds, labels: labels}
			for {
				select {
				case ahead <- struct{}{}:
				case <-quit:
					return
				}
				k := int(next.Add(1) - 1)
				if k >= blocks {
					return
				}
				var buf []byte
				select {
				case buf = <-free:
				default:
					buf = make([]byte, 0, treeBlock*treeNodeSize)
				}
				done[k] <- r.block(buf[:0], k*treeBlock, min(n, (k+1)*treeBlock))
			}
		}()
	}
	var err error
	for k := 0; k < blocks; k++ {
		b := <-done[k]
		if _, err = out.Write(b); err != nil {
			break
		}
		select {
		case free <- b:
		default:
		}
		<-ahead
	}
	close(quit)
	wg.Wait()
	return err
}

// treeRenderer renders blocks of tree --json's nodes.
type treeRenderer struct {
	f      *File
	kinds  []kindPair
	kindJS [][]byte // `,"type":…` and `,"role":…` of each kind, rendered once
	labels []labelAt
}

// typeRole returns the rendered type and role members of kind k.
func (r *treeRenderer) typeRole(k uint16) []byte {
	if int(k) < len(r.kindJS) && r.kindJS[k] != nil {
		return r.kindJS[k]
	}
	if int(k) >= len(r.kindJS) {
		r.kindJS = append(r.kindJS, make([][]byte, int(k)+1-len(r.kindJS))...)
	}
	var p kindPair
	if int(k) < len(r.kinds) {
		p = r.kinds[k]
	} else {
		p = kindTable()[k] // added after the table was read (another file)
	}
	typ := p.typ
	if typ == "" {
		typ = "(no type)"
	}
	b := appendJSONString([]byte(`,"type":`), typ)
	if p.role != "" {
		b = append(b, `,"role":`...)
		b = appendJSONString(b, p.role)
	}
	r.kindJS[k] = b
	return b
}

// block appends the nodes from..to-1 to b, each preceded by a comma but
// node 0.
func (r *treeRenderer) block(b []byte, from, to int) []byte {
	f, x := r.f, r.f.Index
	lab := sort.Search(len(r.labels), func(k int) bool { return r.labels[k].node >= from })
	for i := from; i < to; i++ {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"id":`...)
		b = appendIDJSON(b, x.ID(i))
		b = append(b, `,"parentId":`...)
		if x.HasParent(i) {
			b = appendIDJSON(b, x.ParentID(i))
		} else {
			b = append(b, "null"...)
		}
		b = append(b, r.typeRole(f.Entries[i].kind())...)
		if lab < len(r.labels) && r.labels[lab].node == i {
			b = append(b, `,"label":`...)
			b = appendJSONString(b, r.labels[lab].label)
			lab++
		}
		b = append(b, `,"line":`...)
		b = appendInt(b, int64(x.Line(i)))
		b = append(b, `,"children":[`...)
		for k, c := range x.Children(i) {
			if k > 0 {
				b = append(b, ',')
			}
			b = appendIDJSON(b, x.ID(int(c)))
		}
		b = append(b, "]}"...)
	}
	return b
}

// appendJSONString appends s as a JSON string: as is between quotes when
// that is valid, else as encoding/json writes it (HTML characters escaped,
// invalid UTF-8 replaced).
func appendJSONString(b []byte, s string) []byte { return appendJSONStr(b, s, false) }

// appendIDJSON appends the id whose key is k (Index.ID) as a JSON string:
// displayID's text, where a string id's lone surrogates (jsonl.KeyString
// keeps them) are written as their escapes, as JSON.stringify writes them
// (jsonl.AppendKeyJSON), not as U+FFFD.
func appendIDJSON(b []byte, k string) []byte {
	if len(k) > 0 && k[0] == 0 { // not a string, or no id
		return appendJSONStr(b, displayID(k), false)
	}
	return appendJSONStr(b, k, true)
}

// appendJSONStr is appendJSONString, for the key of a string id when key
// (appendIDJSON).
func appendJSONStr(b []byte, s string, key bool) []byte {
	// One pass that copies and tests each byte (ids are short: a call of
	// memmove and a second loop cost more).
	n := len(b)
	b = slices.Grow(b, len(s)+2)[:n+len(s)+2]
	b[n] = '"'
	d := b[n+1 : n+1+len(s)]
	for i := 0; i < len(s); i++ {
		c := s[i]
		if jsonUnsafe[c] {
			if key {
				return jsonl.AppendKeyJSON(b[:n], s)
			}
			m, _ := json.Marshal(s)
			return append(b[:n], m...)
		}
		d[i] = c
	}
	b[n+1+len(s)] = '"'
	return b
}

// jsonUnsafe marks the bytes jsonSafe refuses.
var jsonUnsafe = func() (t [256]bool) {
	for c := range t {
		t[c] = !jsonSafe(string([]byte{byte(c)}))
	}
	return t
}()

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
