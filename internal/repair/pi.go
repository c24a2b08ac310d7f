package repair

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/sessctl/sessctl/internal/format/pi"
	"github.com/sessctl/sessctl/internal/fsx"
	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/sessctl/sessctl/internal/problem"
	"github.com/sessctl/sessctl/internal/safewrite"
	"github.com/valyala/fastjson"
)

// Pi repairs a pi-family (pi, oh-my-pi, xcsh, OpenClaw) session file.
func Pi(path string, opts Options) (*Result, error) {
	if err := recoverSidecar(path, opts); err != nil { // finish an interrupted repair first (write.go)
		return nil, err
	}
	snap, err := safewrite.Stat(path)
	if err != nil {
		return nil, err
	}
	res := &Result{Path: path, Format: "pi", DryRun: opts.DryRun, Fixes: []Fix{}, Remaining: []problem.Problem{}}
	fh, err := fsx.OpenRead(path) // shares delete access: the file is renamed over while open (Windows)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	src, err := pi.Read(fh, path, pi.Options{Check: true}) // check's facts in the index pass: src.Check reads no line again
	if err != nil {
		return nil, err
	}
	if _, err := fh.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	before := src.Check(pi.CheckOptions{})
	// A v1/v2 file is read, by pi and by check, as pi's in-memory migration
	// makes it; repair judges it the same way and leaves the version to
	// `sessctl migrate` (the version notice remains, with that fix).
	legacy := legacyVersion(src)
	if legacy > 0 {
		mf, err := pi.Open(path, pi.Options{Dialect: src.Dialect})
		if err != nil {
			return nil, err
		}
		before = mf.Check(pi.CheckOptions{})
	}
	p := &planner{opts: opts, path: path, res: res, src: src, flagged: flaggedLines(before)}
	if err := p.scan(fh); err != nil {
		return nil, err
	}
	p.ownView = len(res.Fixes) > 0
	if err := p.header(); err != nil {
		return res, err
	}
	if legacy != 1 { // a v1 file's ids are the migration's: stray ids in it are not the agent's
		p.duplicates()
		p.relink()
	}
	if opts.CloseToolCalls && legacy != 1 {
		if err := p.closeToolCalls(fh); err != nil {
			return nil, err
		}
	}
	if len(res.Fixes) == 0 {
		res.Remaining = remaining(before)
		return res, nil
	}
	res.Changed = true
	if _, err := fh.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	err = p.write(fh, snap)
	res.Remaining = p.origNumbering(res.Remaining)
	if legacy > 0 && err == nil {
		res.Remaining = legacyRemaining(path, legacy, res, before)
	}
	return res, err
}

// legacyVersion is the format version of a v1/v2 file (0 for a current one
// or one without a usable header).
func legacyVersion(f *pi.File) int {
	if f.Header == nil || f.HeaderErr != nil || f.Header.Version >= pi.CurrentVersion {
		return 0
	}
	return f.Header.Version
}

// legacyRemaining is what check says of a repaired v1/v2 file: read as
// migrated once it is written; in a dry run, the repaired content's own
// findings less the tree findings a v1 file's migration replaces, plus the
// version notice.
func legacyRemaining(path string, legacy int, res *Result, before []problem.Problem) []problem.Problem {
	if !res.DryRun {
		if f, err := pi.Open(path, pi.Options{}); err == nil {
			out := []problem.Problem{}
			for _, pr := range f.Check(pi.CheckOptions{}) {
				if pr.Code != problem.SeveralRoots {
					out = append(out, pr)
				}
			}
			return out
		}
	}
	out := []problem.Problem{}
	for _, pr := range before {
		if pr.Code == pi.CodeOutdatedVersion {
			out = append(out, pr)
		}
	}
	for _, pr := range res.Remaining {
		switch pr.Code {
		case problem.DuplicateID, problem.MissingID, problem.SelfParent, problem.Cycle, problem.Orphan, problem.SeveralRoots:
			if legacy == 1 {
				continue
			}
		}
		out = append(out, pr)
	}
	return out
}

// flaggedLines indexes check's problems by code and line.
func flaggedLines(ps []problem.Problem) map[string]map[int]bool {
	out := map[string]map[int]bool{}
	for _, pr := range ps {
		if pr.Line <= 0 {
			continue
		}
		if out[pr.Code] == nil {
			out[pr.Code] = map[int]bool{}
		}
		out[pr.Code][pr.Line] = true
	}
	return out
}

// reported says whether check reports one of codes for the entry of line v
// on the file as it is, so that repair may change it. Once repair has
// salvaged, split or rejected lines, or renamed an entry, check did not see
// the file as repair sees it: repair judges on its own view (pi's check
// reports every orphan, self-parent and cycle as an error, so the two agree).
func (p *planner) reported(v *vline, codes ...string) bool {
	if p.ownView {
		return true
	}
	if _, renamed := v.edits["id"]; renamed {
		return true
	}
	if _, renamed := v.edits["uuid"]; renamed {
		return true
	}
	for _, c := range codes {
		if p.flagged[c][v.orig] {
			return true
		}
	}
	return false
}

// origNumbering puts problems found in the repaired content (numbered as
// its lines) into the original file's numbering, the one every fix uses:
// each planned line is one line of the output. A line repair added (a
// rebuilt header, an appended result) has no original number: 0.
func (p *planner) origNumbering(ps []problem.Problem) []problem.Problem {
	out := make([]problem.Problem, 0, len(ps))
	for _, pr := range ps {
		if pr.Line > 0 && pr.Line <= len(p.lines) {
			pr.Line = p.lines[pr.Line-1].orig
		}
		out = append(out, pr)
	}
	return out
}

type planner struct {
	opts  Options
	path  string
	res   *Result
	src   *pi.File
	lines []*vline // the repaired file, in order
	// flagged holds the lines check reports on the file as it is, by
	// problem code (pi; Claude keeps its own by uuid).
	flagged map[string]map[int]bool
	ownView bool // the scan changed lines: check's view of the file is not repair's
	rejects []rejectRec
	ids     map[string]bool
	// format hooks (nil: pi)
	fieldsFn func(v *fastjson.Value, line []byte) *vline
	gluedRE  *regexp.Regexp
	shapeFn  func(*fastjson.Value) bool
}

// fields extracts what the planner needs from a parsed line, v the value
// of the JSON object line (nil: ids from v).
func (p *planner) fields(v *fastjson.Value, line []byte) *vline {
	if p.fieldsFn != nil {
		return p.fieldsFn(v, line)
	}
	return fields(v, line)
}

func (p *planner) salvageTail(fp *fastjson.Parser, b []byte) (head, tail []byte) {
	if p.gluedRE != nil {
		return salvageTailWith(fp, b, p.gluedRE, p.shapeFn)
	}
	return salvageTailWith(fp, b, gluedType, isEntryShape)
}

func (p *planner) fix(f Fix) { p.res.Fixes = append(p.res.Fixes, f) }

var gluedType = regexp.MustCompile(`\{"type":"`)

// serialScan turns the parallel scan off, and scanChunkSize sets its chunk
// size (0: the default); tests compare the two.
var (
	serialScan    = false
	scanChunkSize = 0
	// elideMin is the shortest string elidedFields leaves out (tests
	// lower it so that every line's strings are left out).
	elideMin = jsonl.ElidedMin
)

// scanState is what the scan carries from line to line: a run of
// consecutive unparsable lines may be one object pretty-printed over
// several lines (joined without their newlines, it parses).
type scanState struct {
	fp       fastjson.Parser
	run      []rejectRec
	runBytes int
	// el and small read an object line longer than a chunk without
	// holding it (elidedFields).
	el    *jsonl.Elider
	small []byte
}

func (st *scanState) flush(p *planner) {
	for _, r := range st.run {
		p.reject(r.line, r.reason, r.raw)
	}
	st.run, st.runBytes = nil, 0
}

// scan classifies every physical line and decides what becomes of it. A
// file is read once with jsonl.ReadParallel: workers validate the lines
// and parse the object lines into what repair needs (p.fields); the lines
// are then taken in file order. Other readers are read line by line.
func (p *planner) scan(r io.Reader) error {
	p.ids = map[string]bool{}
	st := &scanState{}
	if f, ok := r.(*os.File); ok && !serialScan && atStart(f) {
		if err := p.scanParallel(f, st); err != nil {
			return err
		}
		st.flush(p)
		return nil
	}
	rd := jsonl.NewReader(r)
	for rd.Next() {
		rec := rd.Record()
		var v *vline
		if rec.Kind == jsonl.Object {
			v = p.fields(rec.Value, rec.Body())
		}
		p.line(st, rec, v)
	}
	st.flush(p)
	return rd.Err()
}

// atStart reports whether f is read from its start (offsets are the file's).
func atStart(f *os.File) bool {
	pos, err := f.Seek(0, io.SeekCurrent)
	return err == nil && pos == 0
}

// fpPool holds the workers' parsers.
var fpPool = sync.Pool{New: func() any { return new(fastjson.Parser) }}

// scanLines is a batch's parsed object lines by place (nil: not an
// object, or not inspected).
type scanLines struct{ v []*vline }

// scanParallel is scan with jsonl.ReadParallel over f. Raw bytes are kept
// for the lines that need them (not an object, or behind a BOM); a line
// longer than a chunk (not inspected, not kept) is read back by offset.
func (p *planner) scanParallel(f *os.File, st *scanState) error {
	inspect := func(rec *jsonl.Record, b *jsonl.Batch) {
		sl, _ := b.Aux.(*scanLines)
		if sl == nil {
			sl = &scanLines{}
			b.Aux = sl
		}
		var v *vline
		if rec.Kind == jsonl.Object {
			fp := fpPool.Get().(*fastjson.Parser)
			if val, err := fp.ParseBytes(rec.Body()); err == nil {
				v = p.fields(val, rec.Body())
			}
			fpPool.Put(fp)
		}
		for len(sl.v) < len(b.Records) {
			sl.v = append(sl.v, nil)
		}
		sl.v = append(sl.v, v)
	}
	keep := func(rec *jsonl.Record) bool { return rec.Kind != jsonl.Object || rec.BOM }
	o := jsonl.ParallelOptions{Inspect: inspect, Keep: keep, ChunkSize: scanChunkSize}
	return jsonl.ReadParallel(f, o, func(b *jsonl.Batch) error {
		sl, _ := b.Aux.(*scanLines)
		for k := range b.Records {
			rec := &b.Records[k]
			var v *vline
			if sl != nil && k < len(sl.v) {
				v = sl.v[k]
			}
			if rec.Streamed && rec.Kind == jsonl.Object && !rec.BOM && v == nil {
				// an object line longer than a chunk: its fields are read
				// from a copy without its long strings
				var err error
				if v, err = p.elidedFields(f, rec, st); err != nil {
					return err
				}
			}
			if rec.Streamed && v == nil {
				line, err := jsonl.ReadLineAt(f, rec.Offset, rec.Len())
				if err != nil {
					return err
				}
				rec.Raw = line
			}
			if rec.Kind == jsonl.Object && v == nil {
				val, err := st.fp.ParseBytes(rec.Body())
				if err != nil {
					return fmt.Errorf("line %d: %w", rec.Line, err)
				}
				v = p.fields(val, rec.Body())
			}
			p.line(st, rec, v)
		}
		if sl != nil {
			clear(sl.v)
			sl.v = sl.v[:0]
		}
		return nil
	})
}

// elidedFields is p.fields of an object line too long to hold (a line
// longer than a chunk, which ReadParallel does not keep): the line is read
// through a jsonl.Elider, its string values over jsonl.ElidedMin bytes left
// out (member names never are), and the small copy is parsed. The fields
// repair reads are top-level ids and types, short in any real session;
// when one of them is a left-out string, it returns nil and the line is
// read whole, as before. The line is never held: memory stays with the
// copy (the line less its long strings).
func (p *planner) elidedFields(f *os.File, rec *jsonl.Record, st *scanState) (*vline, error) {
	if st.el == nil {
		st.el = jsonl.NewElider(elideMin)
	}
	st.el.Refs = st.el.Refs[:0]
	small, err := st.el.Elide(st.small[:0], io.NewSectionReader(f, rec.Offset, rec.Len()), rec.Offset)
	if err != nil {
		return nil, err
	}
	st.small = small
	small = bytes.TrimSuffix(small, []byte("\n"))
	small = bytes.TrimSuffix(small, []byte("\r"))
	val, err := st.fp.ParseBytes(small)
	if err != nil || val.Type() != fastjson.TypeObject {
		return nil, nil
	}
	if readsElided(val) {
		return nil, nil
	}
	return p.fields(val, small), nil
}

// readKeys are the top-level members repair reads from a line (pi's and
// Claude Code's fields) or edits (editKeys).
var readKeys = func() map[string]bool {
	m := map[string]bool{"type": true, "timestamp": true, "isSidechain": true}
	for _, k := range editKeys {
		m[k] = true
	}
	return m
}()

// readsElided reports whether a member repair reads is a left-out string
// (or holds one).
func readsElided(v *fastjson.Value) bool {
	o, _ := v.Object()
	found := false
	o.Visit(func(key []byte, x *fastjson.Value) {
		if readKeys[string(key)] && x.Type() == fastjson.TypeString && jsonl.HoldsBytes(x.GetStringBytes()) {
			found = true
		}
	})
	return found
}

// line takes one line; v is what fields gives for an object line.
func (p *planner) line(st *scanState, rec *jsonl.Record, v *vline) {
	fp := &st.fp
	add := func(v *vline) { p.lines = append(p.lines, v) }
	n := rec.Line
	if rec.Kind != jsonl.Malformed && rec.Kind != jsonl.TornTail {
		st.flush(p)
	}
	if rec.BOM {
		p.fix(Fix{Line: n, Code: problem.BOM, Action: "removed-bom", Detail: "removed the UTF-8 byte order mark"})
	}
	switch rec.Kind {
	case jsonl.Blank:
		add(&vline{orig: n, bytes: trimBOM(rec), off: rec.Offset, n: rec.Len(), crlf: rec.CRLF})
	case jsonl.Object:
		v.orig, v.crlf, v.off, v.n = n, rec.CRLF, rec.Offset, rec.Len()
		if rec.BOM {
			v.bytes = append([]byte(nil), rec.Body()...)
		}
		add(v)
	case jsonl.NULRun:
		clean := bytes.ReplaceAll(rec.Body(), []byte{0}, nil)
		if isBlank(clean) {
			p.fix(Fix{Line: n, Code: problem.NULRun, Action: "removed-nul-run", Detail: fmt.Sprintf("removed a line of %d NUL bytes", len(rec.Raw))})
			return
		}
		if val, err := fp.ParseBytes(clean); err == nil && val.Type() == fastjson.TypeObject {
			v := p.fields(val, clean)
			v.orig, v.bytes = n, append([]byte(nil), clean...)
			add(v)
			p.fix(Fix{Line: n, Code: problem.NULRun, Action: "stripped-nul", Detail: fmt.Sprintf("removed %d NUL bytes; the rest is a valid entry", len(rec.Raw)-len(clean))})
			return
		}
		p.reject(n, problem.NULRun, rec.Raw)
	default: // malformed, torn tail, non-object
		code := problem.MalformedLine
		switch rec.Kind {
		case jsonl.TornTail:
			code = problem.TornTail
		case jsonl.NonObject:
			code = problem.NonObject
		}
		body := rec.Body()
		if parts := splitGlued(fp, body); parts != nil {
			for _, part := range parts {
				val, _ := fp.ParseBytes(part)
				v := p.fields(val, part)
				v.orig, v.bytes = n, part
				add(v)
			}
			p.fix(Fix{Line: n, Code: code, Action: "split", Detail: fmt.Sprintf("split %d JSON objects written on one line", len(parts))})
			return
		}
		if head, tail := p.salvageTail(fp, body); tail != nil {
			val, _ := fp.ParseBytes(tail)
			v := p.fields(val, tail)
			v.orig, v.bytes = n, tail
			add(v)
			p.reject(n, code, head)
			p.fix(Fix{Line: n, Code: code, Action: "salvaged", Detail: fmt.Sprintf("kept the complete entry after a torn fragment of %d bytes (fragment moved to the sidecar)", len(head))})
			return
		}
		if rec.Kind == jsonl.Malformed || rec.Kind == jsonl.TornTail {
			st.run = append(st.run, rejectRec{line: n, reason: code, raw: append([]byte(nil), rec.Raw...)})
			st.runBytes += len(rec.Raw)
			if len(st.run) > 1 && st.runBytes < 64<<20 {
				var joined []byte
				for _, r := range st.run {
					joined = append(joined, bytes.TrimSuffix(r.raw, []byte("\r"))...)
				}
				if val, err := fp.ParseBytes(joined); err == nil && val.Type() == fastjson.TypeObject {
					v := p.fields(val, joined)
					v.orig, v.bytes = st.run[0].line, joined
					add(v)
					p.fix(Fix{Line: st.run[0].line, Code: problem.MalformedLine, Action: "rejoined",
						Detail: fmt.Sprintf("joined lines %d–%d: one JSON object written over several lines", st.run[0].line, n)})
					st.run, st.runBytes = nil, 0
				}
			}
			return
		}
		p.reject(n, code, rec.Raw)
	}
}

func (p *planner) reject(line int, code string, raw []byte) {
	p.rejects = append(p.rejects, rejectRec{line: line, reason: code, raw: append([]byte(nil), raw...)})
	p.res.Rejected++
	if code == problem.NULRun || code == problem.TornTail || code == problem.MalformedLine || code == problem.NonObject {
		p.fix(Fix{Line: line, Code: code, Action: "rejected", Detail: fmt.Sprintf("moved %d bytes to the .rejected.jsonl sidecar", len(raw))})
	}
}

// fields extracts what repair needs from a parsed line, v, whose bytes are
// line (nil: unknown).
func fields(v *fastjson.Value, line []byte) *vline {
	l := &vline{obj: true, refs: map[string]string{}}
	str := func(key string) (string, bool) {
		x := jsonl.Get(v, key)
		if x == nil || x.Type() != fastjson.TypeString {
			return "", false
		}
		b, _ := x.StringBytes()
		return string(b), true
	}
	id := func(key string) (string, bool) { return idKey(v, line, key) }
	l.typ, _ = str("type")
	l.id, l.hasID = id("id")
	l.parent, _ = id("parentId")
	l.header = l.typ == "session" && l.hasID
	switch l.typ {
	case "label":
		if t, ok := id("targetId"); ok {
			l.refs["targetId"] = t
		}
	case "compaction":
		if t, ok := id("firstKeptEntryId"); ok {
			l.refs["firstKeptEntryId"] = t
		}
	case "branch_summary":
		if t, ok := id("fromId"); ok {
			l.refs["fromId"] = t
		}
	}
	return l
}

// idKey is the key of member key of the object line whose bytes are line
// and parsed value v, when it is a string: jsonl.KeyString of its raw
// value, which keeps lone surrogate escapes apart as JSON.parse does (so
// ids "\ud800" and "\ud801" are two ids, and "\ud800" is not the id
// spelled "\\ud800", as fastjson's decoding would make them). Written back
// with jsonl.AppendKeyJSON (vline.render). Without line it decodes v.
func idKey(v *fastjson.Value, line []byte, key string) (string, bool) {
	x := jsonl.Get(v, key)
	if x == nil || x.Type() != fastjson.TypeString {
		return "", false
	}
	b, _ := x.StringBytes()
	if line == nil {
		return string(b), true
	}
	if k, ok := jsonl.ParsedKey(b); ok {
		return k, true
	}
	raw, ok := jsonl.Field(line, key)
	if !ok {
		return "", false
	}
	return jsonl.KeyString(raw)
}

// header makes sure the file starts with a valid header (after omp's title
// slot), moving a later header up or rebuilding one with --rebuild-header.
func (p *planner) header() error {
	first := -1
	for k, v := range p.lines {
		if !v.obj {
			continue
		}
		if k == 0 && v.orig == 1 && v.typ == "title" {
			continue
		}
		first = k
		break
	}
	if first >= 0 && p.lines[first].header {
		return nil
	}
	later := -1
	for k, v := range p.lines {
		if v.header {
			later = k
			break
		}
	}
	if !p.opts.RebuildHeader {
		if later >= 0 {
			return fmt.Errorf("%w: a header is on line %d but other entries come before it; rerun with --rebuild-header to move it to the top", ErrNeedsHeaderRebuild, p.lines[later].orig)
		}
		return fmt.Errorf("%w; rerun with --rebuild-header to rebuild it from the file name and its folder (nothing was changed)", ErrNeedsHeaderRebuild)
	}
	insertAt := 0
	if len(p.lines) > 0 && p.lines[0].orig == 1 && p.lines[0].typ == "title" {
		insertAt = 1
	}
	if later >= 0 {
		h := p.lines[later]
		p.lines = append(p.lines[:later], p.lines[later+1:]...)
		p.lines = append(p.lines[:insertAt], append([]*vline{h}, p.lines[insertAt:]...)...)
		p.fix(Fix{Line: h.orig, Code: problem.MissingHeader, Action: "moved-header", ID: h.id, Detail: fmt.Sprintf("moved the session header from line %d to the top", h.orig)})
		return nil
	}
	h, detail := p.rebuildHeader()
	p.lines = append(p.lines[:insertAt], append([]*vline{h}, p.lines[insertAt:]...)...)
	p.fix(Fix{Code: problem.MissingHeader, Action: "rebuilt-header", ID: h.id, Detail: detail})
	return nil
}

var fileNameRE = regexp.MustCompile(`^(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z)_(.+)\.jsonl$`)

// rebuildHeader makes a header from the file name (<ts>_<id>.jsonl) and the
// cwd recorded by the other sessions in the same folder.
func (p *planner) rebuildHeader() (*vline, string) {
	base := filepath.Base(p.path)
	id, ts := "", ""
	if m := fileNameRE.FindStringSubmatch(base); m != nil {
		id = m[2]
		t, err := time.Parse("2006-01-02T15-04-05-000Z", m[1])
		if err == nil {
			ts = t.UTC().Format("2006-01-02T15:04:05.000Z")
		}
	}
	var notes []string
	if id == "" {
		id = strings.TrimSuffix(base, filepath.Ext(base))
		notes = append(notes, "id from the file name")
	} else {
		notes = append(notes, "id and time from the file name")
	}
	if ts == "" {
		ts = p.opts.now().UTC().Format("2006-01-02T15:04:05.000Z")
		notes = append(notes, "time is now")
	}
	cwd := siblingCwd(p.path)
	if cwd != "" {
		notes = append(notes, "cwd from another session in the same folder")
	} else {
		notes = append(notes, "cwd unknown (empty)")
	}
	hdr := map[string]any{"type": "session", "version": pi.CurrentVersion, "id": id, "timestamp": ts, "cwd": cwd}
	b, _ := json.Marshal(orderedHeader(hdr))
	return &vline{bytes: b, obj: true, typ: "session", id: id, hasID: true, header: true, refs: map[string]string{}},
		"rebuilt the session header (" + strings.Join(notes, "; ") + ")"
}

type headerJSON struct {
	Type      string `json:"type"`
	Version   int    `json:"version"`
	ID        string `json:"id"`
	Timestamp string `json:"timestamp"`
	Cwd       string `json:"cwd"`
}

func orderedHeader(m map[string]any) headerJSON {
	return headerJSON{Type: "session", Version: m["version"].(int), ID: m["id"].(string), Timestamp: m["timestamp"].(string), Cwd: m["cwd"].(string)}
}

func siblingCwd(path string) string {
	dir := filepath.Dir(path)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	for _, e := range ents {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".jsonl") || filepath.Join(dir, e.Name()) == path {
			continue
		}
		f, err := pi.Open(filepath.Join(dir, e.Name()), pi.Options{})
		if err == nil && f.Header != nil && f.Header.Cwd != "" {
			return f.Header.Cwd
		}
	}
	return ""
}

// entries are the lines that are entries (objects after the header, not
// headers themselves).
func (p *planner) entries() []*vline {
	var out []*vline
	seenHeader := false
	for _, v := range p.lines {
		if !v.obj {
			continue
		}
		if !seenHeader {
			if v.header {
				seenHeader = true
			}
			continue
		}
		if v.typ == "session" {
			continue
		}
		out = append(out, v)
	}
	return out
}

func (p *planner) freshID() string {
	r := p.opts.Rand
	if r == nil {
		r = rand.Reader
	}
	for {
		var b [4]byte
		if _, err := io.ReadFull(r, b[:]); err != nil {
			panic(err)
		}
		id := hex.EncodeToString(b[:])
		if !p.ids[id] {
			p.ids[id] = true
			return id
		}
	}
}

func (v *vline) set(key, val string) {
	if v.edits == nil {
		v.edits = map[string]string{}
	}
	v.edits[key] = val
}

// duplicates renames every occurrence of a repeated id but the last, and
// points each reference at the occurrence it meant: the latest one written
// before the referring line (files are append-only).
func (p *planner) duplicates() {
	es := p.entries()
	for _, e := range es {
		if e.hasID {
			p.ids[e.id] = true
		}
	}
	count := map[string]int{}
	for _, e := range es {
		if e.hasID {
			count[e.id]++
		}
	}
	if !anyDup(count) {
		return
	}
	seen := map[string]int{}
	latest := map[string]string{} // id → current name of its latest occurrence so far
	for _, e := range es {
		// references first: they mean occurrences written before this line
		if e.parent != "" && count[e.parent] > 1 {
			if cur, ok := latest[e.parent]; ok && cur != e.parent {
				e.set("parentId", cur)
				p.fix(Fix{Line: e.orig, Code: problem.DuplicateID, Action: "relinked", ID: e.id, Detail: fmt.Sprintf("parentId %s → %s (the renamed earlier entry it was written under)", e.parent, cur)})
				e.parent = cur
			}
		}
		for k, ref := range e.refs {
			if count[ref] > 1 {
				if cur, ok := latest[ref]; ok && cur != ref {
					e.set(k, cur)
					e.refs[k] = cur
					p.fix(Fix{Line: e.orig, Code: problem.DuplicateID, Action: "relinked", ID: e.id, Detail: fmt.Sprintf("%s %s → %s", k, ref, cur)})
				}
			}
		}
		if !e.hasID || count[e.id] < 2 {
			continue
		}
		seen[e.id]++
		if seen[e.id] < count[e.id] {
			old := e.id
			nid := p.freshID()
			e.set("id", nid)
			e.id = nid
			latest[old] = nid
			p.fix(Fix{Line: e.orig, Code: problem.DuplicateID, Action: "renamed-id", ID: nid, Detail: fmt.Sprintf("id %s → %s (a later entry keeps %s)", old, nid, old)})
		} else {
			latest[e.id] = e.id
		}
	}
}

func anyDup(c map[string]int) bool {
	for _, n := range c {
		if n > 1 {
			return true
		}
	}
	return false
}

// relink gives self-parents, orphans and cycle members a parent that exists:
// for pi's dropped-label fork bug the label's own parent, otherwise the
// previous entry in file order that is not below them; cycles are broken at
// the entry whose parent comes latest in file order.
func (p *planner) relink() {
	es := p.entries()
	pos := map[string]int{}
	for k, e := range es {
		if e.hasID {
			pos[e.id] = k
		}
	}
	parentOf := func(k int) int {
		e := es[k]
		if e.parent == "" {
			return -1
		}
		if j, ok := pos[e.parent]; ok {
			return j
		}
		return -2 // missing
	}
	isBelow := func(cand, k int) bool { // is cand k itself or a descendant of k?
		seen := map[int]bool{}
		for c := cand; c >= 0 && !seen[c]; c = parentOf(c) {
			if c == k {
				return true
			}
			seen[c] = true
		}
		return false
	}
	target := func(k int) string {
		for c := k - 1; c >= 0; c-- {
			if es[c].hasID && !isBelow(c, k) {
				return es[c].id
			}
		}
		return ""
	}
	labelParents := p.droppedLabelParents()
	setParent := func(k int, np, code, why string) {
		e := es[k]
		old := e.parent
		e.parent = np
		if np == "" {
			e.set("parentId", "\x00null")
		} else {
			e.set("parentId", np)
		}
		to := np
		if to == "" {
			to = "null (a new root)"
		}
		p.fix(Fix{Line: e.orig, Code: code, Action: "relinked", ID: e.id, Detail: fmt.Sprintf("parentId %s → %s (%s)", old, to, why)})
	}
	// why tells where target put an entry.
	why := func(np string) string {
		if np == "" {
			return "no earlier entry to hang it on, so it becomes a new root"
		}
		return "now the previous entry in file order"
	}
	for k, e := range es {
		switch pk := parentOf(k); {
		case pk == k:
			if !p.reported(e, problem.SelfParent) {
				continue
			}
			np := target(k)
			setParent(k, np, problem.SelfParent, "was its own parent; "+why(np))
		case pk == -2:
			// check reports on the file as it is; an entry it finds no
			// fault with is left as it is
			if !p.reported(e, problem.Orphan, pi.CodeDroppedLabelParent) {
				continue
			}
			if lp, ok := labelParents[e.parent]; ok {
				if j, ok := pos[lp]; ok && !isBelow(j, k) {
					setParent(k, lp, pi.CodeDroppedLabelParent, "the parent of the label entry the fork dropped")
					continue
				}
			}
			np := target(k)
			setParent(k, np, problem.Orphan, "parent missing; "+why(np))
		}
	}
	// Break cycles until none is left.
	for guard := 0; guard <= len(es); guard++ {
		cyc := findCycle(len(es), parentOf)
		if cyc == nil {
			return
		}
		pick, latest := cyc[0], -1
		for _, k := range cyc {
			if pk := parentOf(k); pk > latest {
				pick, latest = k, pk
			}
		}
		np := target(pick)
		setParent(pick, np, problem.Cycle, "broke a parent cycle at the entry whose parent comes latest in the file; "+why(np))
	}
}

func findCycle(n int, parentOf func(int) int) []int {
	state := make([]uint8, n)
	for s := 0; s < n; s++ {
		if state[s] != 0 {
			continue
		}
		var walk []int
		v := s
		for v >= 0 && state[v] == 0 {
			state[v] = 1
			walk = append(walk, v)
			v = parentOf(v)
		}
		if v >= 0 && state[v] == 1 {
			for i, w := range walk {
				if w == v {
					return walk[i:]
				}
			}
		}
		for _, w := range walk {
			state[w] = 2
		}
	}
	return nil
}

// droppedLabelParents maps label ids of the parent session (for files that
// are pi forks) to the label's own parent.
func (p *planner) droppedLabelParents() map[string]string {
	out := map[string]string{}
	if p.src.Header == nil || p.src.Header.ParentSession == "" {
		return out
	}
	src := p.src.Header.ParentSession
	if !filepath.IsAbs(src) {
		src = filepath.Join(filepath.Dir(p.path), src)
	}
	parent, err := pi.Open(src, pi.Options{})
	if err != nil || parent.HeaderErr != nil {
		return out
	}
	for i, e := range parent.Entries {
		if e.Type() == "label" {
			n := parent.Index.Node(i)
			out[n.ID] = n.Parent
		}
	}
	return out
}

// remaining keeps the problems repair does not fix (warnings and infos are
// reported, not changed).
func remaining(ps []problem.Problem) []problem.Problem {
	out := []problem.Problem{}
	for _, p := range ps {
		out = append(out, p)
	}
	return out
}
