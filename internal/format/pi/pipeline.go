package pi

import (
	"bytes"
	"io"
	"math"
	"slices"
	"unsafe"

	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/sessctl/sessctl/internal/tree"
)

// batchSize is the number of records handed from the reading goroutine to
// the indexing one at a time.
const batchSize = 1024

// batch is a run of records whose Raw (when kept) and captured members
// point into its own arena, so the reader's buffers can move on.
type batch struct {
	recs  []jsonl.Record
	slots [][]byte // backing store for the records' Top and Sub slices
	arena []byte
}

func (b *batch) keep(p []byte) []byte {
	if p == nil {
		return nil
	}
	start := len(b.arena)
	b.arena = append(b.arena, p...)
	return b.arena[start:len(b.arena):len(b.arena)]
}

// readPipelined indexes with two goroutines: one reads, splits, validates
// and captures each line (the jsonl reader in capture mode), the caller's
// goroutine builds the index from the records. On a 2-core machine the two
// halves of the work overlap. A record keeps its raw bytes only when the
// indexer may look at them: lines up to and including the header, every
// line that is not a plain "message" object, and the last line.
func (rd *reader) readPipelined(r io.Reader) error {
	if ra, ok := r.(io.ReaderAt); ok && !serialIndex {
		return rd.readParallel(r, ra)
	}
	full := make(chan *batch, 4)
	free := make(chan *batch, 6)
	nTop, nSub := len(captured.Top), len(captured.SubKeys)
	get := func() *batch {
		select {
		case b := <-free:
			b.recs, b.slots, b.arena = b.recs[:0], b.slots[:0], b.arena[:0]
			return b
		default:
			return &batch{recs: make([]jsonl.Record, 0, batchSize), slots: make([][]byte, 0, batchSize*(nTop+nSub))}
		}
	}
	var readErr error
	go func() {
		defer close(full)
		lr := jsonl.NewReader(r)
		lr.SetCapture(captured)
		ra, _ := r.(io.ReaderAt)
		if ra != nil {
			// A line over the limit is validated as it is read, not held;
			// the rare one the indexer must look at is read back by offset.
			lr.SetLongLines(jsonl.LongLine)
		}
		headerSeen := false
		b := get()
		for lr.Next() {
			rec := lr.Record()
			c := *rec
			isMsg := rec.Kind == jsonl.Object && bytes.Equal(rec.Top[capType], []byte(`"message"`))
			switch {
			case headerSeen && isMsg && rec.Newline:
				c.Raw = nil
			case rec.Streamed && (rec.Kind == jsonl.Object || rec.Kind == jsonl.NonObject):
				line, err := jsonl.ReadLineAt(ra, rec.Offset, rec.Len())
				if err != nil {
					readErr = err
					return
				}
				c.Raw = b.keep(line)
			case rec.Streamed:
				c.Raw = nil // malformed, torn, blank or NUL: only its place and size are used
			default:
				c.Raw = b.keep(rec.Raw)
			}
			if !headerSeen && (rec.Kind == jsonl.Object || rec.Kind == jsonl.NonObject) &&
				!(rec.Line == 1 && rec.Kind == jsonl.Object && bytes.Equal(rec.Top[capType], []byte(`"title"`))) {
				headerSeen = true
			}
			if rec.Top != nil {
				at := len(b.slots)
				for k, v := range rec.Top {
					if k == capMessage {
						v = nil // captured only to reach message.role; it may be most of the line
					}
					b.slots = append(b.slots, b.keep(v))
				}
				for _, v := range rec.Sub {
					b.slots = append(b.slots, b.keep(v))
				}
				c.Top = b.slots[at : at+nTop : at+nTop]
				c.Sub = b.slots[at+nTop : at+nTop+nSub : at+nTop+nSub]
			}
			b.recs = append(b.recs, c)
			if len(b.recs) == batchSize {
				full <- b
				b = get()
			}
		}
		readErr = lr.Err()
		if len(b.recs) > 0 {
			full <- b
		}
	}()
	for b := range full {
		for i := range b.recs {
			rd.take(&b.recs[i])
		}
		select {
		case free <- b:
		default:
		}
	}
	return readErr
}

// serialIndex turns the parallel index pass off, and indexChunkSize sets
// its chunk size (0: jsonl.ChunkSize); tests compare the passes.
var (
	serialIndex    = false
	indexChunkSize = 0
)

var (
	typeMessage = []byte(`"message"`)
	typeTitle   = []byte(`"title"`)
)

// idHashes is the Batch.Aux of the index pass: the hash of each record's
// id (tree.HashString of the id take gives tree.Index.Add), computed by
// hashIDs on the workers so that the indexing goroutine, which is serial,
// does not hash.
type idHashes struct {
	h []uint64
	// msg holds, for each record, what take reads of a plain message
	// entry (digest), or 0 when take must read the record itself.
	msg []uint32
	// idAt holds, for each record whose msg is not 0, where its id and
	// parent id are in ids: a length byte and the bytes of each (the
	// values of plain strings). The workers copy them while the line is in
	// their cache, so that the indexing goroutine, which is serial, reads
	// them from this small buffer instead of the line, long evicted by then
	// (a miss per line).
	idAt []uint32
	ids  []byte
	// lastID is the raw id of the last record of the batch that had one,
	// lastH its hash and lastPlain whether it is a plain string: a parent
	// id with lastID's bytes has its hash and is as plain (readKeys),
	// without reading it again.
	lastID    []byte
	lastH     uint64
	lastPlain bool
	// roles caches the kinds of message roles (kindOf takes a lock), and
	// known those of the roles lineKeys.rk names.
	roles [4]roleKind
	known [4]struct {
		kind uint16
		ok   bool
	}
	// facts is check's facts of the batch (checkfacts.go: its Inspect
	// reads each line's keys once with readKeys and adds the hash with
	// add, as hashIDs does, so that a checked file is indexed as fast).
	facts *factStore
	// lf holds, for each record, what the listing scan reads of it
	// (setListFact), when the pass lists.
	lf []listFact
}

// reset empties ih for a batch (or a file) to come.
func (ih *idHashes) reset() {
	ih.h, ih.msg, ih.idAt, ih.ids, ih.lf = ih.h[:0], ih.msg[:0], ih.idAt[:0], ih.ids[:0], ih.lf[:0]
	ih.lastID = nil // it points into the chunk of the batch
}

// idsOf returns the id and parent id (empty when none) of record i, whose
// digest is not 0, as hashIDs kept them. They share ih's buffer.
func (ih *idHashes) idsOf(i int) (id, parent string) {
	p := ih.ids[ih.idAt[i]:]
	n := int(p[0])
	if n > 0 {
		id = unsafe.String(&p[1], n)
	}
	p = p[1+n:]
	if m := int(p[0]); m > 0 {
		parent = unsafe.String(&p[1], m)
	}
	return id, parent
}

// keepIDs appends the values of the id and parent id of the line k was
// read from (plain strings, as the digest d says; each at most maxKeptID
// bytes) to ih.ids and returns where they start, or false when one is
// longer.
func (ih *idHashes) keepIDs(k *lineKeys, d uint32) (uint32, bool) {
	var id, parent []byte
	if d&msgID != 0 {
		id = k.idRaw[1 : len(k.idRaw)-1]
	}
	if d&msgParent != 0 {
		parent = k.pRaw[1 : len(k.pRaw)-1]
	}
	if len(id) > maxKeptID || len(parent) > maxKeptID || len(ih.ids) > math.MaxUint32-2*maxKeptID {
		return 0, false
	}
	at := len(ih.ids)
	n := 2 + len(id) + len(parent)
	ih.ids = slices.Grow(ih.ids, n)[:at+n]
	p := ih.ids[at:]
	p[0] = byte(len(id))
	copy(p[1:], id)
	p = p[1+len(id):]
	p[0] = byte(len(parent))
	copy(p[1:], parent)
	return uint32(at), true
}

// maxKeptID is the longest id keepIDs keeps (a length byte); the digest
// of a line with a longer one is 0, and take reads the line.
const maxKeptID = 255

// roleKind is one of idHashes.roles.
type roleKind struct {
	role string
	kind uint16
	ok   bool
}

// A message digest: msgFast | msgID | msgParent | the entry's kind.
const (
	msgFast   = 1 << 31 // a plain message entry: the digest says all take needs
	msgID     = 1 << 30 // the id is a string without escapes (else absent)
	msgParent = 1 << 29 // the parent id is a non-empty string without escapes (else none)
	msgKind   = 1<<16 - 1
)

// plainString reports whether raw is a JSON string without escapes, so
// that its value is raw[1:len(raw)-1].
func plainString(raw []byte) bool {
	n := len(raw)
	return n >= 2 && raw[0] == '"' && raw[n-1] == '"' && noBackslash(raw[1:n-1])
}

// plainKeyString reports whether raw is a JSON string whose key (rawKey) is
// raw[1:len(raw)-1]: without escapes and valid UTF-8 (plainKey).
func plainKeyString(raw []byte) bool {
	n := len(raw)
	return n >= 2 && raw[0] == '"' && raw[n-1] == '"' && plainKey(raw[1:n-1])
}

// lineKeys is what the workers read of an object line's type, id, parent
// id and role (readKeys), each once, for the index's digest (digest), the
// listing's fact and check's.
type lineKeys struct {
	idRaw, pRaw []byte // the raw id and parent id (nil: absent)
	// role is the value of the message's role when it is a string
	// (word: nil when absent or not a string).
	role []byte
	h    uint64 // the hash of the id, as take reads it (noIDHash: none)
	// pH is the hash of the parent id when pPrev: it is spelled as the
	// id of the line before that had one.
	pH    uint64
	pPrev bool
	// exactMsg: the type is spelled "message"; isMsg: its value is
	// "message" (spelled so or with escapes).
	exactMsg, isMsg bool
	// idPlain, pPlain: the id, parent id is a string that is its own key
	// (plainKeyString); rolePlain: the role is a string without escapes
	// (plainString).
	idPlain, pPlain, rolePlain bool
	rk                         uint8 // role's roleUser, ... (roleOther)
}

// The roles the facts tell apart (lineKeys.rk).
const (
	roleOther = iota
	roleUser
	roleAssistant
	roleToolResult
)

// readKeys reads rec's keys into k (left zero for a line that is not an
// object) and takes its id as the last one of the batch (lastID).
func (ih *idHashes) readKeys(rec *jsonl.Record, k *lineKeys) {
	if rec.Kind != jsonl.Object || rec.Top == nil {
		return
	}
	top := rec.Top
	if t := top[capType]; string(t) == `"message"` {
		k.exactMsg, k.isMsg = true, true
	} else if len(t) > len(`"message"`) {
		k.isMsg = string(word(t)) == "message"
	}
	if raw := top[capParent]; raw != nil {
		k.pRaw = raw
		if ih.lastID != nil && string(raw) == string(ih.lastID) {
			// the usual chain: the same bytes, the same hash
			k.pPlain, k.pH, k.pPrev = ih.lastPlain, ih.lastH, true
		} else {
			k.pPlain = plainKeyString(raw)
		}
	}
	k.h = noIDHash
	if raw := top[capID]; raw != nil {
		k.idRaw = raw
		if k.idPlain = plainKeyString(raw); k.idPlain && len(raw) > 2 {
			k.h = tree.HashString(unsafe.String(&raw[1], len(raw)-2)) // rawKeyView's
		} else {
			k.h = tree.HashString(rawKeyView(raw))
		}
		ih.lastID, ih.lastH, ih.lastPlain = raw, k.h, k.idPlain
	}
	if len(rec.Sub) > 0 {
		if raw := rec.Sub[0]; raw != nil {
			switch string(raw) {
			case `"user"`:
				k.rk = roleUser
			case `"assistant"`:
				k.rk = roleAssistant
			case `"toolResult"`:
				k.rk = roleToolResult
			}
			if k.rk != roleOther {
				k.role, k.rolePlain = raw[1:len(raw)-1], true
				return
			}
			if k.rolePlain = plainString(raw); k.rolePlain {
				k.role = raw[1 : len(raw)-1]
			} else {
				k.role = word(raw)
			}
			switch string(k.role) {
			case "user":
				k.rk = roleUser
			case "assistant":
				k.rk = roleAssistant
			case "toolResult":
				k.rk = roleToolResult
			}
		}
	}
}

// digest returns the digest of rec, whose keys are k, when it is a message
// object line spelled plainly (its type, id, parent id and role plain
// strings or absent, the parent id null or false too), else 0: take reads
// those. It gives what take gives such a line: kindOf("message", role),
// the id or none, and the parent id when it is truthy.
func (ih *idHashes) digest(rec *jsonl.Record, k *lineKeys) uint32 {
	if !k.exactMsg || rec.BOM || !rec.Newline || rec.Value != nil {
		return 0
	}
	d := uint32(msgFast)
	if k.idRaw != nil {
		if !k.idPlain {
			return 0
		}
		d |= msgID
	}
	if raw := k.pRaw; raw != nil {
		switch {
		case k.pPlain:
			if len(raw) > 2 {
				d |= msgParent
			}
		case string(raw) == "null" || string(raw) == "false":
		default:
			return 0
		}
	}
	if k.role != nil && !k.rolePlain {
		return 0
	}
	role := k.role
	if k.rk != roleOther { // its value is the role rk names
		c := &ih.known[k.rk]
		if !c.ok {
			c.kind, c.ok = kindOf("message", string(role)), true
		}
		return d | uint32(c.kind)
	}
	c := &ih.roles[len(role)&3]
	if !c.ok || c.role != string(role) {
		*c = roleKind{string(role), kindOf("message", string(role)), true}
	}
	return d | uint32(c.kind)
}

// noIDHash is the hash of the id of an entry without one.
var noIDHash = tree.HashString(noIDKey)

// touchAhead is the number of records whose id table slots are loaded at
// once (tree.Index.Touch).
const touchAhead = 16

// batchHashes is the idHashes of batch b (b.Aux), made when it has none
// (taken from auxPool first when pooled), and emptied at the batch's first
// record: the workers' hashes and digests of a batch's lines.
func batchHashes(b *jsonl.Batch, pooled bool) *idHashes {
	ih, ok := b.Aux.(*idHashes)
	if !ok {
		if pooled {
			ih, ok = auxPool.get()
		}
		if !ok {
			ih = &idHashes{h: make([]uint64, 0, 1024)}
		}
		b.Aux = ih
	}
	if len(b.Records) == 0 {
		ih.reset()
		if ih.facts != nil {
			ih.facts.reset() // left by a pass that failed (batchDone takes it)
		}
	}
	return ih
}

// hashIDs is the index pass's ParallelOptions.Inspect: it appends the hash
// of rec's id, as take reads it in capture mode, to b's idHashes (0 for a
// record that is not an object: take adds no entry with a hash for it),
// with its digest.
func hashIDs(rec *jsonl.Record, b *jsonl.Batch) {
	ih := batchHashes(b, false)
	var k lineKeys
	ih.readKeys(rec, &k)
	ih.add(rec, &k)
}

// add appends the hash, digest and kept ids of rec, whose keys are k, and
// returns the digest.
func (ih *idHashes) add(rec *jsonl.Record, k *lineKeys) uint32 {
	d := ih.digest(rec, k)
	var at uint32
	if d != 0 {
		var ok bool
		if at, ok = ih.keepIDs(k, d); !ok {
			d = 0
		}
	}
	ih.h = append(ih.h, k.h)
	ih.msg = append(ih.msg, d)
	ih.idAt = append(ih.idAt, at)
	return d
}

// takeMessage is take for a message line after the header, given its
// digest (idHashes.digest), its id and parent id (as idHashes.idsOf gives them)
// and, when rd.idHashOK, its id's hash. It reads none of rec's bytes.
func (rd *reader) takeMessage(rec *jsonl.Record, d uint32, id, parent string) {
	size := rec.Offset + rec.Len()
	if size >= maxOffset {
		rd.take(rec)
		return
	}
	rd.size = size
	var flags uint8
	if d&msgID == 0 {
		id, flags = noIDKey, flagNoID
	}
	hasParent := d&msgParent != 0
	f := rd.f
	if len(f.Entries) == cap(f.Entries) {
		rd.reserve(rec.Offset)
	}
	// The entry is built after the call, in registers: built before, it
	// was spilled field by field and reloaded in wider words, a load the
	// store buffer cannot forward, which waits for every older store to
	// reach the cache (the id table's, a miss).
	e := newEntry(rec.Offset, rec.Len(), uint16(d&msgKind), flags)
	if rd.idHashOK {
		// addEntryHashed, without the call
		if !hasParent {
			parent = ""
		}
		f.Entries = append(f.Entries, e)
		f.Index.AddHashed(tree.Node{ID: id, Parent: parent, HasParent: hasParent, Line: int32(rec.Line)}, rd.idHash)
		return
	}
	f.addEntry(e, int32(rec.Line), id, parent, hasParent)
}

// restoreCaptures gives rec, an object line whose captures inspect left
// out (needsNoCaptures), those captures again: its line is read back and
// scanned. The merge needs them only for a line before the header.
func (rd *reader) restoreCaptures(rec *jsonl.Record, ra io.ReaderAt, c *jsonl.Capture) error {
	if rec.Raw == nil {
		line, err := jsonl.ReadLineAt(ra, rec.Offset, rec.Len())
		if err != nil {
			return err
		}
		rec.Raw = line
	}
	if rd.rescan == nil || rd.rescanOf != c {
		rd.rescan, rd.rescanOf = jsonl.NewScanner(c), c
	}
	if !rd.rescan.Scan(rec.Body()) || !rd.rescan.IsObject() {
		return jsonl.ErrFileChanged // it was an object line when the workers read it
	}
	rec.Top = slices.Clone(rd.rescan.Top)
	rec.Sub = slices.Clone(rd.rescan.Sub[:min(len(rd.rescan.Sub), nCheckSub)])
	return nil
}

// readParallel indexes a file with jsonl.ReadParallel: the file is read
// once in chunks cut at line boundaries, GOMAXPROCS workers validate and
// capture the chunks' lines, and the caller's goroutine builds the index
// from them in file order. Workers keep the raw bytes of every line that
// is not a plain "message" object and of the last line; the few others the
// indexer must look at (lines before the header, lines longer than a
// chunk) are read back by offset.
func (rd *reader) readParallel(r io.Reader, ra io.ReaderAt) error {
	keep := func(rec *jsonl.Record) bool {
		if rec.Kind == jsonl.Object && rec.Top == nil && !rec.Streamed {
			return false // a plain message line inspect took whole (needsNoCaptures)
		}
		isMsg := rec.Kind == jsonl.Object && bytes.Equal(rec.Top[capType], typeMessage)
		return !isMsg || !rec.Newline
	}
	headerSeen := false
	// InPlace: fn keeps nothing of a record's bytes past the pass (the
	// index, facts and listing copy what they keep) and writes none.
	po := jsonl.ParallelOptions{Capture: captured, Keep: keep, ChunkSize: indexChunkSize, Inspect: hashIDs, InPlace: true}
	var facts *factCollector // check's facts (checkfacts.go)
	if rd.check {
		facts = &factCollector{}
		po.Capture, po.Inspect = checkCaptured, inspector(rd.list != nil)
		// A line longer than a chunk gets no facts and no listing (they
		// read it back): capture of it only what the index reads, the
		// leading members of checkCaptured, which are captured's.
		po.LongTop, po.LongSub = len(captured.Top), len(captured.SubKeys)
	}
	if st := rd.list; st != nil {
		// An id hash an entry, about 1 KB an entry in real sessions (as
		// newReader sizes the index): one slice made at the size, not
		// grown to it copy after copy. It takes newReader's estimate of the
		// entries (without newReader's floor of 1,024: a small file needs
		// no more than a few), capped at 4 Mi hashes (32 MiB), and reserve
		// grows it with the entries when there are more.
		if n := int(min(rd.sizeHint/1024, 1<<22)); cap(st.ids) < n {
			st.ids = make([]uint64, 0, n)
		}
	}
	defer func() { rd.idHashOK = false }()
	err := jsonl.ReadParallel(r, po, func(b *jsonl.Batch) error {
		var hs []uint64   // the workers' hashes of the ids (hashIDs)
		var ds []uint32   // and their message digests
		var lf []listFact // and the listing's facts (inspect with list; their ids' hashes are hs)
		rd.idHashOK = false
		ih, _ := b.Aux.(*idHashes)
		if ih != nil {
			if len(ih.h) == len(b.Records) && len(ih.msg) == len(b.Records) && len(ih.idAt) == len(b.Records) {
				hs, ds = ih.h, ih.msg
			}
			if len(ih.lf) == len(b.Records) && hs != nil {
				lf = ih.lf
			}
			defer ih.reset() // the batch is reused
		}
		if facts != nil {
			facts.begin(b)
		}
		for i := range b.Records {
			rec := &b.Records[i]
			if hs != nil {
				if i%touchAhead == 0 {
					// the next run: its loads overlap this run's work
					if i == 0 {
						rd.f.Index.Touch(hs[:min(touchAhead, len(hs))])
					}
					rd.f.Index.Touch(hs[min(i+touchAhead, len(hs)):min(i+2*touchAhead, len(hs))])
				}
				rd.idHash, rd.idHashOK = hs[i], true
			}
			isObj := rec.Kind == jsonl.Object
			fast := ds != nil && ds[i] != 0 && (rd.f.Header != nil || rd.f.HeaderErr != nil) &&
				(rd.list == nil || lf != nil && (rd.list.headerDone || rd.list.broken || rd.list.stopped))
			if isObj && rec.Top == nil && !rec.Streamed && !fast {
				if err := rd.restoreCaptures(rec, ra, po.Capture); err != nil {
					return err
				}
			}
			if rec.Raw == nil && (isObj || rec.Kind == jsonl.NonObject) &&
				(!headerSeen || rec.Streamed && !(isObj && bytes.Equal(rec.Top[capType], typeMessage) && rec.Newline)) {
				line, err := jsonl.ReadLineAt(ra, rec.Offset, rec.Len())
				if err != nil {
					return err
				}
				rec.Raw = line
			}
			if !headerSeen && (isObj || rec.Kind == jsonl.NonObject) &&
				!(rec.Line == 1 && isObj && bytes.Equal(rec.Top[capType], typeTitle)) {
				headerSeen = true
			}
			if st := rd.list; st != nil {
				if lf != nil && lf[i].flags&lfMessage != 0 && st.headerDone && !st.broken && !st.stopped &&
					!rec.Streamed && rec.Kind == jsonl.Object && !rec.BOM {
					// listLine's first case, without the call
					if !st.preMessage(&lf[i], hs[i], rec.Top, rec.Sub) {
						st.stopped = true
					}
				} else {
					if lf != nil {
						st.pre, st.preID = &lf[i], hs[i]
					}
					rd.listLine(rec)
					st.pre = nil
				}
			}
			before := rd.f.Index.Len()
			if fast {
				id, parent := ih.idsOf(i)
				rd.takeMessage(rec, ds[i], id, parent)
			} else {
				rd.take(rec)
			}
			if facts != nil && facts.pending(i, rec) {
				facts.take(b, i, before, rd.f)
			}
		}
		if facts != nil {
			facts.batchDone(b)
		}
		return nil
	})
	if err == nil && facts != nil && !facts.out.full {
		rd.f.facts = &facts.out
	}
	if err == nil && rd.list != nil && !rd.list.broken {
		rd.f.listInfo = rd.list.finish(rd.f.Path)
	}
	return err
}
