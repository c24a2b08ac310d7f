package pi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/sessctl/sessctl/internal/problem"
	"github.com/sessctl/sessctl/internal/tree"
)

// Member is one key of a context object, kept in order. A nil Value means
// "undefined" in JavaScript: the key is left out of the JSON.
type Member struct {
	Key   string
	Value json.RawMessage
}

// Context is the context the agent rebuilds for a leaf, as JSON values
// (messages are the stored bytes, or synthesized exactly as the agent does).
type Context struct {
	Dialect Dialect
	Leaf    int   // entry number of the leaf, tree.None for an empty file
	Path    []int // root→leaf entry numbers
	Cycle   bool  // the parent walk met a cycle (the agent would hang)
	// Messages are the context messages in order; Sources says which path
	// entry produced each (the compaction entry for its summary).
	Messages []json.RawMessage
	Sources  []int
	// Fields are the other members of the result, in the agent's order
	// (pi: thinkingLevel, model).
	Fields []Member
	// Compaction is the entry number of the compaction in effect, or tree.None.
	Compaction int
	// Warnings are things about this path that a reader should know.
	Warnings []string
}

// ErrNoHeader is returned when a file has no valid header.
var ErrNoHeader = errors.New("not a valid session file")

// BuildContext rebuilds the context for leaf (tree.None = the default leaf,
// the last entry in file order) as the file's dialect does.
func (f *File) BuildContext(leaf int) (*Context, error) {
	return f.StreamContext(leaf, nil, nil)
}

// StreamContext rebuilds the context for leaf like BuildContext, but hands
// each message to emit (with the entry that produced it) as soon as it is
// made, instead of keeping them: for the pi dialect only the current line is
// in memory, so a context of gigabytes streams in constant memory. The
// returned Context has Fields, Path and Warnings but no Messages. emit nil
// collects the messages into the Context (BuildContext). The oh-my-pi and
// xcsh dialects post-process the whole message list, so they build it in
// memory and then emit it.
//
// begin, when not nil, is called once before the first message, when the
// Context's Fields are known (for output that prints them first).
func (f *File) StreamContext(leaf int, begin func(*Context) error, emit func(msg []byte, src int) error) (*Context, error) {
	return f.streamContext(leaf, begin, emit, nil)
}

// streamContext is StreamContext; with refs (pi dialect), message lines
// longer than jsonl.LongLine are read with their long strings left out
// (see longRefs): emit then gets messages holding refs' placeholders.
func (f *File) streamContext(leaf int, begin func(*Context) error, emit func(msg []byte, src int) error, refs *longRefs) (*Context, error) {
	ctx, path, err := f.prepare(leaf)
	if err != nil {
		return ctx, err
	}
	if begin == nil {
		begin = func(*Context) error { return nil }
	}
	if ctx.Leaf == tree.None {
		if _, err = f.finish(ctx, nil); err != nil {
			return ctx, err
		}
		if err = begin(ctx); err == nil && emit != nil {
			err = ctx.replay(emit)
		}
		return ctx, err
	}
	if f.Dialect == DialectOmp || f.Dialect == DialectXcsh {
		lines, err := f.ReadLines(path)
		if err != nil {
			return nil, err
		}
		pes := make([]pathEntry, len(path))
		for k, i := range path {
			pes[k] = newPathEntry(i, lines[k], f.Entries[i].Type())
		}
		if _, err := f.finish(ctx, pes); err != nil {
			return nil, err
		}
		if err := begin(ctx); err != nil {
			return ctx, err
		}
		if emit != nil {
			return ctx, ctx.replay(emit)
		}
		return ctx, nil
	}
	if emit == nil {
		emit = func(m []byte, src int) error {
			ctx.add(append(json.RawMessage(nil), m...), src)
			return nil
		}
	}
	return ctx, f.streamPi(ctx, path, begin, emit, refs)
}

// replay hands collected messages to emit and forgets them.
func (c *Context) replay(emit func([]byte, int) error) error {
	for i, m := range c.Messages {
		if err := emit(m, c.Sources[i]); err != nil {
			return err
		}
	}
	c.Messages, c.Sources = nil, nil
	return nil
}

// PathTo resolves leaf (tree.None = the default leaf, as the agent resumes)
// to its root→leaf path, with the warnings a reader should know, without
// rebuilding the context.
func (f *File) PathTo(leaf int) (*Context, []int, error) { return f.prepare(leaf) }

// prepare resolves the leaf and its path and notes what a reader should know.
func (f *File) prepare(leaf int) (*Context, []int, error) {
	if f.HeaderErr != nil {
		return nil, nil, fmt.Errorf("%w: %v", ErrNoHeader, f.HeaderErr)
	}
	if leaf == tree.None {
		leaf = f.Index.Last()
		// The agent resumes at the last entry's id. An id of null means
		// "before the first entry": pi then rebuilds an empty context.
		if leaf != tree.None && f.Entries[leaf].NullID() {
			ctx := &Context{Dialect: f.Dialect, Leaf: tree.None, Compaction: tree.None,
				Warnings: []string{fmt.Sprintf("the last entry (line %d) has id null: the agent resumes this session with an empty context; --leaf picks another entry", f.Line(leaf))}}
			return ctx, nil, nil
		}
	}
	ctx := &Context{Dialect: f.Dialect, Leaf: leaf, Compaction: tree.None}
	if f.Legacy != nil && f.Legacy.AgentFails != "" {
		ctx.Warnings = append(ctx.Warnings, f.Legacy.AgentFails)
	}
	if leaf == tree.None {
		return ctx, nil, nil
	}
	path, cycle := f.activePath(leaf)
	ctx.Path, ctx.Cycle = path, cycle
	if cycle {
		if f.Dialect == DialectOmp {
			ctx.Warnings = append(ctx.Warnings, fmt.Sprintf("the parent chain from %s loops; oh-my-pi stops at the first repeated id, as sessctl does", f.DisplayID(leaf)))
		} else {
			ctx.Warnings = append(ctx.Warnings, fmt.Sprintf("the parent chain from %s loops; the agent would hang here, sessctl stops at the repeat", f.DisplayID(leaf)))
		}
	}
	if len(path) > 0 && f.Index.HasParent(path[0]) {
		first := path[0]
		ctx.Warnings = append(ctx.Warnings, fmt.Sprintf("history is cut at line %d: its parent %s does not exist", f.Line(first), displayID(f.Index.ParentID(first))))
	}
	return ctx, path, nil
}

func (f *File) finish(ctx *Context, pes []pathEntry) (*Context, error) {
	switch f.Dialect {
	case DialectOmp, DialectXcsh:
		if buildOmp == nil {
			return nil, fmt.Errorf("context rebuild for the %s dialect is not available in this build", f.Dialect)
		}
		buildOmp(f, ctx, pes)
	default:
		// pi's result for a null leaf or a file without entries.
		ctx.Fields = []Member{{"thinkingLevel", str("off")}, {"model", json.RawMessage("null")}}
	}
	return ctx, nil
}

// buildOmp is set by the omp/xcsh dialect implementation.
var buildOmp func(f *File, ctx *Context, pes []pathEntry)

// pathEntry is a decoded view of one entry on the path.
type pathEntry struct {
	n    int    // entry number
	line []byte // the stored line (body)
	typ  string
	id   []byte // raw id value, nil if absent
	obj  bool
}

func newPathEntry(n int, line []byte, typ string) pathEntry {
	pe := pathEntry{n: n, line: bytes.TrimPrefix(bytes.TrimSuffix(line, []byte("\r")), jsonl.BOM), typ: typ}
	if v, ok := jsonl.Field(pe.line, "id"); ok {
		pe.id = v
	}
	trim := bytes.TrimLeft(pe.line, " \t")
	pe.obj = len(trim) > 0 && trim[0] == '{'
	return pe
}

// get returns the raw value of a top-level member (nil if absent).
func (pe *pathEntry) get(key string) []byte {
	if !pe.obj {
		return nil
	}
	v, _ := jsonl.Field(pe.line, key)
	return v
}

// sub returns the raw value of obj[key] where obj is a raw object (nil if absent).
func sub(obj []byte, key string) []byte {
	if len(obj) == 0 || obj[0] != '{' {
		return nil
	}
	v, _ := jsonl.Field(obj, key)
	return v
}

// strictEqual compares two raw JSON values as JavaScript === would for the
// primitive values ids are made of (nil = undefined).
func strictEqual(a, b []byte) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	if a[0] == '{' || a[0] == '[' || b[0] == '{' || b[0] == '[' {
		return false // distinct objects are never ===
	}
	sa, okA := jsonl.KeyString(a) // keys: lone surrogates kept, as JavaScript's strings keep them
	sb, okB := jsonl.KeyString(b)
	if okA || okB {
		return okA && okB && sa == sb
	}
	if a[0] == '-' || (a[0] >= '0' && a[0] <= '9') {
		fa, errA := strconv.ParseFloat(string(a), 64)
		fb, errB := strconv.ParseFloat(string(b), 64)
		return errA == nil && errB == nil && fa == fb
	}
	return bytes.Equal(a, b)
}

// jsTime is `new Date(v).getTime()` for a raw JSON value, as JSON (null for NaN).
func jsTime(v []byte) json.RawMessage {
	ms, ok := jsTimeMs(v)
	if !ok {
		return json.RawMessage("null")
	}
	return json.RawMessage(strconv.FormatInt(ms, 10))
}

// maxTime is the largest time value a JavaScript Date can hold.
const maxTime = 8.64e15

func jsTimeMs(v []byte) (int64, bool) {
	if v == nil {
		return 0, false
	}
	switch {
	case string(v) == "null", string(v) == "false":
		return 0, true
	case string(v) == "true":
		return 1, true
	case v[0] == '"':
		s, _ := jsonl.String(v)
		return parseJSDate(s)
	case v[0] == '-' || (v[0] >= '0' && v[0] <= '9'):
		f, err := strconv.ParseFloat(string(v), 64)
		if err != nil || math.IsNaN(f) || math.Abs(f) > maxTime {
			return 0, false
		}
		return int64(f), true // TimeClip truncates toward zero
	}
	return 0, false
}

// parseJSDate parses the date strings JavaScript's Date accepts in practice:
// ISO 8601 date-time forms (a date-only form is UTC, a date-time without
// offset is local time, as in ECMAScript).
func parseJSDate(s string) (int64, bool) {
	utcLayouts := []string{time.RFC3339Nano, "2006-01-02T15:04Z07:00", "2006-01-02", "2006-01", "2006"}
	for _, l := range utcLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t.UnixMilli(), true
		}
	}
	localLayouts := []string{"2006-01-02T15:04:05.999999999", "2006-01-02T15:04:05", "2006-01-02T15:04"}
	for _, l := range localLayouts {
		if t, err := time.ParseInLocation(l, s, time.Local); err == nil {
			return t.UnixMilli(), true
		}
	}
	return 0, false
}

// object builds a JSON object from members, leaving out undefined ones.
func object(members ...Member) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	first := true
	for _, m := range members {
		if m.Value == nil {
			continue
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		k, _ := json.Marshal(m.Key)
		b.Write(k)
		b.WriteByte(':')
		b.Write(m.Value)
	}
	b.WriteByte('}')
	return b.Bytes()
}

func str(s string) json.RawMessage {
	b, _ := json.Marshal(s)
	return b
}

// synthesized is a message pi-family loaders make from an entry: role
// first, the members, then the entry's timestamp as epoch milliseconds
// (new Date(entry.timestamp).getTime(), null when invalid).
func synthesized(role string, pe *pathEntry, ms ...Member) json.RawMessage {
	all := make([]Member, 0, len(ms)+2)
	all = append(all, Member{"role", str(role)})
	all = append(all, ms...)
	all = append(all, Member{"timestamp", jsTime(pe.get("timestamp"))})
	return object(all...)
}

// branchSummaryMessage is every pi-family loader's message for a
// branch_summary entry, nil when its summary is falsy (not emitted).
func branchSummaryMessage(pe *pathEntry) json.RawMessage {
	s := trimWS(pe.get("summary"))
	if !jsonl.Truthy(s) {
		return nil
	}
	return synthesized("branchSummary", pe, Member{"summary", s}, Member{"fromId", nilIfAbsent(pe.get("fromId"))})
}

// compactionSpan is the part of buildSessionContext every pi-family loader
// shares once it has the newest compaction on a path of n entries: idx is
// where the loader finds it (the first entry for which isComp holds) and
// kept the first entry before it for which isKept holds, the start of the
// kept range (-1: nothing before the compaction is kept).
func compactionSpan(n int, isComp, isKept func(k int) bool) (idx, kept int) {
	idx, kept = -1, -1
	for k := 0; k < n; k++ {
		if isComp(k) {
			idx = k
			break
		}
	}
	for k := 0; k < idx; k++ {
		if isKept(k) {
			kept = k
			break
		}
	}
	return idx, kept
}

// compactionSelect is buildContextEntries' selection around the newest
// compaction on path (path[compaction]): the compaction entry, the kept
// entries from keptKey's entry up to it (1.5.2 leaves out role "system"
// messages), then everything after it. A compaction whose own id is not
// found on path (0.73.1 also matches its type) selects from path[compaction].
func (f *File) compactionSelect(path []int, compaction int, keptKey string, v152 bool) []int {
	ci := path[compaction]
	x := f.Index
	// Ids are compared as the index keeps them: entries with equal ids
	// share one copy (tree.Index.SameID), and keptKey is the id of the
	// entry Lookup finds for it, if any.
	kj, keptFound := x.Lookup(keptKey)
	idx, kept := compactionSpan(len(path),
		func(k int) bool { // 0.73.1 matches type and id, 1.5.2 the id alone
			return x.SameID(path[k], ci) && (v152 || f.Entries[path[k]].Type() == "compaction")
		},
		func(k int) bool { return keptFound && x.SameID(path[k], kj) })
	if idx < 0 {
		idx = compaction
	}
	sel := make([]int, 0, len(path)-idx)
	sel = append(sel, ci)
	if kept >= 0 {
		for _, i := range path[kept:idx] {
			if !(v152 && f.Entries[i].Type() == "message" && f.Entries[i].Role() == "system") {
				sel = append(sel, i)
			}
		}
	}
	return append(sel, path[idx+1:]...)
}

func (c *Context) add(m json.RawMessage, src int) {
	c.Messages = append(c.Messages, m)
	c.Sources = append(c.Sources, src)
}

// PiVersion selects the pi release whose loader a pi-dialect file is read
// with. The zero value is the current release (1.5.2); older releases are
// kept only where they give a different result on the same file.
type PiVersion string

// pi releases with distinct loaders.
const (
	PiCurrent PiVersion = ""     // @earendil-works/pi-coding-agent 1.5.2
	Pi073     PiVersion = "0.73" // @mariozechner/pi-coding-agent 0.73.1
)

// ParsePiVersion parses a --pi-version value ("", "current", "1.5" or
// "1.5.2" for the current release; "0.73" or "0.73.1" for the old one).
func ParsePiVersion(s string) (PiVersion, error) {
	switch strings.TrimPrefix(strings.ToLower(strings.TrimSpace(s)), "v") {
	case "", "current", "latest", "1.5", "1.5.2":
		return PiCurrent, nil
	case "0.73", "0.73.1":
		return Pi073, nil
	}
	return "", fmt.Errorf("unknown pi version %q: use current (1.5.2) or 0.73", s)
}

// streamPi is pi's buildSessionContext (1.5.2's buildSessionProjection, or
// 0.73.1's with PiVersion Pi073) in light passes: the settings and the
// newest compaction come from the last entries of their kind on the path
// (found walking back, reading only those lines), then the context_edit
// lines in the context (1.5.2), then the messages are made in path order,
// one line in memory at a time. A context of gigabytes streams in constant
// memory.
func (f *File) streamPi(ctx *Context, path []int, begin func(*Context) error, emit func([]byte, int) error, refs *longRefs) error {
	v152 := f.PiVersion != Pi073
	lr, err := f.openLines()
	if err != nil {
		return err
	}
	defer lr.close()
	thinking := json.RawMessage(`"off"`)
	model := json.RawMessage("null")
	compaction := -1
	haveThinking, haveModel := false, false
	for k := len(path) - 1; k >= 0 && !(haveThinking && haveModel && compaction >= 0); k-- {
		i := path[k]
		e := &f.Entries[i]
		switch {
		case e.Type() == "thinking_level_change" && !haveThinking:
			pe, err := lr.entry(i)
			if err != nil {
				return err
			}
			thinking = clone(pe.get("thinkingLevel"))
			haveThinking = true
		case e.Type() == "model_change" && !haveModel:
			pe, err := lr.entry(i)
			if err != nil {
				return err
			}
			model = object(Member{"provider", pe.get("provider")}, Member{"modelId", pe.get("modelId")})
			haveModel = true
		case e.Type() == "message" && e.Role() == "assistant" && !haveModel:
			pe, err := lr.entry(i)
			if err != nil {
				return err
			}
			m := pe.get("message")
			model = object(Member{"provider", clone(sub(m, "provider"))}, Member{"modelId", clone(sub(m, "model"))})
			haveModel = true
		case e.Type() == "compaction" && compaction < 0:
			compaction = k
		}
	}
	ctx.Fields = []Member{{"thinkingLevel", thinking}, {"model", model}}

	// The entries that make the context, in order (buildContextEntries):
	// the newest compaction, the kept entries before it (1.5.2 leaves out
	// role "system" messages), everything after it.
	sel := path
	var comp pathEntry
	if compaction >= 0 {
		ci := path[compaction]
		ctx.Compaction = ci
		c, err := lr.entryElided(ci, refs)
		if err != nil {
			return err
		}
		comp = c
		comp.line = clone(c.line)
		keptKey := noIDKey // an absent firstKeptEntryId equals an absent id (undefined === undefined)
		if fk := comp.get("firstKeptEntryId"); fk != nil {
			keptKey = rawKey(fk)
		}
		sel = f.compactionSelect(path, compaction, keptKey, v152)
	}
	// 1.5.2: the latest context_edit per target among the selected entries.
	var edits map[string][]byte
	for _, i := range sel {
		if !v152 || f.Entries[i].Type() != "context_edit" {
			continue
		}
		pe, err := lr.entry(i)
		if err != nil {
			return err
		}
		if edits == nil {
			edits = map[string][]byte{}
		}
		target := noIDKey
		if t := pe.get("targetId"); t != nil {
			target = rawKey(t)
		}
		r := pe.get("replacement")
		if r == nil {
			r = []byte{} // undefined: pi fails when it applies it
		}
		edits[target] = clone(r)
	}
	if err := begin(ctx); err != nil {
		return err
	}
	failed := false
	fail := func(i int, why string) {
		if !failed {
			failed = true
			ctx.Warnings = append(ctx.Warnings, fmt.Sprintf("pi 1.5.2 fails to rebuild this context (line %d: %s); sessctl shows what it can", f.Line(i), why))
		}
	}
	for k, i := range sel {
		var msgs [][]byte
		typ := f.Entries[i].Type()
		switch {
		case compaction >= 0 && k == 0:
			if sm, _ := jsonl.Field(comp.line, "systemMessage"); v152 && jsonl.Truthy(sm) {
				msgs = append(msgs, sm)
			}
			msgs = append(msgs, synthesized("compactionSummary", &comp,
				Member{"summary", comp.get("summary")}, Member{"tokensBefore", comp.get("tokensBefore")}))
		case typ == "message" || typ == "custom_message" || typ == "branch_summary":
			pe, err := lr.entryElided(i, refs)
			if err != nil {
				return err
			}
			if !v152 {
				if m := piProject073(&pe); m != nil {
					msgs = append(msgs, m)
				}
			} else if m := piProject152(&pe); m != nil {
				msgs = append(msgs, m)
			} else if typ == "message" {
				fail(i, "a message entry without a message object")
				msgs = append(msgs, []byte("null"))
			}
		}
		if len(msgs) == 0 {
			continue
		}
		if r, ok := edits[f.Index.ID(i)]; ok {
			if string(r) == "null" {
				continue
			}
			for j, m := range msgs {
				role, _ := jsonl.String(sub(m, "role"))
				switch role {
				case "user", "assistant", "toolResult", "custom":
				default:
					continue
				}
				if len(r) == 0 {
					fail(i, "a context_edit without replacement targets it")
					continue
				}
				content := sub(r, "content")
				if s, ok := jsonl.String(content); ok && (role == "assistant" || role == "toolResult") {
					content = append(append([]byte{'['}, object(Member{"type", str("text")}, Member{"text", str(s)})...), ']')
				}
				msgs[j] = setMember(m, "content", content)
			}
		}
		for _, m := range msgs {
			if err := emit(m, i); err != nil {
				return err
			}
		}
	}
	return nil
}

// piProject073 is pi 0.73.1's appendMessage for one message,
// custom_message or branch_summary entry (nil: no message).
func piProject073(pe *pathEntry) []byte {
	switch pe.typ {
	case "message":
		if m := pe.get("message"); m != nil {
			return m
		}
		return []byte("null") // JSON.stringify turns undefined in arrays into null
	case "custom_message":
		return synthesized("custom", pe, Member{"customType", pe.get("customType")}, Member{"content", pe.get("content")},
			Member{"display", pe.get("display")}, Member{"details", pe.get("details")})
	case "branch_summary":
		return branchSummaryMessage(pe)
	}
	return nil
}

// piProject152 is what pi 1.5.2 makes of one message, custom_message or
// branch_summary entry (sessionEntryToContextMessages), or nil when it makes
// nothing (a message entry without a message object makes pi fail).
func piProject152(pe *pathEntry) []byte {
	switch pe.typ {
	case "message":
		m := pe.get("message")
		if m == nil || string(m) == "null" {
			return nil // reading its role throws
		}
		if m[0] != '{' {
			return m // not an object: no role, kept as it is
		}
		role, _ := jsonl.String(sub(m, "role"))
		c := sub(m, "content")
		null := c == nil || string(c) == "null"
		switch {
		case role == "system" && null:
			return setMember(m, "content", []byte(`""`))
		case (role == "user" || role == "assistant" || role == "toolResult") && null:
			return setMember(m, "content", []byte(`[]`))
		}
		return m
	case "custom_message":
		content := pe.get("content")
		if content == nil || string(content) == "null" {
			content = []byte("[]") // entry.content ?? []
		}
		return synthesized("custom", pe, Member{"customType", pe.get("customType")}, Member{"content", content},
			Member{"display", pe.get("display")}, Member{"details", pe.get("details")})
	case "branch_summary":
		return branchSummaryMessage(pe)
	}
	return nil
}

// setMember is JavaScript's {...obj, [key]: val}: the member keeps its place
// when obj has it (the last of repeated keys wins, at the first one's place),
// or is appended; val nil (undefined) leaves it out.
func setMember(obj []byte, key string, val []byte) []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	n := 0
	put := func(k, v []byte) {
		if n > 0 {
			b.WriteByte(',')
		}
		n++
		b.WriteByte('"')
		b.Write(k)
		b.WriteString(`":`)
		b.Write(v)
	}
	done := false
	seen := map[string]bool{}
	var order [][]byte
	vals := map[string][]byte{}
	_ = jsonl.Members(obj, func(k, v []byte) bool {
		ks := string(k)
		if !seen[ks] {
			seen[ks] = true
			order = append(order, k)
		}
		vals[ks] = v
		return true
	})
	for _, k := range order {
		ks := string(k)
		v := vals[ks]
		if s, ok := jsonl.String(append(append([]byte{'"'}, k...), '"')); ok && s == key {
			done = true
			if val == nil {
				continue
			}
			v = val
		}
		put(k, v)
	}
	if !done && val != nil {
		kb, _ := json.Marshal(key)
		put(kb[1:len(kb)-1], val)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// bomHidesLine reports (and records) that pi 1.5.2 cannot parse rec, the
// first line, because it starts with a byte order mark: 1.5.2 decodes the
// file without stripping it and JSON.parse rejects it, so the line is
// skipped like a malformed one (0.73.1 trimmed it away; oh-my-pi and xcsh
// decode with TextDecoder, which strips it). A mark before a blank line
// changes nothing (JavaScript's trim removes U+FEFF).
func (rd *reader) bomHidesLine(rec *jsonl.Record) bool {
	if rd.f.PiVersion == Pi073 || rd.dialect == DialectOmp || rd.dialect == DialectXcsh {
		return false
	}
	if rec.Kind != jsonl.Object && rec.Kind != jsonl.NonObject {
		return false
	}
	// The file may still turn out to be oh-my-pi's: then it is read again.
	rd.sensitive = true
	rd.bomSkipped = true
	msg := "file starts with a UTF-8 byte order mark: pi 1.5.2 cannot parse line 1 behind it and skips it"
	if rec.Kind == jsonl.Object && rec.Str("type") == "session" || bytes.Contains(rec.Body(), []byte(`"session"`)) {
		msg = "file starts with a UTF-8 byte order mark: pi 1.5.2 cannot parse the session header behind it, so it does not open the file (pi 0.73.1 ignored the mark)"
	}
	rd.f.add(problem.Problem{Code: problem.BOM, Severity: problem.Error, Line: rec.Line,
		Message: msg, Fix: "sessctl repair removes it"})
	return true
}

// HeaderFix says what mends a file without a valid header: a byte order
// mark in front of it (pi 1.5.2) is removed by repair; otherwise repair
// rebuilds the header.
func (f *File) HeaderFix() string {
	for _, p := range f.Problems {
		if p.Code == problem.BOM && p.Severity == problem.Error {
			return "sessctl repair removes the byte order mark"
		}
	}
	return "sessctl repair --rebuild-header can rebuild it"
}
