package pi

import (
	"fmt"
	"hash/maphash"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/sessctl/sessctl/internal/blob"
	"github.com/sessctl/sessctl/internal/problem"
	"github.com/sessctl/sessctl/internal/tree"
)

// Problem codes found by Check on top of those found while reading.
const (
	CodeToolCallNoResult   = "tool-call-without-result"
	CodeToolResultNoCall   = "tool-result-without-call"
	CodeCompactionKeptOff  = "compaction-kept-off-path"
	CodeOutdatedVersion    = "outdated-version"
	CodeDanglingBlob       = "dangling-blob-ref"
	CodeDroppedLabelParent = "orphan-dropped-label"
	// CodeListingFails: a user or assistant message whose content is
	// neither a string nor an array (null): pi 1.5.2's session list throws
	// on it, so the session is missing from /resume.
	CodeListingFails = "listing-fails"
	// CodeHeaderBeyondScan: the header ends after pi 1.5.2's 1 MiB header
	// scan (readSessionHeader), so its discovery skips the file.
	CodeHeaderBeyondScan = "header-beyond-scan"
)

// maxHeaderScan is how far pi 1.5.2 reads looking for the header when it
// discovers sessions (MAX_SESSION_HEADER_SCAN_BYTES).
const maxHeaderScan = 1 << 20

// CurrentVersion is the session format version pi and oh-my-pi write.
const CurrentVersion = 3

// CheckOptions tune Check.
type CheckOptions struct {
	// BlobDir is the blob store of an oh-my-pi or xcsh session; "" finds it
	// beside the sessions folder the file lives in.
	BlobDir string
}

// Check returns every problem of the file: those found while reading plus
// the ones that need the active path, the version, the parent session or the
// blob store.
func (f *File) Check(opts CheckOptions) []problem.Problem {
	ps := append([]problem.Problem(nil), f.Problems...)
	if f.HeaderErr != nil {
		return ps
	}
	if f.Legacy != nil {
		// The agent migrates it in memory on open, and so does sessctl:
		// everything below is about the migrated file.
		ps = append(ps, f.legacyNotice())
	}
	if f.Dialect == DialectPi && f.Header.Offset+f.Header.Len > maxHeaderScan {
		ps = append(ps, problem.Problem{Code: CodeHeaderBeyondScan, Severity: problem.Warning, Line: f.Header.Line,
			Message: fmt.Sprintf("the session header ends %d bytes into the file: pi 1.5.2 looks for it only in the first 1 MiB, so pi -c and --session <id> do not find this session (opening it by path works)", f.Header.Offset+f.Header.Len)})
	}
	ps = append(ps, f.droppedLabelOrphans(ps)...)
	ps = append(ps, f.pathProblems()...)
	if f.Dialect == DialectOmp || f.Dialect == DialectXcsh {
		ps = append(ps, f.blobProblems(opts.BlobDir)...)
	}
	return ps
}

// pathProblems checks tool call pairing and compactions on the active path.
func (f *File) pathProblems() []problem.Problem {
	leaf := f.Index.Last()
	if leaf == tree.None {
		return nil
	}
	path, _ := f.activePath(leaf)
	// Sized for every call the pass stored (the path holds at most those,
	// and about as many results): no growing and rehashing as they come.
	n := 0
	if f.facts != nil {
		n = f.facts.nCalls
	}
	sc := getPathScratch(n, f.Index.Len())
	defer putPathScratch(sc)
	r := pathRules{f: f, sc: sc, path: path}
	kt := kindTable()
	var err error
	if f.storedFactsUsable() {
		err = r.walkStored(kt)
	} else {
		// Only message and compaction lines are read, one at a time.
		need := sc.need
		if cap(need) < len(path) {
			need = make([]int, 0, len(path)) // not grown by appends: most of a path is read
		}
		for _, i := range path {
			if kindClass(kt, &f.Entries[i])&(kcMessage|kcCompaction) != 0 {
				need = append(need, i)
			}
		}
		sc.need = need
		err = f.eachPathFact(need, func(i int, lf *lineFact) error {
			r.lineFact(i, kindClass(kt, &f.Entries[i]), lf)
			return nil
		})
	}
	if err != nil {
		r.ps = append(r.ps, problem.Problem{Code: "read-error", Severity: problem.Error, Message: err.Error()})
	}
	sc.calls.unanswered(func(c *pathID) {
		r.ps = append(r.ps, problem.Problem{Code: CodeToolCallNoResult, Severity: problem.Warning, Line: c.line, ID: c.id,
			Message: fmt.Sprintf("tool call %s (%s) has no result on the active path", c.id, c.name),
			Fix:     "sessctl repair --close-tool-calls appends an error result for it"})
	})
	return r.ps
}

// pathRules are the path rules of pathProblems, met entry by entry in
// path order, whichever way the facts come (stored by the index pass, or
// read from the lines): one set of rules for both.
type pathRules struct {
	f    *File
	sc   *pathScratch
	path []int
	ps   []problem.Problem
}

// listing: message entry i fails pi 1.5.2's listing, why says how.
func (r *pathRules) listing(i int, why string) {
	if r.f.Dialect == DialectPi {
		r.ps = append(r.ps, problem.Problem{Code: CodeListingFails, Severity: problem.Warning, Line: int(r.f.Line(i)), ID: r.f.DisplayID(i),
			Message: why + ": pi 1.5.2's session list fails on the file, so the session is missing from /resume"})
	}
}

// result: tool result entry i answers call id.
func (r *pathRules) result(i int, id string) {
	if !r.sc.calls.result(id) {
		r.ps = append(r.ps, problem.Problem{Code: CodeToolResultNoCall, Severity: problem.Warning, Line: int(r.f.Line(i)), ID: r.f.DisplayID(i),
			Message: fmt.Sprintf("tool result for call %s has no tool call before it on the active path", id),
			Fix:     "providers reject an unpaired result; fork the session before it (sessctl fork --at)"})
	}
}

// compaction: compaction entry i, whose firstKeptEntryId is present (ok),
// a string (isStr) of value id, raw its JSON.
func (r *pathRules) compaction(i int, ok, isStr bool, id, raw string) {
	f := r.f
	if ok && isStr && id == f.Index.ID(i) && f.Dialect == DialectPi {
		return // its own id: pi 1.5.2's way of saying "keep nothing"
	}
	if f.Legacy != nil && f.Legacy.Summary.CompactionsUnmapped+f.Legacy.Summary.CompactionsDangling+f.Legacy.Summary.IndexKept > 0 {
		return // the migration left it so: the version notice says it
	}
	posOf := r.sc.posOfPath(r.path)
	k := int(posOf[i]) - 1
	pos, on := -1, false
	if j, found := f.Index.Lookup(id); found && posOf[j] > 0 {
		pos, on = int(posOf[j])-1, true
	}
	if !ok || !isStr || !on || pos >= k {
		what := "is missing"
		if ok {
			what = fmt.Sprintf("%s is not on the path before it", raw)
		}
		r.ps = append(r.ps, problem.Problem{Code: CodeCompactionKeptOff, Severity: problem.Warning, Line: int(f.Line(i)), ID: f.DisplayID(i),
			Message: fmt.Sprintf("compaction's firstKeptEntryId %s: the agent keeps nothing from before this compaction", what)})
	}
}

// lineFact applies the rules to entry i of class c with fact lf.
//
// An assistant message without tool calls records nothing: the calls of
// the last one with calls stay callPairs' hint (last) for the results
// that follow, which changes no answer (a result answers its id's calls
// wherever they are; last only spares a lookup).
func (r *pathRules) lineFact(i int, c uint8, lf *lineFact) {
	switch {
	case c&kcMessage != 0:
		if lf.listing != "" {
			r.listing(i, lf.listing)
		}
		switch {
		case c&kcAssistant != 0:
			if len(lf.calls) > 0 {
				cp := &r.sc.calls
				cp.message()
				line := int(r.f.Line(i))
				for _, tc := range lf.calls {
					cp.call(tc.id, tc.name, line, lf.dropped)
				}
			}
		case c&kcToolResult != 0:
			r.result(i, lf.resultID)
		}
	case c&kcCompaction != 0:
		r.compaction(i, lf.fkOK, lf.fkStr, lf.fkID, lf.fkRaw)
	}
}

// stored applies the rules to entry i of class c with its stored fact sf
// (not sfUnknown): lineFact of c.fact(sf), without expanding it.
func (r *pathRules) stored(i int, c uint8, facts *checkFacts, sf *storedFact) {
	st := facts.stores[sf.store]
	switch {
	case c&kcMessage != 0:
		if sf.flags&sfListing != 0 {
			r.listing(i, st.get(sf.raw))
		}
		switch {
		case c&kcAssistant != 0:
			if sf.nCalls > 0 {
				cp := &r.sc.calls
				cp.message()
				line, dropped := int(r.f.Line(i)), sf.flags&sfDropped != 0
				for _, sc := range st.calls[sf.callAt : sf.callAt+sf.nCalls] {
					cp.call(st.get(sc.id), st.get(sc.name), line, dropped)
				}
			}
		case c&kcToolResult != 0:
			var id string
			if sf.flags&sfResult != 0 {
				id = st.get(sf.str)
			}
			r.result(i, id)
		}
	case c&kcCompaction != 0:
		var id, raw string
		if sf.flags&sfCompaction != 0 {
			id, raw = st.get(sf.str), st.get(sf.raw)
		}
		r.compaction(i, sf.flags&sfFKOK != 0, sf.flags&sfFKStr != 0, id, raw)
	}
}

// callPairs pairs the tool calls and results of a path, met in path
// order, as the rules say: by id, a call's record keeping its last call's
// line, name and dropped, a result answering every call of its id, before
// it or after. Most results answer a call of the assistant message just
// before them (last), so the calls are first only listed (occ, one per
// call, with result set when a result answers it): no id is hashed, and a
// large file's table of ids, whose every probe missed the cache, is not
// made. The first result that answers none of last's calls, or many
// unanswered calls at the end (see maxUnanswered), turns the list into
// the table of records by id (hash) and the rest goes by id.
type callPairs struct {
	occ    []pathID
	last   []int32 // occ (hashed: ids.recs) indexes of the last assistant message's calls
	hashed bool
	ids    idTable
	order  []int32 // the recs of ids in the order of their first call (hashed)
	hint   int     // the calls expected, to size ids
}

// maxUnanswered: unanswered settles up to this many unanswered calls,
// or a sixteenth of all calls, from the list; more are hashed.
const maxUnanswered = 64

// reset empties p for a file of about calls tool calls.
func (p *callPairs) reset(calls int) {
	clear(p.occ) // they point into a file's facts
	clear(p.ids.recs)
	p.occ, p.last, p.order, p.ids.recs, p.hashed, p.hint = p.occ[:0], p.last[:0], p.order[:0], p.ids.recs[:0], false, calls
	if cap(p.occ) < calls {
		p.occ = make([]pathID, 0, calls)
	}
}

// message starts an assistant message: its calls become last.
func (p *callPairs) message() { p.last = p.last[:0] }

// call records a tool call of the current assistant message.
func (p *callPairs) call(id, name string, line int, dropped bool) {
	if !p.hashed {
		p.occ = append(p.occ, pathID{id: id, line: line, name: name, dropped: dropped, call: true})
		p.last = append(p.last, int32(len(p.occ)-1))
		return
	}
	k := p.ids.find(id)
	c := &p.ids.recs[k]
	if !c.call {
		c.call = true
		p.order = append(p.order, int32(k))
	}
	c.line, c.name, c.dropped = line, name, dropped
	p.last = append(p.last, int32(k))
}

// result records a tool result for id and reports whether a call of that
// id came before it.
func (p *callPairs) result(id string) bool {
	if !p.hashed {
		for _, r := range p.last {
			if o := &p.occ[r]; o.id == id {
				o.result = true
				return true
			}
		}
		p.hash()
	}
	// A record's id is unique among the records: a match in last is the
	// record find returns.
	for _, r := range p.last {
		if c := &p.ids.recs[r]; c.id == id {
			c.result = true
			return c.call
		}
	}
	c := &p.ids.recs[p.ids.find(id)]
	c.result = true
	return c.call
}

// hash turns the list of calls into records by id, as if each had been
// recorded by id when met: in the order of their first call, with the
// last call's line, name and dropped, answered when any call was.
func (p *callPairs) hash() {
	p.hashed = true
	p.ids.reset(max(p.hint, len(p.occ)))
	for k := range p.occ {
		o := &p.occ[k]
		r := p.ids.find(o.id)
		c := &p.ids.recs[r]
		if !c.call {
			c.call = true
			p.order = append(p.order, int32(r))
		}
		c.line, c.name, c.dropped = o.line, o.name, o.dropped
		if o.result {
			c.result = true
		}
	}
	p.last = p.last[:0] // an index of occ: empty, it only saves lookups
}

// unanswered calls fn with the record of each id whose calls no result
// answered and whose last call was not dropped, in the order of their
// first call.
func (p *callPairs) unanswered(fn func(c *pathID)) {
	if !p.hashed && !p.unansweredListed(fn) {
		p.hash()
	}
	if !p.hashed {
		return
	}
	for _, k := range p.order {
		if c := &p.ids.recs[k]; !c.result && !c.dropped {
			fn(c)
		}
	}
}

// unansweredListed is unanswered from the list of calls: only an id with
// an unanswered call can be unanswered, and agents leave few (an aborted
// turn's), so their records are made by a scan of the list, each call's
// id looked for among those few (sorted) after a filter by its last two
// bytes, not by a table of every id. false: too many to be worth it, or
// the list is hashed already.
func (p *callPairs) unansweredListed(fn func(c *pathID)) bool {
	var u []pathID // the records of the ids with an unanswered call
	for k := range p.occ {
		if o := &p.occ[k]; !o.result {
			u = append(u, pathID{id: o.id})
		}
	}
	if len(u) == 0 {
		return true
	}
	if len(u) > maxUnanswered && len(u) > len(p.occ)/16 {
		return false
	}
	sort.Slice(u, func(a, b int) bool { return u[a].id < u[b].id })
	u = slices.CompactFunc(u, func(a, b pathID) bool { return a.id == b.id })
	var bloom [1 << 10]uint64 // one bit per last-two-bytes value
	for k := range u {
		h := tail16(u[k].id)
		bloom[h>>6] |= 1 << (h & 63)
	}
	first := make([]int, len(u))
	for j := range first {
		first[j] = -1
	}
	for k := range p.occ {
		o := &p.occ[k]
		if h := tail16(o.id); bloom[h>>6]&(1<<(h&63)) == 0 {
			continue
		}
		j, ok := slices.BinarySearchFunc(u, o.id, func(r pathID, id string) int { return strings.Compare(r.id, id) })
		if !ok {
			continue
		}
		c := &u[j]
		if first[j] < 0 {
			first[j] = k
		}
		c.line, c.name, c.dropped = o.line, o.name, o.dropped
		c.result = c.result || o.result
	}
	idx := make([]int, len(u))
	for j := range idx {
		idx[j] = j
	}
	sort.Slice(idx, func(a, b int) bool { return first[idx[a]] < first[idx[b]] })
	for _, j := range idx {
		if c := &u[j]; !c.result && !c.dropped {
			fn(c)
		}
	}
	return true
}

// tail16 is the last two bytes of id (unanswered's filter).
func tail16(id string) uint16 {
	switch n := len(id); n {
	case 0:
		return 0
	case 1:
		return uint16(id[0])
	default:
		return uint16(id[n-2])<<8 | uint16(id[n-1])
	}
}

// pathID is a tool call id pathProblems met on the path: in a call
// (call, with the last such call's line, name and dropped), in a result
// (result), or both.
type pathID struct {
	hash uint64
	id   string
	line int
	name string
	// dropped: the call is on an assistant message that stopped with
	// an error or was aborted, which pi-ai's message transform leaves
	// out when it sends the context: no result is needed.
	dropped, call, result bool
}

// idTable is a set of pathIDs by id: open addressing over slots (index+1
// into recs, 0 empty), at most half full. A Go map made per file cost more
// than the rest of the path rules (its allocation, or clearing a reused
// one sized by an earlier, bigger file); this one is sized per file over
// reused memory.
type idTable struct {
	// slots hold the upper half of the id's hash << 32 | index+1 into recs:
	// a probe reads a record (a load from memory a large file's table
	// does not keep in cache) only when the hashes match.
	slots []uint64
	recs  []pathID
}

// idSeed hashes the ids (equal ids are compared too: a collision costs a
// probe, never a wrong answer).
var idSeed = maphash.MakeSeed()

// reset empties t and sizes it for about n ids.
func (t *idTable) reset(n int) {
	size := 16
	for size < 2*n {
		size *= 2
	}
	clear(t.recs) // they point into a file's facts
	t.recs = t.recs[:0]
	if cap(t.recs) < n {
		t.recs = make([]pathID, 0, n)
	}
	if cap(t.slots) < size {
		t.slots = make([]uint64, size)
		return
	}
	t.slots = t.slots[:size]
	clear(t.slots)
}

// find returns the index in recs of id's record, adding it when new.
func (t *idTable) find(id string) int {
	if 2*(len(t.recs)+1) > len(t.slots) {
		t.grow()
	}
	h := maphash.String(idSeed, id)
	mask := uint64(len(t.slots) - 1)
	tag := h &^ (1<<32 - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := t.slots[i]
		if s == 0 {
			t.recs = append(t.recs, pathID{hash: h, id: id})
			t.slots[i] = tag | uint64(len(t.recs))
			return len(t.recs) - 1
		}
		if s&^(1<<32-1) == tag {
			if k := int(uint32(s)) - 1; t.recs[k].id == id {
				return k
			}
		}
	}
}

func (t *idTable) grow() {
	t.slots = make([]uint64, 2*max(len(t.slots), 8))
	mask := uint64(len(t.slots) - 1)
	for k := range t.recs {
		h := t.recs[k].hash
		i := h & mask
		for t.slots[i] != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = h&^(1<<32-1) | uint64(k+1)
	}
}

// pathScratch is pathProblems' working memory, kept between files
// (pathScratches): a listing checks thousands of files.
type pathScratch struct {
	calls callPairs
	posOf []int32 // all zero when pooled
	// posSet: posOf holds the path (cleared when pooled).
	posSet  bool
	entries int // the file's, for posOf
	need    []int
}

var pathScratches = make(chan *pathScratch, 8)

// posOfPath returns posOf for path, filled when first asked (by a
// compaction: most paths have none): posOf[i] is entry i's position on the
// path plus one, 0 when it is not on it.
func (sc *pathScratch) posOfPath(path []int) []int32 {
	if !sc.posSet {
		sc.posSet = true
		if cap(sc.posOf) < sc.entries {
			sc.posOf = make([]int32, sc.entries)
		}
		sc.posOf = sc.posOf[:sc.entries]
		for k, j := range path {
			sc.posOf[j] = int32(k + 1)
		}
	}
	return sc.posOf
}

// maxPooledPath bounds what a pooled scratch holds (ids, entries): one
// grown by a huge file is left to the collector.
const maxPooledPath = 1 << 16

// getPathScratch returns an empty scratch sized for about calls tool
// calls, for a file of entries entries (posOfPath sizes posOf by it).
func getPathScratch(calls, entries int) *pathScratch {
	var sc *pathScratch
	select {
	case sc = <-pathScratches:
	default:
		sc = &pathScratch{}
	}
	sc.calls.reset(calls)
	sc.entries = entries
	return sc
}

func putPathScratch(sc *pathScratch) {
	if cap(sc.calls.ids.slots) > 2*maxPooledPath || cap(sc.calls.occ) > 2*maxPooledPath || cap(sc.posOf) > 16*maxPooledPath || cap(sc.need) > 16*maxPooledPath {
		return
	}
	if sc.posSet {
		clear(sc.posOf)
		sc.posSet = false
	}
	sc.calls.reset(0)
	sc.need = sc.need[:0]
	select {
	case pathScratches <- sc:
	default:
	}
}

// droppedLabelOrphans recognises pi's fork bug: a fork drops the label
// entries of the copied path but its children keep pointing at them. When
// the orphan's missing parent is a label entry in the session this one was
// forked from, the orphan's problem says so and names the label's parent.
func (f *File) droppedLabelOrphans(existing []problem.Problem) []problem.Problem {
	orphans := f.Index.Orphans()
	if len(orphans) == 0 || f.Header.ParentSession == "" {
		return nil
	}
	src := f.Header.ParentSession
	if !filepath.IsAbs(src) {
		src = filepath.Join(filepath.Dir(f.Path), src)
	}
	if _, err := os.Stat(src); err != nil {
		return nil
	}
	parent, err := Open(src, Options{Dialect: f.Dialect})
	if err != nil || parent.HeaderErr != nil {
		return nil
	}
	var ps []problem.Problem
	for _, o := range orphans {
		missing := f.Index.ParentID(o)
		j, ok := parent.Index.Lookup(missing)
		if !ok || parent.Entries[j].Type() != "label" {
			continue
		}
		lp := parent.Index.ParentID(j)
		ps = append(ps, problem.Problem{Code: CodeDroppedLabelParent, Severity: problem.Error, Line: int(f.Line(o)), ID: f.DisplayID(o),
			Message: fmt.Sprintf("parent %s was a label entry the fork dropped (pi's fork bug); its own parent is %s", displayID(missing), displayID(lp)),
			Fix:     "sessctl repair re-links it to " + displayID(lp)})
	}
	return ps
}

// BlobDir returns the blob store beside the sessions folder that holds path
// (<agent dir>/blobs for <agent dir>/sessions/…), or "".
func BlobDir(path string) string {
	dir := filepath.Dir(path)
	for {
		if filepath.Base(dir) == "sessions" {
			return filepath.Join(filepath.Dir(dir), "blobs")
		}
		up := filepath.Dir(dir)
		if up == dir {
			return ""
		}
		dir = up
	}
}

func (f *File) blobProblems(dir string) []problem.Problem {
	if dir == "" {
		dir = BlobDir(f.Path)
	}
	seen := map[blob.Hash]bool{}
	var hashes []blob.Hash
	if err := blob.ScanFile(f.Path, func(h blob.Hash) {
		if !seen[h] {
			seen[h] = true
			hashes = append(hashes, h)
		}
	}); err != nil {
		return []problem.Problem{{Code: "read-error", Severity: problem.Error, Message: err.Error()}}
	}
	if len(hashes) == 0 {
		return nil
	}
	if dir == "" {
		return []problem.Problem{{Code: CodeDanglingBlob, Severity: problem.Warning,
			Message: fmt.Sprintf("%d blob references but no blob store found beside the file", len(hashes))}}
	}
	store := blob.Store{Dir: dir}
	var ps []problem.Problem
	for _, h := range hashes {
		if _, err := os.Lstat(store.Path(h)); err == nil {
			continue
		}
		ps = append(ps, problem.Problem{Code: CodeDanglingBlob, Severity: problem.Error, ID: h.Ref(),
			Message: fmt.Sprintf("blob %s is missing from %s; the agent sends the reference text instead of the image", shortHash(h), dir),
			Fix:     "restore the blob from a backup; sessctl blob verify lists all missing blobs"})
	}
	return ps
}

func shortHash(h blob.Hash) string { return strings.TrimPrefix(h.Ref(), blob.RefPrefix)[:12] }

// listingFails says why pi 1.5.2's session list throws on a message entry's
// message (raw, nil when absent): it is not an object, or it is a user or
// assistant message whose content is neither a string nor an array.
func listingFails(m []byte) (string, bool) {
	return listingFailsOf(m, word(sub(m, "role")), sub(m, "content"))
}

// listingFailsOf is listingFails with m's role (its word) and content
// (raw) given, nil when absent or when m is not an object.
func listingFailsOf(m, role, c []byte) (string, bool) {
	if len(m) == 0 || string(m) == "null" {
		return "a message entry without a message", true
	}
	switch m[0] {
	case '[':
		return "", false
	case '{':
	default:
		return "a message entry whose message is not an object", true
	}
	if string(role) != "user" && string(role) != "assistant" {
		return "", false
	}
	if c == nil || c[0] == '"' || c[0] == '[' {
		return "", false
	}
	return fmt.Sprintf("a %s message with content %s", role, clipRaw(c)), true
}

func clipRaw(b []byte) string {
	if len(b) > 20 {
		return string(b[:20]) + "…"
	}
	return string(b)
}
