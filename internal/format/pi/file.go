// Package pi reads session files of the pi family: pi-mono, oh-my-pi (omp)
// and its fork xcsh. One streaming pass indexes the file (header, entries
// with their offsets, ids and parents, labels, problems); the context the
// agent would rebuild is then computed from the few lines on the chosen path,
// read back by offset.
package pi

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"
	"unsafe"

	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/sessctl/sessctl/internal/problem"
	"github.com/sessctl/sessctl/internal/tree"
	"github.com/valyala/fastjson"
)

// Dialect is the variant of the format, which decides how context is rebuilt.
type Dialect string

// Dialects.
const (
	DialectPi   Dialect = "pi"
	DialectOmp  Dialect = "omp"
	DialectXcsh Dialect = "xcsh"
)

// ParseDialect parses a --dialect value ("" or "auto" means detect).
func ParseDialect(s string) (Dialect, error) {
	d, _, err := ParseDialectVersion(s)
	return d, err
}

// ParseDialectVersion parses a --dialect value that may name an older pi
// release: "pi-0.73" (or "pi@0.73", "pi-0.73.1") is the pi dialect read as
// pi 0.73.1 reads it (see PiVersion).
func ParseDialectVersion(s string) (Dialect, PiVersion, error) {
	l := strings.ToLower(s)
	for _, sep := range []string{"-", "@"} {
		if rest, ok := strings.CutPrefix(l, "pi"+sep); ok {
			v, err := ParsePiVersion(rest)
			if err != nil {
				return "", "", fmt.Errorf("unknown dialect %q: %v", s, err)
			}
			return DialectPi, v, nil
		}
	}
	d, err := parseDialect(l)
	return d, PiCurrent, err
}

func parseDialect(s string) (Dialect, error) {
	switch s {
	case "", "auto":
		return "", nil
	case "pi":
		return DialectPi, nil
	case "omp", "oh-my-pi":
		return DialectOmp, nil
	case "xcsh":
		return DialectXcsh, nil
	}
	return "", fmt.Errorf("unknown dialect %q: use auto, pi, pi-0.73, omp or xcsh", s)
}

// Entry is what the index keeps of one entry: no payload, only what is
// needed to find and classify it (its line number, id and parent are in
// File.Index). It is 12 bytes: the offset and the length in 40 bits each
// (files and lines up to 1 TiB; Read refuses larger ones) and 16 bits for
// the interned (type, role) pair and two flags. It has four fields, not
// five: the compiler keeps a struct of up to four fields in registers, and
// builds a larger one in memory with a store per field and copies it with
// wider loads, which the CPU cannot forward from those stores (a load
// that waits for all older stores, the index's cache misses among them).
type Entry struct {
	offLo, nLo uint32
	hi         uint16 // the offset's bits 32-39 | the length's bits 32-39 << 8
	kf         uint16 // kind<<2 | flags
}

// maxOffset is the first offset (and length) an Entry cannot hold.
const maxOffset = 1 << 40

func newEntry(off, n int64, kind uint16, flags uint8) Entry {
	return Entry{offLo: uint32(off), nLo: uint32(n), hi: uint16(uint8(off>>32)) | uint16(uint8(n>>32))<<8, kf: kind<<2 | uint16(flags)}
}

// Offset is the byte offset of the entry's line in the file.
func (e *Entry) Offset() int64 { return int64(e.hi&0xff)<<32 | int64(e.offLo) }

// Len is the length of the entry's line in bytes, without the newline.
func (e *Entry) Len() int64 { return int64(e.hi>>8)<<32 | int64(e.nLo) }

func (e *Entry) kind() uint16 { return e.kf >> 2 }

func (e *Entry) flags() uint8 { return uint8(e.kf & 3) }

func (e *Entry) setKind(k uint16) { e.kf = k<<2 | e.kf&3 }

func (e *Entry) setFlags(fl uint8) { e.kf = e.kf&^3 | uint16(fl&3) }

// Line returns the 1-based line number of entry i.
func (f *File) Line(i int) int32 { return f.Index.Line(i) }

const (
	flagNoID   = 1 << iota // the entry has no id member
	flagNullID             // the entry's id is JSON null
)

// Type is the entry type ("" when absent or not a string).
func (e *Entry) Type() string { return kindTable()[e.kind()].typ }

// Role is message.role of message entries.
func (e *Entry) Role() string { return kindTable()[e.kind()].role }

// NoID reports whether the entry has no id member.
func (e *Entry) NoID() bool { return e.flags()&flagNoID != 0 }

// NullID reports whether the entry's id is JSON null.
func (e *Entry) NullID() bool { return e.flags()&flagNullID != 0 }

// kinds interns (type, role) pairs for all files: there are only a few dozen.
// class says which of the types the active path's rules look for the pair
// has (classOf), so that a walk over a path of a million entries tells
// them apart by a bit, not by comparing type names.
type kindPair struct {
	typ, role string
	class     uint8
}

// The kind classes (kindPair.class): the entry types the path walks of
// Check and CountMessages look for.
const (
	kcMessage       = 1 << iota // type "message"
	kcCompaction                // type "compaction"
	kcCustomMessage             // type "custom_message"
	kcBranchSummary             // type "branch_summary"
	kcContextEdit               // type "context_edit"
	kcSystem                    // a message of role "system"
	kcAssistant                 // a message of role "assistant"
	kcToolResult                // a message of role "toolResult"
)

// classOf is the class of the (type, role) pair.
func classOf(typ, role string) uint8 {
	switch typ {
	case "message":
		switch role {
		case "system":
			return kcMessage | kcSystem
		case "assistant":
			return kcMessage | kcAssistant
		case "toolResult":
			return kcMessage | kcToolResult
		}
		return kcMessage
	case "compaction":
		return kcCompaction
	case "custom_message":
		return kcCustomMessage
	case "branch_summary":
		return kcBranchSummary
	case "context_edit":
		return kcContextEdit
	}
	return 0
}

// kindClass returns the class of kind k in table kt (a kindTable() loaded
// after the entry was made, so holding its kind).
func kindClass(kt []kindPair, e *Entry) uint8 { return kt[e.kind()].class }

var (
	kindsMu sync.Mutex
	kinds   atomic.Pointer[[]kindPair]
	kindIdx = map[kindPair]uint16{}
)

func kindTable() []kindPair {
	if t := kinds.Load(); t != nil {
		return *t
	}
	return []kindPair{{}}
}

// maxKinds is the number of (type, role) pairs an Entry can tell apart.
const maxKinds = 1 << 14

// The reserved kinds. Every pair the rules look at (knownKinds) has its own
// slot from init on, so a file with thousands of exotic types cannot take
// them away from a later file. Once the table is full (16384 pairs in one
// process, never seen in practice), a new pair gets one of two reserved
// slots that match none of the known pairs: a message with an unknown
// role keeps class kcMessage, any other unknown type has class 0 (an
// unknown type, as it already was). What such a process still gets wrong
// is only what tree, show and check messages print for those entries: the
// placeholder type or role below instead of the exotic name.
const (
	kindNone         = 0 // no type (and no role)
	kindOverflow     = 1 // an unknown type beyond the full table
	kindOverflowRole = 2 // a message with an unknown role beyond the full table
	overflowTypeName = "(unknown type: type table full)"
	overflowRoleName = "(unknown role: type table full)"
)

// knownKinds are the (type, role) pairs the code tells apart (classOf,
// the Type()/Role() comparisons and the switches on a path entry's type
// in context, omp_context, treeview, checkfacts, compaction, legacy).
func knownKinds() []kindPair {
	var ks []kindPair
	for _, typ := range []string{
		"session", "message", "compaction", "branch_summary", "custom_message", "custom",
		"context_edit", "model_change", "thinking_level_change", "session_info", "label",
		"mode_change", "context_change", "profile_change", "ttsr_injection", "session_init",
		"service_tier_change", "mcp_tool_selection", "title_change", "reset_boundary",
	} {
		ks = append(ks, kindPair{typ: typ})
	}
	for _, role := range []string{
		"user", "assistant", "toolResult", "system", "custom", "hookMessage", "bashExecution",
		"pythonExecution", "fileMention", "branchSummary", "compactionSummary",
	} {
		ks = append(ks, kindPair{typ: "message", role: role})
	}
	for i := range ks {
		ks[i].class = classOf(ks[i].typ, ks[i].role)
	}
	return ks
}

// kindOf returns the index of a (type, role) pair, adding it if new; a new
// pair when the table is full gets a reserved slot (kindOverflow or, for
// a message, kindOverflowRole).
func kindOf(typ, role string) uint16 {
	k := kindPair{typ, role, classOf(typ, role)}
	kindsMu.Lock()
	defer kindsMu.Unlock()
	if i, ok := kindIdx[k]; ok {
		return i
	}
	old := kindTable()
	if len(old) >= maxKinds {
		if typ == "message" {
			return kindOverflowRole
		}
		return kindOverflow
	}
	t := append(append([]kindPair(nil), old...), k)
	i := uint16(len(t) - 1)
	kindIdx[k] = i
	kinds.Store(&t)
	return i
}

func init() {
	t := []kindPair{kindNone: {}, kindOverflow: {typ: overflowTypeName},
		kindOverflowRole: {typ: "message", role: overflowRoleName, class: kcMessage}}
	kindIdx[kindPair{}] = kindNone
	for _, k := range knownKinds() {
		kindIdx[k] = uint16(len(t))
		t = append(t, k)
	}
	kinds.Store(&t)
}

// TitleSlot is oh-my-pi's fixed-size first line holding the title.
type TitleSlot struct {
	Line  int
	Title string
	Raw   []byte
}

// Header is the session header.
type Header struct {
	Line          int
	ID            string
	Version       int // 1 when absent
	HasVersion    bool
	Timestamp     string
	Cwd           string
	ParentSession string
	Title         string
	Offset        int64
	Len           int64
}

// File is the index of one session file.
type File struct {
	Path      string
	Size      int64
	Dialect   Dialect
	Header    *Header
	HeaderErr error // why the file has no valid header (nil when it has one)
	TitleSlot *TitleSlot
	Entries   []Entry // parallel to Index.Nodes
	Index     *tree.Index
	Problems  []problem.Problem
	// Labels holds effective labels by target id (last set or clear wins).
	Labels map[string]string
	// Name is the latest session_info name (pi) or the header/slot title (omp).
	Name string
	// BlobDir is the blob store oh-my-pi and xcsh image references resolve
	// against ("" when none was given or found beside the file).
	BlobDir string
	// PiVersion is the pi release whose loader rules apply (pi dialect).
	PiVersion PiVersion
	// Legacy is set for a v1/v2 file, read as the agent's in-memory
	// migration makes it (see Legacy); edits turn its stored lines into
	// the migrated ones.
	Legacy *Legacy
	edits  []lineEdit
	// tooLarge is set when a line ends beyond what an Entry can hold.
	tooLarge bool
	// facts are what Check reads of message and compaction lines, gathered
	// by the parallel index pass when Options.Check asks (nil otherwise).
	facts *checkFacts
	// listInfo is list's summary of the stored lines, computed by the
	// parallel index pass when Options.List asks (nil otherwise, or when a
	// line was longer than a chunk).
	listInfo *ListInfo

	markers dialectMarkers
	// path is the last path activePath walked.
	path pathMemo
}

// pathMemo is a path activePath walked: the root→leaf path of leaf in
// index while it had n entries.
type pathMemo struct {
	index *tree.Index
	leaf  int
	n     int
	path  []int
	cycle bool
}

// activePath is f.Index.Path(leaf), walked once for as long as the index
// and the leaf stay the same: list's verdict walks the active path for
// Check's rules and again for CountMessages (prepare), and both take a
// few percent of a listing's time on files of a million entries. The path
// is shared: callers must not change it (appending to it is safe).
func (f *File) activePath(leaf int) ([]int, bool) {
	m := &f.path
	if m.index != nil && m.index == f.Index && m.leaf == leaf && m.n == f.Index.Len() {
		return m.path, m.cycle
	}
	// A new array each time: a path returned before may still be held.
	p, cycle := f.Index.PathInto(nil, leaf)
	p = p[:len(p):len(p)]
	*m = pathMemo{index: f.Index, leaf: leaf, n: f.Index.Len(), path: p, cycle: cycle}
	return p, cycle
}

type dialectMarkers struct {
	omp, xcsh bool
}

// Options tune Open.
type Options struct {
	Dialect Dialect // "" = detect
	// BlobDir is the blob store for oh-my-pi and xcsh image references;
	// "" uses the one beside the sessions folder (see BlobDir).
	BlobDir string
	// PiVersion picks the pi release whose loader rules apply to pi-dialect
	// files ("" = the current release).
	PiVersion PiVersion
	// SizeHint is the expected file size, used to pre-size the index (Open
	// sets it from the file).
	SizeHint int64
	// Check gathers, during the index pass, what Check reads of the
	// message and compaction lines, so that it need not read them again.
	Check bool
	// List also computes list's summary (ListInfo) in the index pass.
	List bool
}

// Open indexes the file at path.
func Open(path string, opts Options) (*File, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		return nil, fmt.Errorf("%s is a directory, not a session file", path)
	}
	opts.SizeHint = st.Size()
	f, err := Read(fh, path, opts)
	if err != nil {
		return nil, err
	}
	f.Size = st.Size()
	if err := f.applyLegacy(); err != nil {
		return nil, err
	}
	return f, nil
}

// Read indexes a session file from r. path is used for dialect detection
// and for reading lines back later.
//
// pi files are read line by line, as pi's loader does. oh-my-pi and xcsh
// parse the file as a stream of JSON values (Bun's JSONL parser): a record may
// span lines and a good value keeps its place even when garbage follows it on
// the same line. When the dialect is known before reading (given, or from the
// path) such files are read that way in one pass; when it is only recognised
// afterwards and the line-based pass met lines the two parsers may see
// differently, a seekable r is read again.
func Read(r io.Reader, path string, opts Options) (*File, error) {
	f, err := read(r, path, opts)
	if err == nil && f.tooLarge {
		return nil, fmt.Errorf("%s: a line ends beyond 1 TiB; sessctl indexes files up to 1 TiB", path)
	}
	return f, err
}

func read(r io.Reader, path string, opts Options) (*File, error) {
	d := opts.Dialect
	if d == "" {
		d = pathDialect(path)
	}
	if d == DialectOmp || d == DialectXcsh {
		return readStream(r, path, opts, d)
	}
	rd := newReader(path, opts, d)
	if err := rd.readPipelined(r); err != nil {
		return nil, err
	}
	f := rd.finish()
	if (f.Dialect == DialectOmp || f.Dialect == DialectXcsh) && rd.sensitive {
		if s, ok := r.(io.Seeker); ok {
			if _, err := s.Seek(0, io.SeekStart); err == nil {
				return readStream(r, path, opts, f.Dialect)
			}
		}
	}
	return f, nil
}

// reader builds a File from records, one at a time.
type reader struct {
	f          *File
	dialect    Dialect // known before reading, or "" (then pi rules apply while reading)
	intern     map[string]string
	parsedSeen bool
	size       int64
	// sensitive is set when a record was met that oh-my-pi or xcsh read
	// differently from pi (bad lines, a title slot, a later header, null).
	sensitive bool
	explicit  Dialect
	// valueEndLine is the line a value without newline ended on (0 if none).
	valueEndLine int
	// bomSkipped is set when the first line was left out because pi 1.5.2
	// does not parse a line that starts with a byte order mark.
	bomSkipped bool
	// parser parses, on demand, the few lines whose capture is not enough
	// (header, title slot, labels, names, model changes) in capture mode.
	parser fastjson.Parser
	// sizeHint is the file size when known (0 otherwise): the entry arrays
	// are grown to the count it predicts, not by doubling (see reserve).
	sizeHint int64
	// check is Options.Check.
	check bool
	// list is the listing scan fed by the parallel pass (Options.List).
	list *listState
	// recent caches inRaw's interned strings by a small hash of the bytes:
	// types and roles are a handful of strings met on nearly every line,
	// and comparing with one of them costs less than a map lookup.
	recent [16]string
	// kinds caches kindOf's answers (kindOf takes a lock and hashes both
	// strings), by the strings' lengths.
	kinds [16]kindCached
	// idHash is tree.HashString of the id of the record take is given,
	// when idHashOK (the parallel pass's workers computed it).
	idHash   uint64
	idHashOK bool
	// rescan scans the line of a record whose captures the workers left
	// out (restoreCaptures), with capture rescanOf.
	rescan   *jsonl.Scanner
	rescanOf *jsonl.Capture
}

// captured is what the indexing pass picks out of each line while
// validating it (jsonl capture mode): enough for every message entry, which
// is nearly all of a file, without building a tree.
var captured = &jsonl.Capture{Top: []string{"type", "id", "parentId", "message"}, Sub: "message", SubKeys: []string{"role"}}

const (
	capType = iota
	capID
	capParent
	capMessage
)

// value returns the parsed object of rec, parsing it on demand in capture
// mode. It stays valid until the next call.
func (rd *reader) value(rec *jsonl.Record) *fastjson.Value {
	if rec.Value == nil && rec.Kind == jsonl.Object {
		v, err := rd.parser.ParseBytes(rec.Body())
		if err == nil {
			rec.Value = v
		}
	}
	return rec.Value
}

func newReader(path string, opts Options, d Dialect) *reader {
	hint := 1024
	if n := opts.SizeHint / 1024; n > int64(hint) { // about 1 KB per entry in real sessions
		hint = int(min(n, 1<<22))
	}
	var index *tree.Index
	var entries []Entry
	if opts.List { // the buffers of a file listed before (Session.DoneListing)
		if lb, ok := listBufs.get(); ok {
			index, entries = lb.index, lb.entries[:0]
			index.Reset(tree.LastWins, hint)
		}
	}
	if index == nil {
		index = tree.New(tree.LastWins, hint)
	}
	if cap(entries) < hint {
		entries = make([]Entry, 0, hint)
	}
	f := &File{Path: path, Index: index, Labels: map[string]string{}, BlobDir: opts.BlobDir,
		Entries: entries, PiVersion: opts.PiVersion}
	if f.BlobDir == "" {
		f.BlobDir = BlobDir(path)
	}
	return &reader{f: f, dialect: d, intern: map[string]string{}, explicit: opts.Dialect, sizeHint: opts.SizeHint, check: opts.Check || opts.List, list: newListStateIf(opts.List)}
}

// reserve makes room for more entries when the arrays are full, sized by
// the entries per byte seen so far extrapolated to the whole file (plus an
// eighth), so that a file of uniform lines is sized once or twice instead of
// growing by a quarter at a time with a copy and a discarded array each time.
// done is the number of bytes read so far.
func (rd *reader) reserve(done int64) {
	f := rd.f
	n := len(f.Entries)
	if n < cap(f.Entries) {
		return
	}
	more := n/4 + 1024
	if rd.sizeHint > done && done > 0 {
		est := int64(float64(n) * float64(rd.sizeHint) / float64(done) * 1.125)
		est = min(est, rd.sizeHint/2+16) // a line holding an entry has at least 2 bytes and its newline
		if int(est)-n > more {
			more = int(est) - n
		}
	}
	f.Entries = slices.Grow(f.Entries, more)
	f.Index.Grow(more)
	if st := rd.list; st != nil && cap(st.ids) < cap(f.Entries) {
		// the listing keeps an id hash an entry (at most): sized as the
		// entries, not doubled copy after copy
		st.ids = slices.Grow(st.ids, cap(f.Entries)-len(st.ids))
	}
}

// inRaw interns a raw JSON string value without allocating when it is
// already known and holds no escapes ("" when raw is not a string).
func (rd *reader) inRaw(raw []byte) string {
	if n := len(raw); n >= 2 && raw[0] == '"' && noBackslash(raw[1:n-1]) {
		b := raw[1 : n-1]
		k := uint(n) & 15
		if n > 2 {
			k = (uint(n) + uint(b[0])*3 + uint(b[n-3])*5) & 15
		}
		if s := rd.recent[k]; s == string(b) {
			return s // an empty slot holds "", which is also the right answer for ""
		}
		s, ok := rd.intern[string(b)]
		if !ok {
			s = rd.in(b)
		}
		rd.recent[k] = s
		return s
	}
	t, _ := jsonl.String(raw)
	return rd.in([]byte(t))
}

func (rd *reader) in(b []byte) string {
	if s, ok := rd.intern[string(b)]; ok {
		return s
	}
	s := string(b)
	rd.intern[s] = s
	return s
}

// rawKeyView is rawKey without a copy for a string without escapes that
// is valid UTF-8 (plainKey): the result shares raw's bytes and is valid
// only while they are.
func rawKeyView(raw []byte) string {
	if n := len(raw); n > 2 && raw[0] == '"' && raw[n-1] == '"' && plainKey(raw[1:n-1]) {
		return unsafe.String(&raw[1], n-2)
	}
	return rawKey(raw)
}

// plainKey reports whether the characters b of a JSON string are their own
// key (rawKey): they hold no backslash and are valid UTF-8. It is
// noBackslash, which ORs the words (bytes) it loads to see at the end
// whether any byte is above 0x7f: only then (an id that is not ASCII) does
// it test the UTF-8 (an invalid byte is U+FFFD in the key, so that raw
// bytes ED A0 80 never equal the key of "\ud800", jsonl.KeyString).
func plainKey(b []byte) bool {
	n := len(b)
	if n > 32 {
		return bytes.IndexByte(b, '\\') < 0 && utf8.Valid(b)
	}
	const msb = 0x8080808080808080
	if n >= 8 {
		var or uint64
		for i := 0; i+8 < n; i += 8 {
			w := binary.LittleEndian.Uint64(b[i:])
			if hasBackslash(w) {
				return false
			}
			or |= w
		}
		w := binary.LittleEndian.Uint64(b[n-8:])
		return !hasBackslash(w) && ((or|w)&msb == 0 || utf8.Valid(b))
	}
	var or byte
	for _, c := range b {
		if c == '\\' {
			return false
		}
		or |= c
	}
	return or < utf8.RuneSelf || utf8.Valid(b)
}

// noBackslash reports whether b holds no backslash; the short strings of
// types, roles, ids and timestamps are tested a word at a time (a call of
// bytes.IndexByte costs more), the last word overlapping the one before.
func noBackslash(b []byte) bool {
	n := len(b)
	if n > 32 {
		return bytes.IndexByte(b, '\\') < 0
	}
	if n >= 8 {
		for i := 0; i+8 < n; i += 8 {
			if hasBackslash(binary.LittleEndian.Uint64(b[i:])) {
				return false
			}
		}
		return !hasBackslash(binary.LittleEndian.Uint64(b[n-8:]))
	}
	for _, c := range b {
		if c == '\\' {
			return false
		}
	}
	return true
}

// hasBackslash reports whether a byte of the word x is a backslash (a
// zero byte of x^'\\'...: exact, as a borrow runs only above a zero).
func hasBackslash(x uint64) bool {
	const lsb, msb = 0x0101010101010101, 0x8080808080808080
	x ^= lsb * '\\'
	return (x-lsb)&^x&msb != 0
}

// kindCached is one of reader.kinds.
type kindCached struct {
	typ, role string
	kind      uint16
	ok        bool
}

// kindOf is the package's kindOf through a cache: typ and role are most
// often the same interned strings, whose comparison is a pointer test.
func (rd *reader) kindOf(typ, role string) uint16 {
	c := &rd.kinds[(len(typ)*7+len(role))&15]
	if c.ok && c.typ == typ && c.role == role {
		return c.kind
	}
	k := kindOf(typ, role)
	*c = kindCached{typ, role, k, true}
	return k
}

// take adds one record.
func (rd *reader) take(rec *jsonl.Record) {
	f := rd.f
	rd.size = rec.Offset + rec.Len()
	if rd.size >= maxOffset {
		f.tooLarge = true
		return
	}
	if rec.BOM {
		if rd.bomHidesLine(rec) {
			return
		}
		f.add(problem.Problem{Code: problem.BOM, Severity: problem.Warning, Line: rec.Line,
			Message: "file starts with a UTF-8 byte order mark", Fix: "sessctl repair removes it"})
	}
	switch rec.Kind {
	case jsonl.Blank:
		return
	case jsonl.Malformed:
		rd.sensitive = true
		msg := "line is not valid JSON; the agent skips it"
		if rec.Line == rd.valueEndLine {
			// Only the value scanner splits a line: a value, then garbage.
			msg = "text after the JSON value on this line; the agent keeps the value and drops the rest of the line"
		}
		f.add(problem.Problem{Code: problem.MalformedLine, Severity: problem.Error, Line: rec.Line,
			Message: msg, Fix: "sessctl repair moves it to a .rejected.jsonl sidecar"})
		return
	case jsonl.TornTail:
		rd.sensitive = true
		f.add(problem.Problem{Code: problem.TornTail, Severity: problem.Error, Line: rec.Line,
			Message: fmt.Sprintf("last line is cut off (%d bytes, no newline); the agent drops it", rec.Len()),
			Fix:     "sessctl repair moves it to a .rejected.jsonl sidecar"})
		return
	case jsonl.NULRun:
		rd.sensitive = true
		f.add(problem.Problem{Code: problem.NULRun, Severity: problem.Error, Line: rec.Line,
			Message: "line contains NUL bytes (zero-filled after a crash?); the agent skips it", Fix: "sessctl repair removes the NUL bytes"})
		return
	}
	if !rec.Newline {
		rd.valueEndLine = rec.Line + bytes.Count(rec.Raw, []byte("\n"))
	}
	ompFamily := rd.dialect == DialectOmp || rd.dialect == DialectXcsh
	// A parsed value (object or not).
	if f.Header == nil && f.HeaderErr == nil {
		rd.value(rec)
		if !rd.parsedSeen && rec.Line == 1 && rec.Kind == jsonl.Object && rec.Str("type") == "title" {
			rd.sensitive = true
			slot := true
			switch rd.dialect {
			case DialectXcsh:
				slot = false // O14 knows no title slot: the line is entries[0]
			case DialectOmp:
				slot = validTitleSlot(rec)
			}
			if slot {
				f.TitleSlot = &TitleSlot{Line: rec.Line, Title: rec.Str("title"), Raw: append([]byte(nil), rec.Raw...)}
				f.markers.omp = true
				return
			}
		}
		rd.parsedSeen = true
		if h, err := parseHeader(rec); err != nil {
			if rd.dialect == DialectXcsh && rec.Line == 1 && rec.Str("type") == "title" {
				err = fmt.Errorf("an oh-my-pi title slot, which xcsh does not know: it finds no session header (and would replace the file with a new one)")
			}
			f.HeaderErr = fmt.Errorf("line %d: %w", rec.Line, err)
			if rd.bomSkipped {
				// The BOM problem already says why and how to fix it.
				f.HeaderErr = fmt.Errorf("line 1 starts with a UTF-8 byte order mark, so pi does not read it; the first line it reads (line %d) is not a session header", rec.Line)
			} else {
				f.add(problem.Problem{Code: problem.MissingHeader, Severity: problem.Error, Line: rec.Line,
					Message: "no valid session header: " + err.Error(),
					Fix:     "sessctl repair --rebuild-header rebuilds it from the file name"})
			}
		} else {
			f.Header = h
			if h.Title != "" {
				f.markers.omp = true
			}
			return
		}
	}
	if rec.Kind == jsonl.NonObject {
		isNull := string(bytes.TrimSpace(rec.Body())) == "null"
		if isNull {
			rd.sensitive = true
		}
		if isNull && ompFamily && f.HeaderErr == nil {
			f.HeaderErr = fmt.Errorf("line %d holds JSON null: %s fails to load the file (null is not an object)", rec.Line, rd.dialect)
			f.add(problem.Problem{Code: problem.NonObject, Severity: problem.Error, Line: rec.Line,
				Message: fmt.Sprintf("line holds a JSON null; %s cannot open the file", rd.dialect),
				Fix:     "sessctl repair moves it to a .rejected.jsonl sidecar"})
		} else {
			f.add(problem.Problem{Code: problem.NonObject, Severity: problem.Error, Line: rec.Line,
				Message: fmt.Sprintf("line holds a JSON %s, not an object; the agent keeps it as an entry without id", nonObjectName(rec.Body())),
				Fix:     "sessctl repair moves it to a .rejected.jsonl sidecar"})
		}
		rd.reserve(rec.Offset)
		f.addEntry(newEntry(rec.Offset, rec.Len(), 0, flagNoID), int32(rec.Line), noIDKey, "", false)
		return
	}
	var typ, id, parent, role string
	var hasID, nullID, hasParent bool
	hashed := false // id's hash is rd.idHash
	if rec.Value == nil && rec.Top != nil {
		// capture mode: the fast path
		hashed = rd.idHashOK
		typ = rd.inRaw(rec.Top[capType])
		// id and parent are views of rec's bytes (addEntry copies them).
		if raw := rec.Top[capID]; raw != nil {
			id, hasID, nullID = rawKeyView(raw), true, string(raw) == "null"
		}
		if raw := rec.Top[capParent]; raw != nil && jsonl.Truthy(raw) {
			parent, hasParent = rawKeyView(raw), true
		}
		if typ == "message" {
			role = rd.inRaw(rec.Sub[0])
		}
	} else {
		v := rec.Value
		typ = rd.in(strBytes(jsonl.Get(v, "type")))
		idv := jsonl.Get(v, "id")
		id, hasID = keyOf(rec, v, "id")
		nullID = idv != nil && idv.Type() == fastjson.TypeNull
		parent, hasParent = keyOf(rec, v, "parentId")
		if hasParent {
			hasParent = truthyValue(jsonl.Get(v, "parentId"))
		}
		if m := jsonl.Get(v, "message"); m != nil && typ == "message" {
			role = rd.in(strBytes(jsonl.Get(m, "role")))
		}
	}
	if typ == "session" {
		rd.sensitive = true
		if rd.dialect != DialectOmp {
			f.add(problem.Problem{Code: problem.ExtraHeader, Severity: problem.Warning, Line: rec.Line,
				Message: "a second session header; the agent ignores it"})
			return
		}
		f.add(problem.Problem{Code: problem.ExtraHeader, Severity: problem.Warning, Line: rec.Line,
			Message: "a second session header; oh-my-pi keeps it as an entry (the last one in the file becomes the resume point)"})
	}
	var flags uint8
	if nullID {
		flags |= flagNullID
	}
	if !hasID {
		flags |= flagNoID
		id = noIDKey
	}
	e := newEntry(rec.Offset, rec.Len(), rd.kindOf(typ, role), flags)
	var v *fastjson.Value
	switch typ {
	case "message":
	case "label", "session_info", "model_change":
		v = rd.value(rec)
	}
	switch typ {
	case "label":
		target, _ := keyOf(rec, v, "targetId")
		if lv := jsonl.Get(v, "label"); lv != nil && truthyValue(lv) {
			if s, ok := valueString(lv); ok {
				f.Labels[target] = s
			} else {
				f.Labels[target] = string(lv.MarshalTo(nil))
			}
		} else {
			delete(f.Labels, target)
		}
	case "session_info":
		// The latest session_info wins; an empty or absent name clears it.
		s, _ := valueString(jsonl.Get(v, "name"))
		f.Name = jsTrim(s)
	case "context_change", "profile_change":
		f.markers.xcsh = true
	case "model_change":
		if jsonl.Get(v, "model") != nil {
			f.markers.omp = true
		}
	case "ttsr_injection", "mode_change", "session_init", "service_tier_change", "mcp_tool_selection",
		"title_change", "reset_boundary", "credential_pin", "model_usage", "archive":
		f.markers.omp = true
	}
	rd.reserve(rec.Offset)
	if hashed {
		f.addEntryHashed(e, int32(rec.Line), id, parent, hasParent, rd.idHash)
		return
	}
	f.addEntry(e, int32(rec.Line), id, parent, hasParent)
}

// finish completes the index after the last record.
func (rd *reader) finish() *File {
	f := rd.f
	f.Size = rd.size
	if f.Header == nil && f.HeaderErr == nil {
		sev := problem.Error
		switch {
		case rd.bomSkipped:
			f.HeaderErr = fmt.Errorf("line 1 starts with a UTF-8 byte order mark, so pi does not read it, and no session header follows")
		case rd.parsedSeen || f.TitleSlot != nil:
			f.HeaderErr = fmt.Errorf("no session header line")
		case rd.size == 0 && !rd.bomSkipped:
			// pi opens an empty file as a new session (it writes a header).
			f.HeaderErr = fmt.Errorf("the file is empty")
			sev = problem.Info
		default:
			f.HeaderErr = fmt.Errorf("the file holds no JSON lines")
		}
		if !rd.bomSkipped {
			f.add(problem.Problem{Code: problem.MissingHeader, Severity: sev,
				Message: "no valid session header: " + f.HeaderErr.Error()})
		}
	}
	explicit := rd.explicit
	if explicit == "" {
		explicit = rd.dialect
	}
	f.Dialect = detectDialect(explicit, f.Path, f)
	if f.Dialect == DialectOmp && f.TitleSlot != nil && f.Header != nil {
		// oh-my-pi folds the slot into the header: an empty slot title
		// deletes the header's title.
		f.Header.Title = f.TitleSlot.Title
		f.Name = f.TitleSlot.Title
	} else {
		if f.Name == "" && f.Header != nil && f.Header.Title != "" {
			f.Name = f.Header.Title
		}
		if f.TitleSlot != nil && f.TitleSlot.Title != "" {
			f.Name = f.TitleSlot.Title
		}
	}
	f.Index.Finish()
	f.structuralProblems()
	return f
}

const noIDKey = "\x00no-id"

func (f *File) add(p problem.Problem) { f.Problems = append(f.Problems, p) }

// addEntry appends an entry; id and parent may share a record's bytes
// (tree.Index.Add copies them).
func (f *File) addEntry(e Entry, line int32, id, parent string, hasParent bool) {
	if !hasParent {
		parent = "" // null, "", 0 and false are no parent (JavaScript truthiness)
	}

	f.Entries = append(f.Entries, e)
	f.Index.Add(tree.Node{ID: id, Parent: parent, HasParent: hasParent, Line: line})
}

// addEntryHashed is addEntry with h = tree.HashString(id) given.
func (f *File) addEntryHashed(e Entry, line int32, id, parent string, hasParent bool, h uint64) {
	if !hasParent {
		parent = ""
	}
	f.Entries = append(f.Entries, e)
	f.Index.AddHashed(tree.Node{ID: id, Parent: parent, HasParent: hasParent, Line: line}, h)
}

func parseHeader(rec *jsonl.Record) (*Header, error) {
	if rec.Kind != jsonl.Object {
		return nil, fmt.Errorf("first JSON value is a %s, not a session header", nonObjectName(rec.Body()))
	}
	v := rec.Value
	if t := rec.Str("type"); t != "session" {
		if t == "" {
			return nil, fmt.Errorf("first JSON object has no type; expected a {\"type\":\"session\"} header")
		}
		return nil, fmt.Errorf("first JSON object has type %q; expected a {\"type\":\"session\"} header", t)
	}
	id, ok := rec.StrOK("id")
	if !ok {
		return nil, fmt.Errorf("session header has no string id")
	}
	h := &Header{Line: rec.Line, ID: id, Version: 1, Offset: rec.Offset, Len: rec.Len()}
	if vv := jsonl.Get(v, "version"); vv != nil && vv.Type() == fastjson.TypeNumber {
		h.Version = vv.GetInt()
		h.HasVersion = true
	}
	h.Timestamp = rec.Str("timestamp")
	h.Cwd = rec.Str("cwd")
	h.ParentSession = rec.Str("parentSession")
	h.Title = rec.Str("title")
	return h, nil
}

func nonObjectName(b []byte) string {
	b = []byte(strings.TrimSpace(string(b)))
	if len(b) == 0 {
		return "value"
	}
	switch b[0] {
	case '[':
		return "array"
	case '"':
		return "string"
	case 'n':
		return "null"
	case 't', 'f':
		return "boolean"
	case '{':
		return "object"
	}
	return "number"
}

// keyOf is the key (rawKey) of member name of the object line rec, whose
// parsed value is v, and whether it is there. It reads the raw member from
// the line: fastjson decodes a lone surrogate escape as its six
// characters. A record without its bytes (a streamed long line) falls back
// to v.
func keyOf(rec *jsonl.Record, v *fastjson.Value, name string) (string, bool) {
	x := jsonl.Get(v, name)
	if rec.Raw == nil || x == nil {
		return key(x)
	}
	if x.Type() == fastjson.TypeString {
		b, _ := x.StringBytes()
		if k, ok := jsonl.ParsedKey(b); ok {
			return k, true
		}
	}
	raw, ok := jsonl.Field(rec.Body(), name)
	if !ok {
		return "", false
	}
	return rawKey(raw), true
}

// key turns a JSON value used as an id into a map key (keyOf without the
// line's bytes). Strings are their decoded value (fastjson's: a lone
// surrogate escape stays its six characters); other values get a prefixed
// raw form so they never collide with one.
func key(v *fastjson.Value) (string, bool) {
	if v == nil {
		return "", false
	}
	if v.Type() == fastjson.TypeString {
		b, _ := v.StringBytes()
		return string(b), true
	}
	return "\x00" + string(v.MarshalTo(nil)), true
}

func strBytes(v *fastjson.Value) []byte {
	if v == nil || v.Type() != fastjson.TypeString {
		return nil
	}
	b, _ := v.StringBytes()
	return b
}

func valueString(v *fastjson.Value) (string, bool) {
	if v == nil || v.Type() != fastjson.TypeString {
		return "", false
	}
	b, _ := v.StringBytes()
	return string(b), true
}

func truthyValue(v *fastjson.Value) bool {
	if v == nil {
		return false
	}
	switch v.Type() {
	case fastjson.TypeNull, fastjson.TypeFalse:
		return false
	case fastjson.TypeString:
		b, _ := v.StringBytes()
		return len(b) > 0
	case fastjson.TypeNumber:
		return v.GetFloat64() != 0
	}
	return true
}

func detectDialect(explicit Dialect, path string, f *File) Dialect {
	if explicit != "" {
		return explicit
	}
	if d := pathDialect(path); d != "" {
		return d
	}
	switch {
	case f.markers.xcsh:
		return DialectXcsh
	case f.markers.omp:
		return DialectOmp
	}
	return DialectPi
}

// pathDialect recognises the agents' own session folders, or returns "".
func pathDialect(path string) Dialect {
	p := "/" + strings.ReplaceAll(path, "\\", "/")
	switch {
	case strings.Contains(p, "/.xcsh/"):
		return DialectXcsh
	case strings.Contains(p, "/.omp/"), strings.Contains(p, "/omp/sessions/"):
		return DialectOmp
	}
	return ""
}

// structuralProblems adds the tree-level findings.
func (f *File) structuralProblems() {
	x := f.Index
	if dups := x.Duplicates(); len(dups) > 0 {
		// The lines of every duplicated id in one pass over the nodes.
		lines := make(map[string][]string, len(dups))
		for _, id := range dups {
			if id != noIDKey {
				lines[id] = nil
			}
		}
		for i := range x.Len() {
			if l, ok := lines[x.ID(i)]; ok {
				lines[x.ID(i)] = append(l, fmt.Sprint(x.Line(i)))
			}
		}
		for _, id := range dups {
			if id == noIDKey {
				continue
			}
			l := lines[id]
			first, _ := strconv.Atoi(l[0])
			f.add(problem.Problem{Code: problem.DuplicateID, Severity: problem.Error, Line: first, ID: displayID(id),
				Message: fmt.Sprintf("id %s is used by lines %s; the agent keeps only the last", displayID(id), strings.Join(l, ", ")),
				Fix:     "sessctl repair gives the earlier entries fresh ids"})
		}
	}
	noID := 0
	for i := range f.Entries {
		if f.Entries[i].NoID() && f.Entries[i].Type() != "" {
			noID++
			if noID <= 20 {
				f.add(problem.Problem{Code: problem.MissingID, Severity: problem.Error, Line: int(f.Line(i)),
					Message: fmt.Sprintf("%s entry has no id", f.Entries[i].Type())})
			}
		}
	}
	for _, i := range x.SelfParents() {
		f.add(problem.Problem{Code: problem.SelfParent, Severity: problem.Error, Line: int(x.Line(i)), ID: displayID(x.ID(i)),
			Message: "entry is its own parent; the agent loops forever on this branch", Fix: "sessctl repair re-links it"})
	}
	for _, c := range x.Cycles() {
		ids := make([]string, len(c))
		for k, n := range c {
			ids[k] = displayID(x.ID(n))
		}
		f.add(problem.Problem{Code: problem.Cycle, Severity: problem.Error, Line: int(x.Line(c[0])), ID: ids[0],
			Message: "parent cycle " + strings.Join(ids, " → ") + " → " + ids[0] + "; the agent loops forever on this branch",
			Fix:     "sessctl repair breaks it"})
	}
	f.headerParentNote()
	for _, i := range f.Orphans() {
		f.add(problem.Problem{Code: problem.Orphan, Severity: problem.Error, Line: int(x.Line(i)), ID: displayID(x.ID(i)),
			Message: fmt.Sprintf("parent %s does not exist; history above this entry is lost to the agent", displayID(x.ParentID(i))),
			Fix:     "sessctl repair re-links it"})
	}
	if n, second := x.CountRoots(); n > 1 {
		f.add(problem.Problem{Code: problem.SeveralRoots, Severity: problem.Info, Line: int(x.Line(second)),
			Message: fmt.Sprintf("%d roots (new conversation trees in one file are normal)", n)})
	}
}

// displayID renders an id key for people.
func displayID(k string) string {
	if k == noIDKey {
		return "(no id)"
	}
	if strings.HasPrefix(k, "\x00") {
		return k[1:]
	}
	return k
}

// DisplayID renders the id of entry i for people.
func (f *File) DisplayID(i int) string { return displayID(f.Index.ID(i)) }

// ReadLines reads the raw lines of the given entries (without newline).
func (f *File) ReadLines(idx []int) ([][]byte, error) {
	fh, err := os.Open(f.Path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	out := make([][]byte, len(idx))
	for k, i := range idx {
		e := f.Entries[i]
		b, err := jsonl.ReadLineAt(fh, e.Offset(), e.Len())
		if err != nil {
			return nil, err
		}
		if f.edits != nil {
			var buf []byte
			b = f.legacyLine(i, b, &buf)
		}
		out[k] = b
	}
	return out, nil
}

// FindEntry resolves an id or a unique id prefix to an entry number.
func (f *File) FindEntry(s string) (int, error) {
	if i, ok := f.Index.Lookup(s); ok {
		return i, nil
	}
	var hits []int
	seen := map[string]bool{}
	for i := range f.Index.Len() {
		if id := f.Index.ID(i); strings.HasPrefix(id, s) && !seen[id] {
			seen[id] = true
			hits = append(hits, i)
		}
	}
	switch len(hits) {
	case 0:
		return 0, fmt.Errorf("no entry with id or id prefix %q", s)
	case 1:
		i, _ := f.Index.Lookup(f.Index.ID(hits[0]))
		return i, nil
	}
	var ids []string
	for _, h := range hits {
		if len(ids) == 10 {
			ids = append(ids, "…")
			break
		}
		ids = append(ids, displayID(f.Index.ID(h)))
	}
	return 0, fmt.Errorf("id prefix %q is ambiguous: %s", s, strings.Join(ids, ", "))
}
