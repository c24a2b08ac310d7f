package pi

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/sessctl/sessctl/internal/problem"
	"github.com/sessctl/sessctl/internal/sessfmt"
	"github.com/sessctl/sessctl/internal/tree"
	"github.com/valyala/fastjson"
)

// ListInfoVersion changes whenever ListInfo's results change for the same
// bytes, so that caches of older results are thrown away.
const ListInfoVersion = 3

// MaxFirstMessage caps the first user message kept for listings, in bytes.
// Longer texts are cut at a rune boundary and end with "…".
const MaxFirstMessage = 16 << 10

// ListInfo is the listing summary of one pi-family session file, computed as
// pi 1.5.2's session picker computes its rows (buildSessionInfo), plus the
// problems seen on the way. Unlike pi, a file its picker fails on (a
// message whose content is null) is listed, with the problem counted.
type ListInfo struct {
	// ID is the header's id ("" when the file has no header or the id is not a string).
	ID string
	// HasHeader is true when the first parsed value (after an omp title
	// slot) is a {"type":"session"} object, which is all pi's listing asks;
	// ValidHeader additionally requires a string id, as the loader does.
	HasHeader   bool
	ValidHeader bool
	Dialect     Dialect
	Cwd         string
	// ParentSession is the header's parentSession (the fork source path).
	ParentSession string
	// Name is the display name: the latest session_info name in file order
	// (an empty name clears it, as in pi 0.73), else oh-my-pi's title (title
	// slot, last title_change, header title).
	Name string
	// FirstMessage is the text of the first user message with text (text
	// blocks joined by a space), "" when there is none.
	FirstMessage string
	// Created is the header timestamp (zero when absent or unparsable).
	Created time.Time
	// Modified is the last activity: the latest user/assistant
	// message.timestamp (else that entry's timestamp), else the header
	// timestamp, else the file's modification time.
	Modified time.Time
	// Messages is the number of "message" entries (all roles, all branches).
	Messages int
	// Entries is the number of entries after the header (title slot,
	// header, blank and unparsable lines are not entries).
	Entries int
	// Problems counts what the reader saw, by problem code: torn-tail,
	// malformed-line, nul-run, non-object-line, missing-header,
	// orphaned-parent, bom (pi 1.5.2 skips the first line behind it),
	// listing-fails (pi 1.5.2's picker throws on the file).
	Problems map[string]int

	// recheck is set when the file holds something oh-my-pi and xcsh read
	// differently from pi's line rules (bad lines, a title slot they do not
	// take as one, a second header, non-object values); ReadListInfo then
	// takes counts, header and problems from the dialect's full reader.
	recheck bool
	// heldRescan is set by the streamed scan when it cannot tell the first
	// message without holding a long line (see scanListInfo).
	heldRescan bool
	// line1 is a copy of the file's first line with its newline, kept by
	// the parallel pass (listLine) when that line is a JSON object without
	// BOM shorter than maxLine1 bytes; nil otherwise.
	line1 []byte
}

// maxLine1 bounds the first line listLine keeps for FirstLine.
const maxLine1 = 32 << 10

// FirstLine is the file's first line, newline included, when the parallel
// pass of OpenForList saw it as a JSON object line without BOM of less
// than 32 KiB; nil otherwise (and always for ReadListInfo). The caller may
// sniff it instead of reading the head of the file again.
func (li *ListInfo) FirstLine() []byte { return li.line1 }

// ProblemCount is the total number of problems.
func (li *ListInfo) ProblemCount() int {
	n := 0
	for _, c := range li.Problems {
		n += c
	}
	return n
}

// ReadListInfo opens path and computes its listing summary in one streaming
// pass. Every line is parsed (the counts, the first message, the name and
// the last activity can be anywhere in the file), but only the few fields
// the listing needs are looked at; message contents are decoded only until
// the first user text is found.
func ReadListInfo(path string) (*ListInfo, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return nil, err
	}
	li, err := scanListInfo(fh, path, true)
	if err != nil {
		return nil, err
	}
	if li.heldRescan {
		// A long first user message whose text the streamed scan cannot
		// tell without the whole line (an array of blocks): read it held.
		if _, err := fh.Seek(0, io.SeekStart); err != nil {
			return nil, err
		}
		if li, err = ScanListInfo(fh, path); err != nil {
			return nil, err
		}
	}
	if li.recheck && (li.Dialect == DialectOmp || li.Dialect == DialectXcsh) {
		if _, err := fh.Seek(0, io.SeekStart); err != nil {
			return nil, err
		}
		f, err := Read(fh, path, Options{Dialect: li.Dialect, SizeHint: st.Size()})
		if err != nil {
			return nil, err
		}
		li.fromIndex(f)
	}
	if li.Modified.IsZero() {
		li.Modified = st.ModTime()
	}
	return li, nil
}

// fromIndex replaces what the dialect's own reader sees differently: the
// entry and message counts, the header, the name and the problems. The first
// message and the last activity stay those of the line scan.
func (li *ListInfo) fromIndex(f *File) {
	li.Entries = len(f.Entries)
	li.Messages = 0
	for i := range f.Entries {
		if f.Entries[i].Type() == "message" {
			li.Messages++
		}
	}
	li.ValidHeader = f.Header != nil
	li.HasHeader = li.ValidHeader
	if f.Header != nil {
		li.ID, li.Cwd, li.ParentSession = f.Header.ID, f.Header.Cwd, f.Header.ParentSession
	}
	li.Name = f.Name
	counts := map[string]int{}
	for _, p := range f.Problems {
		switch p.Code {
		case problem.TornTail, problem.MalformedLine, problem.NULRun, problem.NonObject, problem.Orphan:
			counts[p.Code]++
		}
	}
	if f.HeaderErr != nil {
		counts[problem.MissingHeader] = 1
	}
	li.Problems = nil
	if len(counts) > 0 {
		li.Problems = counts
	}
}

// ScanListInfo computes the listing summary from r; path is a dialect hint.
// Modified stays zero when neither messages nor the header give a time
// (ReadListInfo then uses the file's modification time).
//
// Lines are classified as the jsonl reader classifies them (blank,
// malformed, torn tail, NUL run, non-object, object), but objects are not
// parsed into trees: each line is validated with a fast scanner and the few
// members the listing needs are picked out of the raw bytes.
func ScanListInfo(r io.Reader, path string) (*ListInfo, error) {
	return scanListInfo(r, path, false)
}

// longCapture is what the streamed scan of a long line keeps of a captured
// member: enough of a message's content for its first MaxFirstMessage bytes
// of text (a JSON escape is at most 6 bytes a character).
const longCapture = 8 * MaxFirstMessage

// scanListInfo is ScanListInfo; with streamLong, a line longer than
// jsonl.LongLine is validated as it is read and never held
// (jsonl.LongScanner), as the index reads it. Then li.heldRescan asks the
// caller to scan again held when such a line is the first user message and
// its content is an array cut by the capture limit.
func scanListInfo(r io.Reader, path string, streamLong bool) (*ListInfo, error) {
	st := newListState()
	br := readerPool.Get().(*bufio.Reader)
	br.Reset(r)
	defer func() { br.Reset(nil); readerPool.Put(br) }()
	ls := lineSplitter{br: br}
	var long *jsonl.LongScanner
	if streamLong {
		ls.long = jsonl.LongLine
	}
	var (
		val          validator
		contentCut   bool   // the streamed line's message content was cut to longCapture
		messageFirst []byte // the first byte of a streamed line's message value
	)
	for {
		raw, nl, err := ls.next()
		if err != nil {
			return nil, err
		}
		if raw == nil && !ls.streamed {
			break
		}
		ls.line++
		body := raw
		bom := ls.line == 1 && bytes.HasPrefix(body, jsonl.BOM)
		if bom {
			body = body[len(jsonl.BOM):]
		}
		var kind jsonl.Kind
		contentCut = false
		if ls.streamed {
			if long == nil {
				long = jsonl.NewLongScanner(listCapture, longCapture)
			}
			kind, nl, _, err = long.Scan(body, br)
			if err != nil {
				return nil, err
			}
			ls.streamed, ls.done = false, !nl
			val.top, val.msg = long.Top, long.Sub
			contentCut = long.SubClipped[mContent]
			messageFirst = append(messageFirst[:0], long.SubFirst)
			if long.SubFirst != 0 && kind == jsonl.Object {
				val.top[kMessage] = messageFirst // only its first byte is looked at
			}
		} else {
			if n := len(body); n > 0 && body[n-1] == '\r' {
				body = body[:n-1]
			}
			kind = classify(&val, body, nl)
		}
		if !st.line(ls.line, body, nl, kind, bom, val.top, val.msg, contentCut) {
			return st.li, nil
		}
	}
	return st.finish(path), nil
}

// listState is the listing scan's state between lines (scanListInfo,
// and the parallel index pass with Options.List).
type listState struct {
	li           *ListInfo
	parsedSeen   bool
	headerDone   bool
	slotTitle    string
	changeTitle  string
	headerTitle  string
	sessionName  string
	lastActivity float64
	haveActivity bool
	markers      dialectMarkers
	// ids holds the idHash of every entry's id, parents those of the
	// parentIds that are not the id of the entry before (lastID): a
	// parent is an orphan's when no id has its hash (finish).
	ids        []uint64
	parents    []uint64
	lastID     uint64
	haveLastID bool
	// pre is what the workers read of the line line is given
	// (idHashes.setListFact), when listLine has it, and preID the hash of
	// its id: then line reads none of the line's id, parent, type and
	// message bytes.
	pre        *listFact
	preID      uint64
	headerHash uint64 // the header id's idHash (an entry whose parent it is, is a root)
	firstFound bool
	problems   map[string]int
	slotSeen   bool
	slotValid  bool
	// broken: a line the parallel pass did not keep whole (listLine);
	// stopped: line returned false.
	broken, stopped bool
}

func newListState() *listState {
	st := &listState{li: &ListInfo{}, problems: map[string]int{}}
	st.ids, _ = hashBufs.get()
	st.parents, _ = hashBufs.get()
	return st
}

// line takes line n: body without BOM and without a final '\r', whether it
// had a newline, its kind, whether a BOM started it, the captured members
// (top: topKeys, msg: msgKeys; more may follow) and whether the message
// content was cut (a streamed line). It returns false when the scan must
// stop (li.heldRescan).
func (st *listState) line(n int, body []byte, nl bool, kind jsonl.Kind, bom bool, top, msg [][]byte, contentCut bool) bool {
	li, problems := st.li, st.problems
	if bom && (kind == jsonl.Object || kind == jsonl.NonObject) {
		// pi 1.5.2 does not strip the mark: JSON.parse fails on the
		// line and it is skipped (oh-my-pi and xcsh strip it: recheck).
		problems[problem.BOM]++
		li.recheck = true
		return true
	}
	switch kind {
	case jsonl.Blank:
		return true
	case jsonl.Malformed:
		problems[problem.MalformedLine]++
		li.recheck = true
		return true
	case jsonl.TornTail:
		problems[problem.TornTail]++
		li.recheck = true
		return true
	case jsonl.NULRun:
		problems[problem.NULRun]++
		li.recheck = true
		return true
	}
	if !st.headerDone {
		if kind == jsonl.Object {
			f := top
			typ, _ := jsonl.String(f[kType])
			if !st.parsedSeen && n == 1 && typ == "title" {
				st.slotTitle, _ = jsonl.String(f[kTitle])
				st.markers.omp = true
				st.slotSeen, st.slotValid = true, slotLooksValid(body, nl)
				return true
			}
			if typ == "session" {
				st.parsedSeen, st.headerDone = true, true
				li.HasHeader = true
				li.ID, li.ValidHeader = jsonl.String(f[kID])
				st.headerHash = idHash(f[kID])
				li.Cwd, _ = jsonl.String(f[kCwd])
				li.ParentSession, _ = jsonl.String(f[kParentSession])
				st.headerTitle, _ = jsonl.String(f[kTitle])
				if st.headerTitle != "" {
					st.markers.omp = true
				}
				if ts, ok := jsonl.String(f[kTimestamp]); ok {
					li.Created = parseTime(ts)
				}
				if !li.ValidHeader {
					problems[problem.MissingHeader]++ // pi lists it, but cannot open it
				}
				return true
			}
		}
		st.parsedSeen, st.headerDone = true, true
		problems[problem.MissingHeader]++
	}
	if kind == jsonl.NonObject {
		problems[problem.NonObject]++
		li.recheck = true
		li.Entries++
		return true
	}
	f := top
	var typ []byte
	if st.pre != nil && st.pre.flags&lfMessage != 0 {
		typ = wordMessage
	} else {
		typ = word(f[kType])
	}
	if string(typ) == "session" {
		li.recheck = true // oh-my-pi keeps it as an entry
		return true       // a second header: not an entry in pi
	}
	li.Entries++
	if pre := st.pre; pre != nil {
		if pre.flags&lfParent != 0 && (!st.haveLastID || pre.parent != st.lastID) {
			st.parents = append(st.parents, pre.parent)
		}
	} else if jsonl.Truthy(f[kParentID]) {
		// Most entries' parent is the entry before: that id exists.
		if p := idHash(f[kParentID]); !st.haveLastID || p != st.lastID {
			st.parents = append(st.parents, p)
		}
	}
	st.haveLastID = false
	if pre := st.pre; pre != nil && pre.flags&lfID != 0 || pre == nil && f[kID] != nil {
		if pre != nil {
			st.lastID = st.preID
		} else {
			st.lastID = idHash(f[kID])
		}
		st.haveLastID = true
		st.ids = append(st.ids, st.lastID)
	}
	switch string(typ) {
	case "message":
		var mfs msgFacts
		if st.pre != nil {
			mfs = st.pre.msg()
		} else {
			mfs = messageFacts(f[kMessage], msg)
		}
		return st.message(mfs, f, msg, contentCut)
	case "session_info":
		s, _ := jsonl.String(f[kName])
		st.sessionName = jsTrim(s)
	case "title_change":
		if s, ok := jsonl.String(f[kTitle]); ok {
			st.changeTitle = s
		}
		st.markers.omp = true
	case "context_change":
		st.markers.xcsh = true
	case "model_change":
		if f[kModel] != nil {
			st.markers.omp = true
		}
	case "ttsr_injection", "mode_change", "session_init", "service_tier_change", "mcp_tool_selection",
		"reset_boundary", "credential_pin", "model_usage", "archive":
		st.markers.omp = true
	}
	return true
}

// message is line's part for a message entry (an object line after the
// header) whose message's facts are mfs.
func (st *listState) message(mfs msgFacts, f, msg [][]byte, contentCut bool) bool {
	li := st.li
	li.Messages++
	if mfs.flags&mfObject == 0 {
		if mfs.flags&mfArray == 0 {
			st.problems[CodeListingFails]++ // pi reads `"content" in message`: it throws
		}
		return true
	}
	userOrAssistant := mfs.flags&(mfUser|mfAssistant) != 0
	if mfs.flags&mfContent != 0 && userOrAssistant && mfs.flags&(mfContentStr|mfContentArr) == 0 {
		// pi 1.5.2's listing reads content.filter: it throws and the
		// session vanishes from its list. sessctl lists it and says so.
		st.problems[CodeListingFails]++
	}
	if mfs.flags&mfContent == 0 || !userOrAssistant {
		return true
	}
	if mfs.flags&mfNumTS != 0 {
		// A time list cannot print (year 10000 is a valid JS Date) is
		// not activity: Modified falls back as when there is none.
		if x := mfs.ts; mfs.flags&mfTS != 0 && (!st.haveActivity || x > st.lastActivity) && sessfmt.PrintableMillis(x) {
			st.lastActivity, st.haveActivity = x, true
		}
	} else if s, ok := jsonl.String(f[kTimestamp]); ok {
		if t := parseTime(s); !t.IsZero() {
			x := float64(t.UnixMilli())
			if !st.haveActivity || x > st.lastActivity {
				st.lastActivity, st.haveActivity = x, true
			}
		}
	}
	if !st.firstFound && mfs.flags&mfUser != 0 {
		if contentCut {
			if mfs.flags&mfContentStr == 0 {
				li.heldRescan = true // an array: its text needs the whole line
				return false
			}
		}
		if txt := textContent(msg[mContent]); txt != "" {
			li.FirstMessage = clipText(txt, MaxFirstMessage)
			st.firstFound = true
		}
	}
	return true
}

// preMessage is line for a message object line after the header (not a
// BOM line) whose listing fact the workers read (pre, and id its id's
// hash), with its captures top and msg (nil when the workers left them
// out: then the listing reads none, needsNoCaptures).
func (st *listState) preMessage(pre *listFact, id uint64, top, msg [][]byte) bool {
	st.li.Entries++
	if pre.flags&lfParent != 0 && (!st.haveLastID || pre.parent != st.lastID) {
		st.parents = append(st.parents, pre.parent)
	}
	st.haveLastID = false
	if pre.flags&lfID != 0 {
		st.lastID, st.haveLastID = id, true
		st.ids = append(st.ids, id)
	}
	return st.message(pre.msg(), top, msg, false)
}

// finish completes the summary after the last line; path is a dialect hint.
func (st *listState) finish(path string) *ListInfo {
	li, problems := st.li, st.problems
	if !st.headerDone {
		problems[problem.MissingHeader]++
	}
	if len(st.parents) > 0 {
		// the header's id: a root (headerparent.go)
		if n := orphans(st.ids, st.parents, st.headerHash, li.ValidHeader); n > 0 {
			problems[problem.Orphan] += n
		}
	}
	for _, b := range [][]uint64{st.ids, st.parents} {
		if cap(b) <= maxHashBuf {
			hashBufs.put(b[:0])
		}
	}
	st.ids, st.parents = nil, nil
	switch {
	case st.sessionName != "":
		li.Name = st.sessionName
	case st.slotTitle != "":
		li.Name = st.slotTitle
	case st.changeTitle != "":
		li.Name = st.changeTitle
	default:
		li.Name = st.headerTitle
	}
	if t, ok := sessfmt.UnixMilli(st.lastActivity); st.haveActivity && st.lastActivity > 0 && ok {
		li.Modified = t
	} else if !li.Created.IsZero() {
		li.Modified = li.Created
	}
	li.Dialect = detectDialect("", path, &File{markers: st.markers})
	if st.slotSeen && (!st.slotValid || li.Dialect == DialectXcsh) {
		li.recheck = true // not a slot to oh-my-pi, or xcsh, which knows none
	}
	if len(problems) > 0 {
		li.Problems = problems
	}
	return li
}

// orphans counts the parents (with repeats) that are none of ids and not
// root (when hasRoot). Parents are few (those that are not the id of the
// entry before): a handful are looked for in ids, more are put in a set
// that each id marks as it is looked up there, so the table grows with
// the parents, not with the ids (a table of the ids, fresh memory for a
// large file, faulted in page by page).
func orphans(ids, parents []uint64, root uint64, hasRoot bool) int {
	n := 0
	if len(parents) <= 8 {
		for _, p := range parents {
			if !slices.Contains(ids, p) && !(hasRoot && p == root) {
				n++
			}
		}
		return n
	}
	set := newHashSet(parents)
	for _, h := range ids {
		set.mark(h)
	}
	for _, p := range parents {
		if !set.marked(p) && !(hasRoot && p == root) {
			n++
		}
	}
	set.release()
	return n
}

// hashSet is a set of id hashes (open addressing, linear probing; 0 marks
// an empty slot, so the hash 0 is kept aside), each of them marked or not:
// the listing's test of the parents against the ids.
type hashSet struct {
	tab   []uint64
	marks []bool // marks[k]: tab[k] is marked
	// zero: the hash 0 is in the set; zeroMarked: and marked.
	zero, zeroMarked bool
}

// hashSets keeps the sets' tables between files.
var hashSets = newLIFO[*hashSet](4)

func newHashSet(hs []uint64) *hashSet {
	n := 16
	for n < 2*len(hs) {
		n *= 2
	}
	s, ok := hashSets.get()
	if !ok {
		s = &hashSet{}
	}
	if cap(s.tab) >= n && cap(s.marks) >= n {
		s.tab, s.marks = s.tab[:n], s.marks[:n]
		clear(s.tab)
		clear(s.marks)
	} else {
		s.tab, s.marks = make([]uint64, n), make([]bool, n)
	}
	s.zero, s.zeroMarked = false, false
	mask := uint64(n - 1)
	for _, h := range hs {
		if h == 0 {
			s.zero = true
			continue
		}
		k := h & mask
		for s.tab[k] != 0 && s.tab[k] != h {
			k = (k + 1) & mask
		}
		s.tab[k] = h
	}
	return s
}

// slot returns where h is in s's table, or -1 when it is not there (h is
// not 0).
func (s *hashSet) slot(h uint64) int {
	mask := uint64(len(s.tab) - 1)
	for k := h & mask; s.tab[k] != 0; k = (k + 1) & mask {
		if s.tab[k] == h {
			return int(k)
		}
	}
	return -1
}

// has reports whether h is in s.
func (s *hashSet) has(h uint64) bool {
	if h == 0 {
		return s.zero
	}
	return s.slot(h) >= 0
}

// mark marks h when it is in s.
func (s *hashSet) mark(h uint64) {
	if h == 0 {
		s.zeroMarked = s.zero
	} else if k := s.slot(h); k >= 0 {
		s.marks[k] = true
	}
}

// marked reports whether h is in s and marked.
func (s *hashSet) marked(h uint64) bool {
	if h == 0 {
		return s.zeroMarked
	}
	k := s.slot(h)
	return k >= 0 && s.marks[k]
}

// release gives s's table back for the next file (s may be nil).
func (s *hashSet) release() {
	if s == nil || cap(s.tab) > 2*maxHashBuf {
		return
	}
	hashSets.put(s)
}

// hashBufs keeps listState's id hash slices between files: a listing
// scans thousands, and their ids (8 bytes an entry) were grown afresh for
// each.
var hashBufs = newLIFO[[]uint64](16)

// maxHashBuf bounds a kept slice (a million entries).
const maxHashBuf = 1 << 20

// slotLooksValid is validTitleSlot for a raw first line (parsed here: one
// short line per file).
func slotLooksValid(body []byte, newline bool) bool {
	var p fastjson.Parser
	v, err := p.ParseBytes(body)
	if err != nil {
		return false
	}
	return validTitleSlot(&jsonl.Record{Line: 1, Newline: newline, Raw: body, Kind: jsonl.Object, Value: v})
}

// classify is the jsonl reader's line classification, validating with v
// (which keeps the captured members of an object line).
func classify(v *validator, b []byte, newline bool) jsonl.Kind {
	i := 0
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	if i == len(b) {
		return jsonl.Blank
	}
	if !v.scan(b) {
		// NUL is valid nowhere in JSON, so only a line that failed can hold one.
		if bytes.IndexByte(b, 0) >= 0 {
			return jsonl.NULRun
		}
		if !newline {
			return jsonl.TornTail
		}
		return jsonl.Malformed
	}
	if b[i] != '{' {
		return jsonl.NonObject
	}
	return jsonl.Object
}

// word returns the characters of a raw JSON string without allocating when
// it has no escapes (type and role values); nil when it is not a string.
// Comparisons like string(word(x)) == "message" do not allocate either.
func word(raw []byte) []byte {
	if len(raw) < 2 || raw[0] != '"' {
		return nil
	}
	inner := raw[1 : len(raw)-1]
	if noBackslash(inner) {
		return inner
	}
	s, _ := jsonl.String(raw)
	return []byte(s)
}

// idHash is a 64-bit hash of rawKey(raw), computed without allocating when
// the id has no escapes: the index's (tree.HashString of the key), which
// the parallel pass's workers compute for every id already. Orphans are
// found by hash: two different ids would have to collide in 64 bits to
// hide one.
func idHash(raw []byte) uint64 { return tree.HashString(rawKeyView(raw)) }

// rawKey turns a raw JSON id into a map key: strings are their
// jsonl.KeyString (a lone surrogate escape is kept, so ids "\ud800" and
// "\ud801" are two keys, as they are two entries to the agent), other
// values their raw text behind a NUL, so they collide only with a string
// that starts with NUL and spells the same text (5 and "\u00005"; JavaScript
// keeps those apart). Every place that compares ids, parent ids, targets and tool
// call ids keys them so (rawKeyView, keyOf, idKey, strKey).
func rawKey(raw []byte) string {
	if s, ok := jsonl.KeyString(raw); ok {
		return s
	}
	return "\x00" + string(raw)
}

// readerPool recycles the 1 MiB read buffers: a listing reads thousands of
// files, and a fresh zeroed buffer per file costs more than small files.
var readerPool = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, jsonl.BufferSize) }}

// lineSplitter yields the physical lines of a reader without a length cap.
type lineSplitter struct {
	br       *bufio.Reader
	overflow []byte
	line     int
	done     bool
	long     int  // over this many bytes a line is left to the caller to stream (0: never)
	streamed bool // next returned only the start of a long line; its rest is unread
}

// next returns the next line without its newline, whether it had one, and
// nil at the end.
func (l *lineSplitter) next() ([]byte, bool, error) {
	if l.done {
		return nil, false, nil
	}
	if cap(l.overflow) > 4*jsonl.BufferSize {
		l.overflow = nil
	}
	line, err := l.br.ReadSlice('\n')
	if err == nil {
		return line[:len(line)-1], true, nil
	}
	if errors.Is(err, bufio.ErrBufferFull) {
		l.overflow = append(l.overflow[:0], line...)
		for {
			line, err = l.br.ReadSlice('\n')
			l.overflow = append(l.overflow, line...)
			if err == nil {
				return l.overflow[:len(l.overflow)-1], true, nil
			}
			if l.long > 0 && len(l.overflow) > l.long && errors.Is(err, bufio.ErrBufferFull) {
				l.streamed = true
				return l.overflow, false, nil
			}
			if !errors.Is(err, bufio.ErrBufferFull) {
				line = l.overflow
				break
			}
		}
	}
	l.done = true
	if !errors.Is(err, io.EOF) {
		return nil, false, err
	}
	if len(line) == 0 {
		return nil, false, nil
	}
	return line, false, nil
}

// textContent is pi's extractTextContent over a raw content value: a
// string as is, else the text of the "text" blocks joined by a space.
// encoding/json decodes lone surrogate escapes to U+FFFD, as JSON.parse
// followed by UTF-8 output shows them.
func textContent(raw []byte) string {
	if len(raw) == 0 {
		return ""
	}
	if raw[0] == '"' {
		s, ok := jsonl.String(raw)
		if !ok {
			s = stringPrefix(raw)
		}
		return s
	}
	if raw[0] != '[' {
		return ""
	}
	var parts []string
	jsonl.Elements(raw, func(b []byte) bool {
		if len(b) == 0 || b[0] != '{' {
			return true
		}
		f := jsonl.Fields(b, "type", "text")
		if t, _ := jsonl.String(f[0]); t != "text" {
			return true
		}
		switch t := f[1]; {
		case t == nil || string(t) == "null":
			parts = append(parts, "")
		case t[0] == '"':
			s, _ := jsonl.String(t)
			parts = append(parts, s)
		default:
			var x any
			if json.Unmarshal(t, &x) == nil {
				j, _ := json.Marshal(x)
				parts = append(parts, string(j))
			}
		}
		return true
	})
	return strings.Join(parts, " ")
}

// stringPrefix decodes the start of a JSON string cut short (a capture of
// longCapture bytes): up to the last whole escape. Only the first
// MaxFirstMessage bytes of it are used, far from the cut.
func stringPrefix(raw []byte) string {
	cut := 1
	for i := 1; i < len(raw); {
		w := 1
		if raw[i] == '\\' {
			w = 2
			if i+1 < len(raw) && raw[i+1] == 'u' {
				w = 6
			}
		}
		if i+w > len(raw) {
			break
		}
		i += w
		cut = i
	}
	s, _ := jsonl.String(append(raw[:cut:cut], '"'))
	return s
}

// clipText cuts s to at most n bytes at a rune boundary, adding "…".
func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }

// parseTime parses an ISO 8601 / RFC 3339 timestamp as JavaScript's Date
// does for the forms the agents write; zero when it does not parse.
func parseTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil || !sessfmt.PrintableTime(t) {
		return time.Time{} // an offset can move year 9999 to 10000: no time list can print
	}
	return t.UTC()
}

// newListStateIf is a listState when on, else nil.
func newListStateIf(on bool) *listState {
	if !on {
		return nil
	}
	return newListState()
}

// listLine feeds one record of the parallel index pass to the listing
// scan, as scanListInfo feeds a line. A line longer than a chunk was not
// kept whole: the summary is then left to ReadListInfo.
func (rd *reader) listLine(rec *jsonl.Record) {
	st := rd.list
	if st.broken || st.stopped {
		return
	}
	if rec.Streamed {
		st.broken = true
		return
	}
	if pre := st.pre; pre != nil && pre.flags&lfMessage != 0 && st.headerDone && rec.Kind == jsonl.Object && !rec.BOM {
		// A message entry (the header is behind it, so it is not line
		// 1): what line does of it, from the workers' fact.
		if !st.preMessage(pre, st.preID, rec.Top, rec.Sub) {
			st.stopped = true
		}
		return
	}
	if rec.Line == 1 && rec.Kind == jsonl.Object && !rec.BOM && rec.Newline && len(rec.Raw) > 0 && len(rec.Raw) < maxLine1 {
		st.li.line1 = append(append(make([]byte, 0, len(rec.Raw)+1), rec.Raw...), '\n')
	}
	body := rec.Body()
	if n := len(body); n > 0 && body[n-1] == '\r' {
		body = body[:n-1]
	}
	if !st.line(rec.Line, body, rec.Newline, rec.Kind, rec.BOM, rec.Top, rec.Sub, false) {
		st.stopped = true
	}
}

// listFact is what the listing scan (listState.line) reads of a line's
// parent, type and message, read by the workers of the parallel pass while
// the line is in their cache (inspect with list): the serial merge then
// reads none of these bytes again (with ParallelOptions.InPlace they are
// in the file's mapped pages, scanned a chunk ago). The id's hash is the
// index's (idHashes.h). 24 bytes: the merge reads one a line.
type listFact struct {
	parent uint64  // idHash of the parent id (lfParent)
	ts     float64 // a message line's msgFacts.ts
	mflags uint16  // and its msgFacts.flags (lfMessage)
	flags  uint8
}

// msg is the message's facts of a message line's fact.
func (lf *listFact) msg() msgFacts { return msgFacts{ts: lf.ts, flags: lf.mflags} }

const (
	lfParent  = 1 << iota // the parent id is truthy
	lfMessage             // the type is the string "message"
	lfID                  // the line has an id (its hash is the index's)
)

// msgFacts is what the listing reads of a message line's message: what
// its value is, its role, what its content is and, for a user or
// assistant message with content (the only ones whose time it reads), its
// timestamp.
type msgFacts struct {
	ts    float64 // parseNumber of the timestamp (mfTS)
	flags uint16
}

const (
	mfObject     = 1 << iota // the message is an object (then the rest is read)
	mfArray                  // the message is an array
	mfUser                   // the role is the string "user"
	mfAssistant              // or "assistant"
	mfContent                // the content is present
	mfContentStr             // it is a string
	mfContentArr             // it is an array
	mfNumTS                  // the timestamp starts as a number (user or assistant with content)
	mfTS                     // and parseNumber takes it
)

var (
	wordMessage = []byte("message")
)

// messageFacts reads the message value m of a message line and, when it
// is an object, its captured members mf (msgKeys).
func messageFacts(m []byte, mf [][]byte) msgFacts {
	rk := uint8(roleOther)
	if len(m) > 0 && m[0] == '{' {
		switch string(word(mf[mRole])) {
		case "user":
			rk = roleUser
		case "assistant":
			rk = roleAssistant
		}
	}
	return messageFactsOf(m, mf, rk)
}

// messageFactsOf is messageFacts given the role's kind (lineKeys.rk).
func messageFactsOf(m []byte, mf [][]byte, rk uint8) msgFacts {
	var r msgFacts
	switch {
	case len(m) == 0:
		return r
	case m[0] == '[':
		r.flags |= mfArray
		return r
	case m[0] != '{':
		return r
	}
	r.flags |= mfObject
	switch rk {
	case roleUser:
		r.flags |= mfUser
	case roleAssistant:
		r.flags |= mfAssistant
	default:
		if c := mf[mContent]; c != nil {
			r.flags |= mfContent
		}
		return r // the listing reads nothing else of it
	}
	c := mf[mContent]
	if c == nil {
		return r
	}
	r.flags |= mfContent
	switch c[0] {
	case '"':
		r.flags |= mfContentStr
	case '[':
		r.flags |= mfContentArr
	}
	if ts := mf[mTimestamp]; len(ts) > 0 && (ts[0] == '-' || (ts[0] >= '0' && ts[0] <= '9')) {
		r.flags |= mfNumTS
		if x, err := parseNumber(ts); err == nil {
			r.flags |= mfTS
			r.ts = x
		}
	}
	return r
}

// setListFact sets lf, zero, to the listing's fact of rec (left zero for a
// line that is not an object), given k, its keys (read by readKeys).
func (ih *idHashes) setListFact(lf *listFact, rec *jsonl.Record, k *lineKeys) {
	if rec.Kind != jsonl.Object || rec.Top == nil {
		return
	}
	var flags uint8
	if k.idRaw != nil {
		flags |= lfID
	}
	if p := k.pRaw; k.pPlain && len(p) > 2 || !k.pPlain && jsonl.Truthy(p) {
		flags |= lfParent
		switch {
		case k.pPrev:
			lf.parent = k.pH // the usual chain: the same bytes, the same hash
		case k.pPlain:
			lf.parent = tree.HashString(unsafe.String(&p[1], len(p)-2)) // idHash's
		default:
			lf.parent = idHash(p)
		}
	}
	if k.isMsg {
		flags |= lfMessage
		mf := messageFactsOf(rec.Top[kMessage], rec.Sub, k.rk)
		lf.ts, lf.mflags = mf.ts, mf.flags
	}
	lf.flags = flags
}

// parseNumber is strconv.ParseFloat(string(raw), 64) for a JSON number; an
// integer of at most 15 digits (a millisecond timestamp), which a float64
// holds exactly, is converted without it: from 8 digits on, 8 at a time.
func parseNumber(raw []byte) (float64, error) {
	n := len(raw)
	if n >= 8 && n <= 15 {
		// The last 8 digits, and the n-8 before them moved to the top of
		// a word whose lower bytes are '0' (little endian: the first
		// digit is the lowest byte).
		lo := binary.LittleEndian.Uint64(raw[n-8:])
		k := uint(n - 8)
		hi := binary.LittleEndian.Uint64(raw)<<(8*(8-k)) | 0x3030303030303030>>(8*k)
		if eightDigits(lo) && eightDigits(hi) {
			return float64(digitsValue(hi)*100000000 + digitsValue(lo)), nil
		}
		return strconv.ParseFloat(string(raw), 64)
	}
	if n > 0 && n < 8 {
		var v int64
		for _, c := range raw {
			if c < '0' || c > '9' {
				return strconv.ParseFloat(string(raw), 64)
			}
			v = v*10 + int64(c-'0')
		}
		return float64(v), nil
	}
	return strconv.ParseFloat(string(raw), 64)
}

// eightDigits reports whether the 8 bytes of w are ASCII digits: each
// byte's high nibble is 3 and adding 6 to its low one does not carry.
func eightDigits(w uint64) bool {
	const hi, three, six = 0xF0F0F0F0F0F0F0F0, 0x3030303030303030, 0x0606060606060606
	return w&hi == three && (w+six)&hi == three
}

// digitsValue is the value of the 8 ASCII digits of w, the first in its
// lowest byte (pairs, then fours, then the eight).
func digitsValue(w uint64) uint64 {
	w -= 0x3030303030303030
	w = w*10 + w>>8
	return ((w&0x000000FF000000FF)*(100+1000000<<32) + (w>>16&0x000000FF000000FF)*(1+10000<<32)) >> 32
}
