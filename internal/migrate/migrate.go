// Package migrate brings pi-family session files (pi, oh-my-pi, xcsh,
// OpenClaw transcripts) from format version 1 or 2 to version 3 exactly as
// the agents' migrateToCurrentVersion does (pi-format.md §3; verified
// against @mariozechner/pi-coding-agent 0.73.1 with the fixtures in
// testdata/pi/migrate), while keeping every byte that needs no change.
//
// What changes, as in pi:
//   - The version is header.version ?? 1, compared like JavaScript (a
//     numeric string counts as its number; a value that is not comparable,
//     e.g. "abc", means no migration). ≥ 3: nothing to do.
//   - v1→v2 (version < 2): walking the parsed entries in file order, every
//     object whose type is not "session" gets "id" (8 fresh lowercase hex
//     digits) and "parentId" (the previous such entry's new id; the first
//     gets null): one linear chain in file order. A compaction whose
//     "firstKeptEntryIndex" is a JSON number loses that key; the index
//     counts parsed entries (blank and unparseable lines are not counted),
//     with the header at 0. If the indexed entry is truthy and not a session
//     entry, "firstKeptEntryId" is set to its id at that moment: the new id
//     for an entry at or before the compaction, the id the v1 line already
//     carried for a later entry (pi then overwrites that id, so the
//     reference dangles — reproduced, and reported), and no key at all
//     (an existing one is removed, as JavaScript's undefined is not
//     serialized) when the later entry had no id. Index 0, a negative,
//     fractional or out-of-range index sets nothing. A non-number index is
//     left in place.
//   - v2→v3 (version < 3): "message" entries whose message.role is
//     "hookMessage" get "custom".
//   - Every object with type "session" gets "version": 3 (in place if the
//     key exists, else appended).
//   - New keys are appended at the end of their object, in the order
//     JavaScript adds them ("id", "parentId", "firstKeptEntryId"); existing
//     keys are replaced in place.
//
// Where sessctl differs from pi, on purpose:
//   - Lines that are blank or not JSON are kept byte for byte (pi drops them
//     when it rewrites the file); they are the repair command's business.
//   - JSON values that are not objects (42, "x", null, [..]) are kept byte
//     for byte, count as entries for firstKeptEntryIndex, and get no id
//     (pi throws "Cannot create property 'id' on number" for primitives and
//     so cannot open such a v1 file at all).
//   - New ids are checked against every id already in the file and every id
//     generated so far (pi's generateId is handed an empty set, so it never
//     checks); after 100 collisions a full UUID is used, as in pi.
//   - The file must start (after blank or unparseable lines, and an omp
//     title slot) with a session header that has a string id, else
//     ErrNoHeader: pi would refuse such a file, and older pi would replace
//     it with a bare header.
//
// The API is two passes over the lines in file order, so a caller can stream
// a file of any size: Observe every line, then Plan, then Line for every
// line. Memory grows with the number of entries, not with their size.
// Lines are passed with or without their trailing "\n"; it is preserved.
package migrate

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/google/uuid"
	"github.com/sessctl/sessctl/internal/jsonedit"
)

// CurrentVersion is the session format version this package migrates to.
const CurrentVersion = 3

// ErrNoHeader means the first parsed line is not a session header with a
// string id, so the file is not migrated.
var ErrNoHeader = errors.New("not a pi session file: the first JSON line is not a session header with a string id")

// Options tune a Migrator.
type Options struct {
	// NewID returns a candidate entry id; nil means 8 lowercase hex digits
	// from crypto/rand (the shape of pi's randomUUID().slice(0, 8)).
	NewID func() string
}

// Summary reports what a migration did (or, before Line is called, what
// Plan found).
type Summary struct {
	// FromVersion is header.version ?? 1 when it is an integer, else 0
	// (see VersionRaw).
	FromVersion int `json:"from_version"`
	// VersionRaw is the header's raw version value when it is not a plain
	// integer (e.g. "\"2\"", "2.5", "\"abc\"").
	VersionRaw string `json:"version_raw,omitempty"`
	ToVersion  int    `json:"to_version"`
	// Needed is true when the file is below version 3 and will change.
	Needed bool `json:"needed"`

	Lines         int `json:"lines"`
	LinesChanged  int `json:"lines_changed"`
	EntriesReIDed int `json:"entries_reided"`
	// CompactionsMapped: firstKeptEntryIndex became the firstKeptEntryId of
	// an entry at or before the compaction.
	CompactionsMapped int `json:"compactions_mapped"`
	// CompactionsUnmapped: the index was removed without a usable target
	// (header, out of range, fractional, a later entry without an id).
	CompactionsUnmapped int `json:"compactions_unmapped"`
	// CompactionsDangling: the index named a later line that carried an
	// old id; firstKeptEntryId now names that overwritten id (as in pi).
	CompactionsDangling int `json:"compactions_dangling"`
	// IndexKept: a non-number firstKeptEntryIndex left as it was.
	IndexKept      int `json:"index_kept"`
	RolesRenamed   int `json:"roles_renamed"`
	HeadersUpdated int `json:"headers_updated"`
	// KeptUnparsed counts non-blank lines that are not JSON (kept as is).
	KeptUnparsed int `json:"kept_unparsed"`
	// KeptNonObject counts JSON lines that are not objects (kept as is).
	KeptNonObject       int      `json:"kept_non_object"`
	IDCollisionsAvoided int      `json:"id_collisions_avoided"`
	Warnings            []string `json:"warnings,omitempty"`
}

// entryInfo is what pass 1 keeps per parsed entry.
type entryInfo struct {
	object  bool
	session bool
	truthy  bool
	oldID   []byte // raw "id" value of the original line, nil if absent
}

// Migrator runs the two passes.
type Migrator struct {
	opts Options

	// pass 1
	observed   int // physical lines
	seenFirst  bool
	entries    []entryInfo
	header     int // physical line of the header, -1 if none
	headerErr  error
	versionRaw []byte
	hasVersion bool
	existing   map[string]bool
	planned    bool

	// decisions
	v1to2, v2to3 bool

	// pass 2
	line    int
	entry   int
	prevID  []byte // raw JSON of the previous entry's new id ("null" at start)
	newIDs  map[int][]byte
	sum     Summary
	started bool
}

// New returns a Migrator.
func New(opts Options) *Migrator {
	return &Migrator{opts: opts, header: -1, existing: map[string]bool{}, newIDs: map[int][]byte{}}
}

// classified is how pi's loader sees a physical line.
type classified struct {
	body   []byte // the line minus a leading BOM (kept in offset)
	offset int
	parsed bool             // JSON.parse succeeds
	blank  bool             // only whitespace
	obj    *jsonedit.Editor // non-nil for an object
}

// classify parses one physical line (validating it once). first says
// whether no non-blank line came before: pi trims the whole content first,
// which strips a BOM at the start of the file.
func classify(line []byte, first bool) classified {
	c := classified{body: line}
	if first && bytes.HasPrefix(line, []byte("\xef\xbb\xbf")) {
		c.body, c.offset = line[3:], 3
	}
	switch firstByte(c.body) {
	case 0:
		c.blank = true
	case '{':
		if e, err := jsonedit.NewEditor(c.body); err == nil {
			c.parsed, c.obj = true, e
		}
	default:
		c.parsed = json.Valid(c.body)
	}
	return c
}

func firstByte(b []byte) byte {
	t := bytes.TrimLeft(b, " \t\r\n")
	if len(t) == 0 {
		return 0
	}
	return t[0]
}

// truthyValue is JavaScript truthiness of a parsed non-object JSON value.
func truthyValue(b []byte) bool {
	t := bytes.TrimSpace(b)
	switch {
	case len(t) == 0:
		return false
	case string(t) == "null", string(t) == "false", string(t) == `""`:
		return false
	case t[0] == '[':
		return true
	case t[0] == '"':
		var s string
		json.Unmarshal(t, &s)
		return s != ""
	case t[0] == 't':
		return true
	}
	f, err := strconv.ParseFloat(string(t), 64)
	return err != nil || (f != 0 && !math.IsNaN(f))
}

func isTitleSlot(e *jsonedit.Editor) bool {
	typ, _ := e.String("type")
	v, ok := e.Get("v")
	return typ == "title" && ok && string(v) == "1"
}

// Observe is pass 1: call it for every line, in file order.
func (m *Migrator) Observe(line []byte) error {
	if m.planned {
		return errors.New("migrate: Observe after Plan")
	}
	m.observed++
	c := classify(line, !m.seenFirst)
	if !c.blank {
		m.seenFirst = true
	}
	if !c.parsed {
		return nil
	}
	isObj := c.obj != nil
	info := entryInfo{object: isObj}
	if isObj {
		typ, _ := c.obj.String("type")
		if len(m.entries) == 0 && typ == "title" && isTitleSlot(c.obj) {
			// omp ≥ 16.3 title slot: peeled off before parsing.
			return nil
		}
		info.session = typ == "session"
		info.truthy = true
		if raw, ok := c.obj.Get("id"); ok {
			info.oldID = append([]byte(nil), raw...)
			var s string
			if json.Unmarshal(raw, &s) == nil {
				m.existing[s] = true
			}
		}
	} else {
		info.truthy = truthyValue(c.body)
	}
	if len(m.entries) == 0 {
		// The first parsed value must be the header.
		if !isObj || !info.session || info.oldID == nil || info.oldID[0] != '"' {
			m.headerErr = ErrNoHeader
		} else {
			m.header = m.observed - 1
			v, ok := c.obj.Get("version")
			m.versionRaw, m.hasVersion = append([]byte(nil), v...), ok
		}
	}
	m.entries = append(m.entries, info)
	return nil
}

// jsNumber converts a raw JSON value to a number as JavaScript's relational
// operators do; ok=false means NaN.
func jsNumber(raw []byte) (float64, bool) {
	t := bytes.TrimSpace(raw)
	switch {
	case len(t) == 0 || string(t) == "null":
		return 1, true // version ?? 1 (null is nullish)
	case string(t) == "true":
		return 1, true
	case string(t) == "false":
		return 0, true
	case t[0] == '"':
		var s string
		if json.Unmarshal(t, &s) != nil {
			return 0, false
		}
		s = strings.TrimSpace(s)
		if s == "" {
			return 0, true
		}
		if strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X") {
			n, err := strconv.ParseUint(s[2:], 16, 64)
			return float64(n), err == nil
		}
		if s == "Infinity" || s == "+Infinity" {
			return math.Inf(1), true
		}
		if s == "-Infinity" {
			return math.Inf(-1), true
		}
		if strings.ContainsAny(s, "xXpP_") || strings.EqualFold(s, "nan") || strings.EqualFold(s, "inf") || strings.EqualFold(s, "infinity") {
			return 0, false
		}
		f, err := strconv.ParseFloat(s, 64)
		return f, err == nil
	case t[0] == '{' || t[0] == '[':
		return 0, false
	}
	f, err := strconv.ParseFloat(string(t), 64)
	return f, err == nil
}

// Plan ends pass 1 and decides what to do. It returns ErrNoHeader for a
// file without a valid header (nothing will change).
func (m *Migrator) Plan() (Summary, error) {
	m.planned = true
	m.sum.Lines = m.observed
	if m.headerErr != nil || m.header < 0 {
		return m.sum, ErrNoHeader
	}
	v := 1.0
	ok := true
	if m.hasVersion {
		v, ok = jsNumber(m.versionRaw)
	}
	if m.hasVersion {
		if n, err := strconv.Atoi(string(m.versionRaw)); err == nil {
			m.sum.FromVersion = n
		} else {
			m.sum.VersionRaw = string(m.versionRaw)
		}
	} else {
		m.sum.FromVersion = 1
	}
	m.sum.ToVersion = m.sum.FromVersion
	if ok && v < CurrentVersion {
		m.v1to2 = v < 2
		m.v2to3 = true
		m.sum.Needed = true
		m.sum.ToVersion = CurrentVersion
	}
	return m.sum, nil
}

func (m *Migrator) newID() []byte {
	gen := m.opts.NewID
	if gen == nil {
		gen = randomHex8
	}
	for range 100 {
		id := gen()
		if !m.existing[id] {
			m.existing[id] = true
			b, _ := json.Marshal(id)
			return b
		}
		m.sum.IDCollisionsAvoided++
	}
	id := uuid.NewString()
	m.existing[id] = true
	b, _ := json.Marshal(id)
	return b
}

func randomHex8() string {
	var b [4]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b[:])
}

// Line is pass 2: call it for every line, in the same order as Observe. It
// returns the line to write: the input slice itself when the line needs no
// change, else a new slice.
func (m *Migrator) Line(line []byte) ([]byte, error) {
	if !m.planned {
		return nil, errors.New("migrate: Line before Plan")
	}
	if m.headerErr != nil {
		return nil, ErrNoHeader
	}
	if !m.started {
		m.started = true
		m.prevID = []byte("null")
		m.seenFirst = false
	}
	phys := m.line
	m.line++
	if m.line > m.observed {
		return nil, errors.New("migrate: more lines in pass 2 than in pass 1")
	}
	c := classify(line, !m.seenFirst)
	if !c.blank {
		m.seenFirst = true
	}
	if !c.parsed {
		if !c.blank && m.sum.Needed {
			m.sum.KeptUnparsed++
		}
		return line, nil
	}
	if phys < m.header {
		// Only an omp title slot can parse before the header (pass 1
		// skipped it too).
		return line, nil
	}
	idx := m.entry
	m.entry++
	if idx >= len(m.entries) {
		return nil, errors.New("migrate: lines differ between pass 1 and pass 2")
	}
	info := m.entries[idx]
	if !m.sum.Needed {
		return line, nil
	}
	if !info.object {
		m.sum.KeptNonObject++
		if m.v1to2 {
			m.warn(fmt.Sprintf("line %d is JSON but not an object: kept as is, without an id (pi cannot migrate such a file)", phys+1))
		}
		return line, nil
	}
	if c.obj == nil {
		return nil, errors.New("migrate: lines differ between pass 1 and pass 2")
	}
	if err := m.migrateObject(c.obj, idx, info, phys); err != nil {
		return nil, fmt.Errorf("line %d: %w", phys+1, err)
	}
	out := c.obj.Bytes()
	if bytes.Equal(out, c.body) {
		return line, nil
	}
	m.sum.LinesChanged++
	if c.offset > 0 {
		out = append(append([]byte(nil), line[:c.offset]...), out...)
	}
	return out, nil
}

func (m *Migrator) warn(s string) {
	if len(m.sum.Warnings) < 100 {
		m.sum.Warnings = append(m.sum.Warnings, s)
	}
}

func (m *Migrator) migrateObject(e *jsonedit.Editor, idx int, info entryInfo, phys int) error {
	if info.session {
		// v1→v2 sets 2, v2→v3 sets 3: the key ends where the first
		// assignment put it, holding 3.
		if err := e.Set("version", []byte(strconv.Itoa(CurrentVersion))); err != nil {
			return err
		}
		m.sum.HeadersUpdated++
		return nil
	}
	typ, _ := e.String("type")
	if m.v1to2 {
		id := m.newID()
		if err := e.Set("id", id); err != nil {
			return err
		}
		if err := e.Set("parentId", m.prevID); err != nil {
			return err
		}
		m.prevID = id
		m.newIDs[idx] = id
		m.sum.EntriesReIDed++
		if typ == "compaction" {
			if err := m.mapCompaction(e, idx, phys); err != nil {
				return err
			}
		}
	}
	if m.v2to3 && typ == "message" {
		if role, ok := e.GetPath("message", "role"); ok && role[0] == '"' {
			var s string
			if json.Unmarshal(role, &s) == nil && s == "hookMessage" {
				if err := e.SetPath([]byte(`"custom"`), "message", "role"); err != nil {
					return err
				}
				m.sum.RolesRenamed++
			}
		}
	}
	return nil
}

func (m *Migrator) mapCompaction(e *jsonedit.Editor, idx, phys int) error {
	raw, ok := e.Get("firstKeptEntryIndex")
	if !ok {
		return nil
	}
	if c := raw[0]; c != '-' && (c < '0' || c > '9') {
		m.sum.IndexKept++
		return nil // not a number: pi leaves it
	}
	f, _ := strconv.ParseFloat(string(raw), 64)
	var target []byte
	assign, undefined := false, false
	if f == math.Trunc(f) && f >= 0 && f < float64(len(m.entries)) {
		t := int(f)
		ti := m.entries[t]
		if ti.truthy && !ti.session {
			assign = true
			switch {
			case !ti.object:
				undefined = true
			case t <= idx:
				target = m.newIDs[t]
				m.sum.CompactionsMapped++
			case ti.oldID != nil:
				target = ti.oldID
				m.sum.CompactionsDangling++
				m.warn(fmt.Sprintf("line %d: firstKeptEntryIndex %s names a later line that already had id %s; as in pi, firstKeptEntryId keeps that old id, which no longer exists", phys+1, raw, target))
			default:
				undefined = true
			}
		}
	}
	switch {
	case assign && !undefined:
		if err := e.Set("firstKeptEntryId", target); err != nil {
			return err
		}
	case assign && undefined:
		// JavaScript assigns undefined: the key disappears on stringify.
		e.Delete("firstKeptEntryId")
		m.sum.CompactionsUnmapped++
	default:
		m.sum.CompactionsUnmapped++
	}
	e.Delete("firstKeptEntryIndex")
	return nil
}

// Summary returns the summary so far (complete after the last Line).
func (m *Migrator) Summary() Summary {
	s := m.sum
	s.Warnings = append([]string(nil), m.sum.Warnings...)
	return s
}

// Lines migrates a whole file given as lines (each with or without its
// "\n"). Unchanged lines are returned as the same slices.
func Lines(lines [][]byte, opts Options) ([][]byte, Summary, error) {
	m := New(opts)
	for _, l := range lines {
		if err := m.Observe(l); err != nil {
			return nil, Summary{}, err
		}
	}
	sum, err := m.Plan()
	if err != nil {
		return nil, sum, err
	}
	out := make([][]byte, len(lines))
	for i, l := range lines {
		o, err := m.Line(l)
		if err != nil {
			return nil, m.Summary(), err
		}
		out[i] = o
	}
	return out, m.Summary(), nil
}
