package pi

import (
	"math"
	"slices"
	"sort"
	"sync"
	"unsafe"

	"github.com/sessctl/sessctl/internal/jsonl"
)

// Check's facts: what the path rules (pathProblems) read of message and
// compaction lines, gathered by the parallel index pass when Options.Check
// asks for it, on the workers, from the members the validating scan
// captures (checkCaptured). Check then needs no second read of the path's
// lines. Only lines longer than a chunk (validated as they are read, not
// inspected) are read back.

// checkCaptured is captured (same slots first, so the index reads it as
// its own) plus what the path rules look at.
// It is also list's (listCapture: topKeys, msgKeys) so that one pass can
// feed the listing scan too.
// The scan captures too the type, id and name of each object element of
// the message's content (Capture.Elems), so that an assistant message's
// tool calls need no second walk over its content.
var checkCaptured = &jsonl.Capture{
	Top:      append(append([]string(nil), topKeys[:]...), "firstKeptEntryId"),
	Sub:      "message",
	SubKeys:  append(append([]string(nil), msgKeys[:]...), "stopReason", "toolCallId"),
	Elems:    msgKeys[mContent],
	ElemKeys: []string{"type", "id", "name"},
}

const capFirstKept = nTop

const (
	subRole       = mRole
	subContent    = mContent
	subStop       = nMsg
	subToolCallID = nMsg + 1
	nCheckSub     = nMsg + 2 // checkCaptured.SubKeys; the content's elements follow
)

// The slots of a content element (checkCaptured.ElemKeys).
const (
	elemType = iota
	elemID
	elemName
	nElem
)

// lineFact is what the path rules need of one message or compaction line.
type lineFact struct {
	// listing is why pi 1.5.2's session list fails on the message ("": it
	// does not).
	listing string
	// dropped: an assistant message that stopped with an error or aborted.
	dropped bool
	// calls are an assistant message's tool calls, in order.
	calls []toolCall
	// resultID is a tool result's toolCallId, as a key (jsonl.KeyString;
	// "" when not a string).
	resultID string
	// fkOK: the compaction has firstKeptEntryId; fkStr: it is a string,
	// fkID its key (jsonl.KeyString); fkRaw its raw JSON.
	fkOK, fkStr bool
	fkID, fkRaw string
}

// toolCall is a tool call: its id as a key (jsonl.KeyString), its name.
type toolCall struct{ id, name string }

// factFromLine computes a line's fact from the line itself (as stored),
// for the entry of type typ and role: the rules as written for a line.
func factFromLine(line []byte, typ, role string) lineFact {
	var lf lineFact
	switch typ {
	case "message":
		m, _ := jsonl.Field(line, "message")
		lf.listing, _ = listingFails(m)
		switch role {
		case "assistant":
			stop, _ := jsonl.String(sub(m, "stopReason"))
			lf.dropped = stop == "error" || stop == "aborted"
			content, _ := jsonl.Field(m, "content")
			jsonl.Elements(content, func(b []byte) bool {
				if t, _ := jsonl.String(sub(b, "type")); t == "toolCall" {
					id, _ := jsonl.KeyString(sub(b, "id"))
					name, _ := jsonl.String(sub(b, "name"))
					lf.calls = append(lf.calls, toolCall{id, name})
				}
				return true
			})
		case "toolResult":
			lf.resultID, _ = jsonl.KeyString(sub(m, "toolCallId"))
		}
	case "compaction":
		fk, ok := jsonl.Field(line, "firstKeptEntryId")
		lf.fkOK = ok
		lf.fkID, lf.fkStr = jsonl.KeyString(fk)
		if ok {
			lf.fkRaw = string(fk)
		}
	}
	return lf
}

// Stored facts. An entry without one had nothing the rules look at (a
// message that is neither an assistant message with tool calls nor a tool
// result, and that pi's listing reads).
type storedFact struct {
	entry  int32
	flags  uint8
	store  int32 // the factStore its strings and calls are in (checkFacts.stores)
	callAt int32 // first of its calls in its store's calls
	nCalls int32
	str    strRef // resultID, fkID
	raw    strRef // fkRaw, listing
}

const (
	sfUnknown    = 1 << iota // not inspected (a line longer than a chunk): read it back
	sfDropped                // lineFact.dropped
	sfFKOK                   // lineFact.fkOK
	sfFKStr                  // lineFact.fkStr
	sfListing                // raw holds lineFact.listing
	sfResult                 // str holds lineFact.resultID
	sfCompaction             // str, raw hold the firstKeptEntryId facts
)

// strRef is a string in a factStore's arena (which stays under 4 GiB: a
// store that would outgrow it is marked full and not used).
type strRef struct{ off, n uint32 }

type storedCall struct{ id, name strRef }

// factStore holds facts and the strings they refer to.
type factStore struct {
	facts []storedFact
	calls []storedCall
	arena []byte
	full  bool // a string did not fit: the facts are incomplete
	// userText: a user message whose content is a non-empty string was
	// kept whole in this batch (inspect with list), so the listing's first
	// message is found there or earlier: later ones need only their first
	// byte.
	userText bool
}

func (s *factStore) str(b []byte) strRef {
	if uint64(len(s.arena))+uint64(len(b)) > math.MaxUint32 {
		s.full = true
		return strRef{}
	}
	r := strRef{uint32(len(s.arena)), uint32(len(b))}
	s.arena = append(s.arena, b...)
	return r
}

func (s *factStore) strString(v string) strRef {
	if uint64(len(s.arena))+uint64(len(v)) > math.MaxUint32 {
		s.full = true
		return strRef{}
	}
	r := strRef{uint32(len(s.arena)), uint32(len(v))}
	s.arena = append(s.arena, v...)
	return r
}

// get returns the string r without copying it: the arena of a file's facts
// is never written again once the index pass is over.
func (s *factStore) get(r strRef) string {
	if r.n == 0 {
		return ""
	}
	return unsafe.String(&s.arena[r.off], int(r.n))
}

func (s *factStore) reset() {
	s.facts, s.calls, s.arena, s.full, s.userText = s.facts[:0], s.calls[:0], s.arena[:0], false, false
}

// checkFacts are a file's stored facts, by entry (ascending). Their
// strings and calls stay in the stores of the batches the workers wrote
// them to (stores), which the file keeps instead of copying them.
type checkFacts struct {
	facts  []storedFact
	stores []*factStore
	nCalls int  // the calls of all facts
	full   bool // a store did not hold every string: the facts are incomplete
	// aux are the batches' idHashes of the pass that gathered the facts
	// (their own facts given back), for releaseFacts to keep for the next
	// file: jsonl drops a batch's Aux when the pass ends.
	aux []*idHashes
}

// lookup returns entry i's fact: ok false when it has none. cur is where
// the previous lookup ended: a path mostly climbs through the file, so the
// next fact is usually there or just after it.
func (c *checkFacts) lookup(i int, cur *int) (*storedFact, bool) {
	for k := *cur; k < len(c.facts) && k < *cur+4; k++ {
		if e := int(c.facts[k].entry); e >= i {
			if e == i {
				*cur = k + 1
				return &c.facts[k], true
			}
			if k > 0 && int(c.facts[k-1].entry) < i {
				*cur = k
				return nil, false
			}
			break
		}
	}
	k := sort.Search(len(c.facts), func(k int) bool { return int(c.facts[k].entry) >= i })
	*cur = k
	if k < len(c.facts) && int(c.facts[k].entry) == i {
		*cur = k + 1
		return &c.facts[k], true
	}
	return nil, false
}

// fact expands a stored fact.
func (c *checkFacts) fact(sf *storedFact) lineFact {
	var lf lineFact
	c.factInto(sf, &lf)
	return lf
}

// factInto is fact into lf, whose calls slice is reused.
func (c *checkFacts) factInto(sf *storedFact, lf *lineFact) {
	*lf = lineFact{dropped: sf.flags&sfDropped != 0, fkOK: sf.flags&sfFKOK != 0, fkStr: sf.flags&sfFKStr != 0, calls: lf.calls[:0]}
	st := c.stores[sf.store]
	if sf.flags&sfListing != 0 {
		lf.listing = st.get(sf.raw)
	}
	if sf.flags&sfResult != 0 {
		lf.resultID = st.get(sf.str)
	}
	if sf.flags&sfCompaction != 0 {
		lf.fkID, lf.fkRaw = st.get(sf.str), st.get(sf.raw)
	}
	for _, sc := range st.calls[sf.callAt : sf.callAt+sf.nCalls] {
		lf.calls = append(lf.calls, toolCall{st.get(sc.id), st.get(sc.name)})
	}
}

// wordIs reports whether raw (a captured raw JSON value) is a string whose
// value is w (not empty), as string(word(raw)) == w, but decoding only a string longer
// than w spelled: an escape makes a raw string longer than its value, so
// one as long as w spelled or shorter holds w only when it spells it.
func wordIs(raw []byte, w string) bool {
	if len(raw) == len(w)+2 && raw[0] == '"' && string(raw[1:len(w)+1]) == w {
		return true
	}
	if len(raw) <= len(w)+2 {
		return false
	}
	return string(word(raw)) == w
}

// inspectFacts is the workers' part (jsonl.ParallelOptions.Inspect): the
// fact of a message or compaction line from its captures, into the batch's
// factStore (entry = the record's place in the batch). The members only
// the facts need are then dropped, so they are not copied.
func inspectFacts(rec *jsonl.Record, b *jsonl.Batch) { inspect(rec, b, false) }

// inspector is inspectFacts, or with list the same keeping what the
// listing scan reads of a message's content: all of a user message's, the
// first byte of the others'.
func inspector(list bool) func(rec *jsonl.Record, b *jsonl.Batch) {
	if list {
		return func(rec *jsonl.Record, b *jsonl.Batch) { inspect(rec, b, true) }
	}
	return inspectFacts
}

func inspect(rec *jsonl.Record, b *jsonl.Batch, list bool) {
	// The index's own digest of the record first (it reads the id, the
	// parent and the role, which this leaves as they are), in an idHashes
	// kept from an earlier file when there is one.
	ih := batchHashes(b, true)
	// The line's type, id, parent id and role, read once for the digest,
	// the listing's fact and check's.
	var k lineKeys
	ih.readKeys(rec, &k)
	d := ih.add(rec, &k)
	var lf *listFact
	if list {
		ih.lf = append(ih.lf, listFact{})
		lf = &ih.lf[len(ih.lf)-1]
		ih.setListFact(lf, rec, &k)
	}
	if rec.Kind != jsonl.Object {
		return
	}
	top, sb := rec.Top, rec.Sub
	// The batch keeps the message's members, not the elements' (sb keeps
	// them for this call).
	if len(sb) > nCheckSub {
		rec.Sub = sb[:nCheckSub:nCheckSub]
	}
	isMsg := k.isMsg
	if !isMsg && !wordIs(top[capType], "compaction") {
		return
	}
	st := ih.facts
	if st == nil {
		st = getFactStore()
		ih.facts = st
	}
	// The fact is built in place (dropped below when not kept): one built
	// on the stack was stored field by field and copied in wider words, a
	// load the CPU cannot forward from those stores.
	st.facts = append(st.facts, storedFact{})
	sf := &st.facts[len(st.facts)-1]
	sf.entry, sf.callAt = int32(len(b.Records)), int32(len(st.calls))
	keep := false
	if isMsg {
		m := top[capMessage]
		var role, content, stop, callID []byte
		rk := uint8(roleOther)
		isObj := len(m) > 0 && m[0] == '{'
		if isObj {
			role, rk = k.role, k.rk
			content, stop, callID = sb[subContent], sb[subStop], sb[subToolCallID]
		}
		// listingFailsOf, asked only when it may fail: a message that is
		// not an object, or a user or assistant message whose content is
		// neither a string nor an array.
		if !isObj || (rk == roleUser || rk == roleAssistant) && content != nil && content[0] != '"' && content[0] != '[' {
			if why, bad := listingFailsOf(m, role, content); bad {
				sf.flags |= sfListing
				sf.raw = st.strString(why)
				keep = true
			}
		}
		isUser := rk == roleUser
		switch rk {
		case roleAssistant:
			if wordIs(stop, "error") || wordIs(stop, "aborted") {
				sf.flags |= sfDropped
			}
			// The content's object elements (their type, id and name),
			// captured by the scan: the content is an array when it has
			// any.
			for e := sb[min(nCheckSub, len(sb)):]; len(e) >= nElem; e = e[nElem:] {
				if wordIs(e[elemType], "toolCall") {
					st.calls = append(st.calls, storedCall{strKey(st, e[elemID]), strDecoded(st, e[elemName])})
				}
			}
			sf.nCalls = int32(len(st.calls)) - sf.callAt
			keep = keep || sf.nCalls > 0
		case roleToolResult:
			sf.flags |= sfResult
			sf.str = strKey(st, callID)
			keep = true
		}
		switch c := sb[subContent]; {
		case !list || c == nil:
			sb[subContent] = nil
		case !isUser || st.userText:
			sb[subContent] = c[:1]
		case c[0] == '"' && len(c) > 2 && !rec.BOM:
			// The listing takes this one's text (listState.line: a
			// string of at least one character), unless an earlier
			// line gave it already; a BOM line it skips.
			st.userText = true
		}
		sb[subStop], sb[subToolCallID] = nil, nil
	} else {
		fk := top[capFirstKept]
		sf.flags |= sfCompaction
		if fk != nil {
			sf.flags |= sfFKOK
			sf.raw = st.str(fk)
		}
		id, isStr := jsonl.KeyString(fk)
		if isStr {
			sf.flags |= sfFKStr
		}
		sf.str = st.strString(id)
		keep = true
	}
	top[capFirstKept] = nil
	if !keep {
		st.facts = st.facts[:len(st.facts)-1]
	}
	if isMsg && needsNoCaptures(d, lf, list) {
		rec.Top, rec.Sub = nil, nil // not copied into the batch (restoreCaptures)
	}
}

// needsNoCaptures reports whether the merge reads none of the captures of
// the record inspect just took, a message line whose digest is d and, with
// list, whose listing fact is lf: its digest says all the index takes of
// it (takeMessage), and with list its listFact all the listing does,
// unless it is a user message (its text may be the first message) or a
// user or assistant message with content whose message timestamp is not a
// number (the listing reads the line's timestamp). Until the header is
// read the merge reads them all: it scans the line again
// (restoreCaptures).
func needsNoCaptures(d uint32, lf *listFact, list bool) bool {
	if d == 0 {
		return false
	}
	if !list {
		return true
	}
	f := lf.mflags
	if f&mfUser != 0 {
		return false
	}
	return f&(mfObject|mfContent|mfAssistant) != mfObject|mfContent|mfAssistant || f&mfNumTS != 0
}

// strDecoded stores the value of raw JSON string raw ("" when it is not
// one), without decoding when it holds no escapes.
func strDecoded(st *factStore, raw []byte) strRef {
	if n := len(raw); n >= 2 && raw[0] == '"' && noBackslash(raw[1:n-1]) {
		return st.str(raw[1 : n-1])
	}
	s, _ := jsonl.String(raw)
	return st.strString(s)
}

// strKey stores the key of raw JSON string raw, an id compared with
// others (a tool call's id, a result's toolCallId): jsonl.KeyString's
// ("" when it is not a string), without decoding when raw is its own key
// (plainKey).
func strKey(st *factStore, raw []byte) strRef {
	if n := len(raw); n >= 2 && raw[0] == '"' && plainKey(raw[1:n-1]) {
		return st.str(raw[1 : n-1])
	}
	s, _ := jsonl.KeyString(raw)
	return st.strString(s)
}

// factCollector moves the batches' facts to the file's, in file order, as
// the index takes the records; the file keeps the stores they refer to.
type factCollector struct {
	out checkFacts
	// st is the current batch's store (nil: none), facts its facts and
	// cursor the next of them.
	st     *factStore
	facts  []storedFact
	cursor int
	// started: out's buffers were taken from factLists (first batch).
	started bool
	// kept: the current batch's store is out.stores' last.
	kept bool
}

// begin is called before the index takes the records of batch b.
func (c *factCollector) begin(b *jsonl.Batch) {
	c.cursor, c.st, c.facts = 0, nil, nil
	if ih, _ := b.Aux.(*idHashes); ih != nil {
		if !slices.Contains(c.out.aux, ih) {
			c.out.aux = append(c.out.aux, ih)
		}
		if c.st = ih.facts; c.st != nil {
			c.facts = c.st.facts
		}
	}
	if !c.started {
		c.started = true
		c.out.facts, _ = factLists.get()
	}
}

// pending reports whether take has anything to do for record k of the
// batch begun, rec: the next fact is its, or it was not inspected.
func (c *factCollector) pending(k int, rec *jsonl.Record) bool {
	return c.cursor < len(c.facts) && int(c.facts[c.cursor].entry) == k || rec.Streamed
}

// take is called after the index took record k of batch b, when pending;
// before is the number of entries before it. A record that became a
// message or compaction entry keeps its fact, or is marked unknown when it
// was not inspected (streamed).
func (c *factCollector) take(b *jsonl.Batch, k int, before int, f *File) {
	var sf *storedFact
	if c.cursor < len(c.facts) && int(c.facts[c.cursor].entry) == k {
		sf = &c.facts[c.cursor]
		c.cursor++
	}
	if f.Index.Len() != before+1 {
		return // not an entry
	}
	if b.Records[k].Streamed {
		if t := f.Entries[before].Type(); t == "message" || t == "compaction" {
			c.out.add(storedFact{entry: int32(before), flags: sfUnknown})
		}
		return
	}
	if sf == nil {
		return
	}
	o := &c.out
	if !c.kept {
		c.kept = true
		o.stores = append(o.stores, c.st)
		if c.st.full || len(o.stores) > math.MaxInt32 {
			o.full = true
		}
	}
	o.nCalls += int(sf.nCalls)
	nf := o.add(*sf)
	nf.entry = int32(before)
	nf.store = int32(len(o.stores) - 1)
}

// add appends sf to c's facts and returns it there. The list doubles
// when full: append's growth by a quarter copied a large file's list some
// thirty times over.
func (c *checkFacts) add(sf storedFact) *storedFact {
	if n := len(c.facts); n == cap(c.facts) {
		grown := make([]storedFact, n, max(2*n, 256))
		copy(grown, c.facts)
		c.facts = grown
	}
	c.facts = append(c.facts, sf)
	return &c.facts[len(c.facts)-1]
}

// batchDone takes a batch's facts store from it once the index has taken
// the batch (the next chunk of this batch takes one again): the file keeps
// it when a fact of it is the file's, else it goes back to factStores.
// Batches outlive a file (jsonl keeps them between ReadParallel calls),
// their Aux does not.
func (c *factCollector) batchDone(b *jsonl.Batch) {
	if ih, _ := b.Aux.(*idHashes); ih != nil && ih.facts != nil {
		if !c.kept {
			putFactStore(ih.facts)
		} else if st := ih.facts; cap(st.facts) <= maxPooledArena/16 {
			// The file's list holds these facts: the array serves the
			// next new store (spareFactArrays).
			fl := st.facts[:0]
			st.facts = nil
			spareFactArrays.put(fl)
		} else {
			ih.facts.facts = nil
		}
		ih.facts = nil
	}
	c.cursor, c.kept, c.st, c.facts = 0, false, nil, nil
}

// factStores holds reset facts stores between batches and files: a
// listing reads thousands of files, each of a few chunks, and stores grown
// afresh for each made a third of the listing's allocations. A mutex-held
// last-in first-out list of at most 64 (lifo), not a sync.Pool, which
// every collection empties: the store put back last, warm in cache, is
// taken first.
var factStores = newLIFO[*factStore](64)

// maxPooledArena bounds the arena of a pooled store: one grown by a huge
// file is left to the collector.
const maxPooledArena = 8 << 20

// factLists keeps the files' fact lists (checkFacts.facts, given back by
// File.releaseFacts) between files.
var factLists = newLIFO[[]storedFact](8)

// spareFactArrays keeps the fact arrays of the stores a checked file keeps
// (for their calls and arena): take has copied the facts into the file's
// list, so the array is not read again and serves the next new store.
// Keeping it with its store held about 58 MB more at check's peak on a
// 1 GiB session. At most 16 are kept, each of at most maxPooledArena/16
// entries (the same peak there as 64).
var spareFactArrays = newLIFO[[]storedFact](16)

func getFactStore() *factStore {
	st, ok := factStores.get()
	if !ok {
		// Sized for a chunk of tool calls and results (a 512 KiB
		// chunk of a coding session holds some 250 calls and 13 KB
		// of their ids and names): grown from nothing, a new store's
		// arena was copied and cleared a dozen times.
		st = &factStore{arena: make([]byte, 0, 16<<10), calls: make([]storedCall, 0, 256)}
	}
	if cap(st.facts) == 0 {
		// A new store, or one a checked file kept (batchDone gave its
		// array away): one grown afresh grew a dozen times a batch.
		st.facts, _ = spareFactArrays.get()
	}
	return st
}

func putFactStore(st *factStore) {
	if cap(st.arena) > maxPooledArena || cap(st.facts) > maxPooledArena/16 || cap(st.calls) > maxPooledArena/16 {
		return
	}
	st.reset()
	factStores.put(st)
}

// storedFactsUsable reports whether the path rules take f's facts as the
// index pass stored them: it gathered them, and the file is not migrated
// (legacy: the facts are of the stored lines, the rules are about the
// migrated ones) or edited.
func (f *File) storedFactsUsable() bool {
	return f.facts != nil && f.Legacy == nil && f.edits == nil
}

// walkStored applies the rules to the message and compaction entries of
// the path, in path order, from the facts the index pass stored
// (storedFactsUsable): a stored fact is read where it is (pathRules.stored),
// a message without one (neither an assistant message with tool calls nor
// a tool result, and one pi's listing reads) is skipped, as the rules find
// nothing in it, and a line the pass did not inspect is read back.
func (r *pathRules) walkStored(kt []kindPair) error {
	f := r.f
	facts := f.facts
	var lr *lineReader
	defer func() {
		if lr != nil {
			lr.close()
		}
	}()
	cur := 0
	var long *longRefs
	for _, i := range r.path {
		c := kindClass(kt, &f.Entries[i])
		if c&(kcMessage|kcCompaction) == 0 {
			continue
		}
		sf, ok := facts.lookup(i, &cur)
		switch {
		case ok && sf.flags&sfUnknown == 0:
			r.stored(i, c, facts, sf)
		case !ok && c&kcMessage != 0 && c&kcToolResult == 0:
			// nothing the rules look at
		default:
			if lr == nil {
				var err error
				if lr, err = f.openLines(); err != nil {
					return err
				}
			}
			lf, err := lr.fact(i, &long)
			if err != nil {
				return err
			}
			r.lineFact(i, c, &lf)
		}
	}
	return nil
}

// eachPathFact calls fn with the fact of each entry in idx (message and
// compaction entries, in path order), read from its line (the path rules
// of a file whose stored facts are not usable: storedFactsUsable).
func (f *File) eachPathFact(idx []int, fn func(i int, lf *lineFact) error) error {
	return f.EachLine(idx, func(i int, line []byte) error {
		e := &f.Entries[i]
		lf := factFromLine(line, e.Type(), e.Role())
		return fn(i, &lf)
	})
}

// fact reads entry i's facts from its line. A line longer than
// jsonl.LongLine is read elided (string values over jsonl.ElidedMin left
// out, *long made when first needed), so that a 200 MB message is not held
// to learn its tool calls; when a fact the rules use holds a placeholder,
// or the line fails pi's listing (whose message quotes the content's first
// bytes), the line is read whole instead.
func (r *lineReader) fact(i int, long **longRefs) (lineFact, error) {
	e := r.f.Entries[i]
	if e.Len() > jsonl.LongLine && r.f.edits == nil {
		if *long == nil {
			*long = newLongRefs()
		}
		pe, err := r.entryElided(i, *long)
		if err != nil {
			return lineFact{}, err
		}
		lf := factFromLine(pe.line, e.Type(), e.Role())
		if !lf.holdsPlaceholder() {
			return lf, nil
		}
	}
	line, err := r.raw(i)
	if err != nil {
		return lineFact{}, err
	}
	return factFromLine(line, e.Type(), e.Role()), nil
}

// holdsPlaceholder reports whether lf was read from an elided line in a
// way that may differ from the whole line: a listing failure, or a tool
// call, result or firstKeptEntryId holding a placeholder.
func (lf *lineFact) holdsPlaceholder() bool {
	if lf.listing != "" || jsonl.Holds(lf.resultID) || jsonl.Holds(lf.fkID) || jsonl.Holds(lf.fkRaw) {
		return true
	}
	for _, c := range lf.calls {
		if jsonl.Holds(c.id) || jsonl.Holds(c.name) {
			return true
		}
	}
	return false
}

// releaseFacts gives f's facts buffers back to factStores; f must not be
// checked again (its facts are gone) and nothing may hold a string a
// lookup returned (they point into the arena).
func (f *File) releaseFacts() {
	if c := f.facts; c != nil {
		f.facts = nil
		for _, st := range c.stores {
			putFactStore(st)
		}
		clear(c.stores)
		if cap(c.facts) <= maxPooledArena/16 {
			factLists.put(c.facts[:0])
		}
		for _, ih := range c.aux {
			if cap(ih.h) > maxPooledAux || cap(ih.msg) > maxPooledAux || cap(ih.lf) > maxPooledAux || cap(ih.ids) > 64*maxPooledAux {
				continue
			}
			ih.reset()
			ih.facts = nil
			auxPool.put(ih)
		}
		clear(c.aux)
	}
}

// auxPool keeps the batches' idHashes between files (releaseFacts), whose
// slices grow to a chunk's lines each time they are made.
var auxPool = newLIFO[*idHashes](32)

// maxPooledAux bounds the slices of a pooled idHashes.
const maxPooledAux = 1 << 16

// lifo is a free list that gives back the item put last: the one most
// likely still in a cache (a channel gives the one put first, whose
// memory a listing's stream of file pages has long evicted). At most max
// items are kept.
type lifo[T any] struct {
	mu    sync.Mutex
	items []T
	max   int
}

func newLIFO[T any](max int) *lifo[T] { return &lifo[T]{max: max} }

// get returns the item put last, or false when there is none.
func (l *lifo[T]) get() (T, bool) {
	var x, zero T
	l.mu.Lock()
	n := len(l.items)
	if n == 0 {
		l.mu.Unlock()
		return x, false
	}
	x = l.items[n-1]
	l.items[n-1] = zero
	l.items = l.items[:n-1]
	l.mu.Unlock()
	return x, true
}

// put keeps x unless max items are kept.
func (l *lifo[T]) put(x T) {
	l.mu.Lock()
	if len(l.items) < l.max {
		l.items = append(l.items, x)
	}
	l.mu.Unlock()
}
