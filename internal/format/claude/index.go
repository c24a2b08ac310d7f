// Package claude reads Claude Code session transcripts
// (~/.claude/projects/<encoded-cwd>/<session-uuid>.jsonl and their subagent
// files), read-only.
//
// Open makes one streaming pass over a transcript and keeps a small index per
// line (offset, length, line number, type, uuid, parentUuid,
// logicalParentUuid, isSidechain, message.id, timestamp, subtype and a few
// flags) plus the last value of the session metadata lines. Payloads are never
// kept: Chain decodes only the lines it returns, by ReadAt.
//
// The graph follows Claude Code's loader: user, assistant, attachment and
// system lines with a uuid are chain members; legacy progress lines are
// bridged over (a member whose parent is a progress line hangs on the
// nearest non-progress ancestor, in any file order); a duplicate uuid keeps
// its first position and takes the later value; assistant lines that share
// message.id are one turn. Leaf selection offers the loader's modes (see
// LeafMode) and reports when they disagree.
package claude

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/valyala/fastjson"
)

// Size thresholds Claude Code uses (bytes).
const (
	// PrecompactSkipBytes is the size above which Claude Code's loader drops
	// everything before the last compact boundary without a preserved
	// segment and walks the chain at byte level.
	PrecompactSkipBytes = 5 << 20
	// MaxRewriteBytes is the size above which Claude Code refuses full
	// rewrites, transcript sharing and (before 2.1.116) /branch.
	MaxRewriteBytes = 50 << 20
)

// Entry types with a meaning for the graph.
const (
	TypeUser       = "user"
	TypeAssistant  = "assistant"
	TypeAttachment = "attachment"
	TypeSystem     = "system"
	TypeProgress   = "progress"
	TypeSummary    = "summary"
	TypeLastPrompt = "last-prompt"
)

// SubtypeCompactBoundary is the system subtype of a compaction boundary.
const SubtypeCompactBoundary = "compact_boundary"

const noTS = math.MinInt64

// line flags
const (
	fSidechain uint16 = 1 << iota
	fMeta
	fCompactSummary
	fPreserved   // compact boundary with compactMetadata.preservedSegment
	fAPIError    // isApiErrorMessage or system api_error
	fToolUse     // assistant line with at least one tool_use block
	fToolResult  // user line with at least one tool_result block
	fAgentCall   // assistant line with a Task/Agent tool_use
	fHasUUID     // the line carries a non-empty uuid
	fHasParent   // parentUuid is a non-empty string
	fThinking    // assistant line whose blocks are all thinking
	fVisibleOnly // isVisibleInTranscriptOnly
)

// lineRec is the index of one physical line. It holds no payload.
type lineRec struct {
	off    int64
	ts     int64 // unix milliseconds or noTS
	n      int32 // bytes on disk (newline included) when it fits; see big
	ln     int32 // 1-based line number
	typ    uint16
	sub    uint16
	flags  uint16
	kind   jsonl.Kind
	uuid   int32 // id number or -1
	parent int32 // id number or -1
	lpar   int32 // logicalParentUuid id number or -1
	msgID  int32 // message.id number or -1
}

// Problem is one finding about a file, with a stable code.
type Problem struct {
	Code string `json:"code"`
	Line int    `json:"line,omitempty"`
	UUID string `json:"uuid,omitempty"`
	Msg  string `json:"message"`
}

// Problem codes (stable; check and --json consumers rely on them).
const (
	ProbTornTail        = "torn-tail"
	ProbNULRun          = "nul-run"
	ProbBOM             = "bom"
	ProbCRLF            = "crlf"
	ProbMalformed       = "malformed-line"
	ProbNonObject       = "non-object-line"
	ProbMissingUUID     = "missing-uuid"
	ProbDuplicateUUID   = "duplicate-uuid"
	ProbSelfParent      = "self-parent"
	ProbCycle           = "cycle"
	ProbDanglingParent  = "dangling-parent"
	ProbLegacyProgress  = "legacy-progress-in-chain"
	ProbProgressForward = "progress-bridge-forward" // parent progress line appears later in the file
	ProbLeafDisagree    = "leaf-mode-disagreement"
	ProbOver5MB         = "file-over-5mb"
	ProbOver50MB        = "file-over-50mb"
	ProbSummaryElse     = "summary-leaf-elsewhere"
	ProbSessionMismatch = "session-id-mismatch"
	ProbEmpty           = "no-messages"
)

// Metadata holds the last value of each session metadata line (last one wins).
type Metadata struct {
	CustomTitle    string `json:"customTitle,omitempty"`
	HasCustomTitle bool   `json:"-"`
	AITitle        string `json:"aiTitle,omitempty"`
	LastPrompt     string `json:"lastPrompt,omitempty"`
	Tag            string `json:"tag,omitempty"`
	AgentName      string `json:"agentName,omitempty"`
	Mode           string `json:"mode,omitempty"`
	// Summaries maps a summary's leafUuid to its text (last one wins).
	Summaries map[string]string `json:"summaries,omitempty"`
	// Counts counts metadata lines by type (re-appends included).
	Counts map[string]int `json:"counts,omitempty"`

	lastSummary string // text of the last summary line with text
}

// recordedLeaf is the state the last-prompt lines leave behind.
type recordedLeaf struct {
	leaf     string
	explicit bool
	cleared  bool
	line     int
}

// File is the index of one transcript.
type File struct {
	Path string
	Size int64

	ra      io.ReaderAt
	closer  io.Closer
	lines   []lineRec
	big     map[int32]int64 // line index -> length for lines over 2 GiB
	names   []string        // type/subtype names
	nameIdx map[string]uint16
	ids     idTable // uuids
	msgIDs  idTable // message.id values

	// graph over node numbers (one per distinct uuid of a chain member or
	// progress line, numbered in order of first occurrence)
	nodeOf   []int32 // id number -> node number or -1
	nFirst   []int32 // node -> line of first occurrence
	nLast    []int32 // node -> line of the value (last occurrence)
	member   []bool  // node is a chain member (not progress)
	parent   []int32 // node -> effective parent node (-1 none); progress bridged
	effPar   []int32 // node -> effective parent id number (-1 none); may dangle
	kidStart []int32 // CSR rows of children, in file order
	kidList  []int32
	inCycle  []bool
	cycles   [][]int32

	// relink state of the last compact boundary with a preserved segment
	relink *relinkState

	toolUse     map[string]int32 // tool_use id -> line (assistant)
	toolResHold map[int32]int32  // tool_result line -> line holding the tool_use
	agentTool   map[string]string
	pendingRes  []pendingResult

	Meta       Metadata
	recorded   recordedLeaf
	sessionIDs []string
	firstCwd   string
	firstTS    int64
	lastTS     int64
	bom        bool
	sideOnly   bool
	top        top             // scratch for scan
	pparser    fastjson.Parser // for Preview (a File is not safe for concurrent use)
	skipLine   int32           // line index before which the >5 MB loader parses nothing, or -1
	choice     *LeafChoice
	problems   []Problem
	counts     map[string]int
}

type pendingResult struct {
	line int32
	id   string
}

// idTable interns strings to dense numbers.
type idTable struct {
	m map[string]int32
	s []string
}

func (t *idTable) intern(b []byte) int32 {
	if i, ok := t.m[string(b)]; ok {
		return i
	}
	if t.m == nil {
		t.m = make(map[string]int32)
	}
	s := string(b)
	i := int32(len(t.s))
	t.m[s] = i
	t.s = append(t.s, s)
	return i
}

func (t *idTable) lookup(s string) int32 {
	if i, ok := t.m[s]; ok {
		return i
	}
	return -1
}

func (t *idTable) str(i int32) string {
	if i < 0 {
		return ""
	}
	return t.s[i]
}

// Open indexes the transcript at path. The file stays open for Chain and
// friends until Close.
func Open(path string) (*File, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := fh.Stat()
	if err != nil {
		fh.Close()
		return nil, err
	}
	if st.IsDir() {
		fh.Close()
		return nil, fmt.Errorf("%s is a directory", path)
	}
	f, err := Read(fh, st.Size())
	if err != nil {
		fh.Close()
		return nil, err
	}
	f.Path = path
	f.ra = fh
	f.closer = fh
	f.checkSessionName()
	return f, nil
}

// Read indexes a transcript from r (size bytes, used for size problems; pass
// -1 if unknown). If r is an io.ReaderAt, lines can be decoded later;
// otherwise only the index is available.
func Read(r io.Reader, size int64) (*File, error) {
	f := &File{
		Size:     size,
		skipLine: -1,
		nameIdx:  map[string]uint16{},
		names:    []string{""},
		firstTS:  noTS,
		lastTS:   noTS,
		counts:   map[string]int{},
	}
	if ra, ok := r.(io.ReaderAt); ok {
		f.ra = ra
	}
	hint := 64
	if size > 0 {
		hint = int(min(size/2048, 1<<24)) // about one record per 2 KB
		f.lines = make([]lineRec, 0, hint)
	}
	f.ids.m = make(map[string]int32, hint)
	rd := jsonl.NewReader(r)
	for rd.Next() {
		f.scan(rd.Record())
	}
	if err := rd.Err(); err != nil {
		return nil, err
	}
	f.finish()
	return f, nil
}

// Close closes the underlying file (if Open opened it).
func (f *File) Close() error {
	if f.closer != nil {
		return f.closer.Close()
	}
	return nil
}

func (f *File) name(b []byte) uint16 {
	if len(b) == 0 {
		return 0
	}
	if i, ok := f.nameIdx[string(b)]; ok {
		return i
	}
	if len(f.names) >= math.MaxUint16 {
		return f.name([]byte("(other)"))
	}
	i := uint16(len(f.names))
	s := string(b)
	f.names = append(f.names, s)
	f.nameIdx[s] = i
	return i
}

func (f *File) addProblem(code string, line int, uuid, msg string, args ...any) {
	if len(args) > 0 {
		msg = fmt.Sprintf(msg, args...)
	}
	f.problems = append(f.problems, Problem{Code: code, Line: line, UUID: uuid, Msg: msg})
}

func strBytes(v *fastjson.Value, keys ...string) []byte {
	x := v.Get(keys...)
	if x == nil || x.Type() != fastjson.TypeString {
		return nil
	}
	b, _ := x.StringBytes()
	return b
}

func boolField(v *fastjson.Value, key string) bool {
	x := v.Get(key)
	return x != nil && x.Type() == fastjson.TypeTrue
}

// scan indexes one record.
func (f *File) scan(rec *jsonl.Record) {
	lr := lineRec{off: rec.Offset, ln: int32(rec.Line), kind: rec.Kind, ts: noTS,
		uuid: -1, parent: -1, lpar: -1, msgID: -1}
	n := rec.Len()
	if n > math.MaxInt32 {
		if f.big == nil {
			f.big = map[int32]int64{}
		}
		f.big[int32(len(f.lines))] = n
	} else {
		lr.n = int32(n)
	}
	if rec.BOM {
		f.bom = true
		f.addProblem(ProbBOM, rec.Line, "", "line 1 starts with a UTF-8 byte order mark")
	}
	switch rec.Kind {
	case jsonl.Blank:
		f.lines = append(f.lines, lr)
		return
	case jsonl.Malformed:
		f.addProblem(ProbMalformed, rec.Line, "", "line is not valid JSON (%d bytes); Claude Code skips it", len(rec.Raw))
		f.lines = append(f.lines, lr)
		return
	case jsonl.NonObject:
		f.addProblem(ProbNonObject, rec.Line, "", "line is JSON but not an object")
		f.lines = append(f.lines, lr)
		return
	case jsonl.NULRun:
		f.addProblem(ProbNULRun, rec.Line, "", "line contains NUL bytes (%d bytes), typical of a crash or pre-allocated tail", len(rec.Raw))
		f.lines = append(f.lines, lr)
		return
	case jsonl.TornTail:
		f.addProblem(ProbTornTail, rec.Line, "", "last line has no newline and does not parse (%d bytes): a torn write", len(rec.Raw))
		f.lines = append(f.lines, lr)
		return
	}
	if rec.CRLF && f.counts["crlf"] == 0 {
		f.addProblem(ProbCRLF, rec.Line, "", "line ends with CRLF (Claude Code writes LF)")
	}
	if rec.CRLF {
		f.counts["crlf"]++
	}
	tp := &f.top
	*tp = top{}
	if o, err := rec.Value.Object(); err == nil {
		o.Visit(tp.visit)
	}
	typ := tp.str(kType)
	lr.typ = f.name(typ)
	ts := tp.str(kTimestamp)
	if len(ts) > 0 {
		lr.ts = parseTS(ts)
		if lr.ts != noTS {
			if f.firstTS == noTS || lr.ts < f.firstTS {
				f.firstTS = lr.ts
			}
			if f.lastTS == noTS || lr.ts > f.lastTS {
				f.lastTS = lr.ts
			}
		}
	}
	idx := int32(len(f.lines))
	t := string(typ) // no allocation for the comparisons below
	switch t {
	case TypeUser, TypeAssistant, TypeAttachment, TypeSystem, TypeProgress:
		f.scanMessage(tp, &lr, idx, t)
	default:
		f.scanMeta(tp, &lr, t)
	}
	f.lines = append(f.lines, lr)
}

func (f *File) scanMessage(tp *top, lr *lineRec, idx int32, t string) {
	if u := tp.str(kUuid); len(u) > 0 {
		lr.uuid = f.ids.intern(u)
		lr.flags |= fHasUUID
	} else if t != TypeProgress {
		f.addProblem(ProbMissingUUID, int(lr.ln), "", "%s line has no uuid; Claude Code does not load it", t)
	}
	if p := tp.str(kParentUuid); len(p) > 0 {
		lr.parent = f.ids.intern(p)
		lr.flags |= fHasParent
	}
	if p := tp.str(kLogicalParentUuid); len(p) > 0 {
		lr.lpar = f.ids.intern(p)
	}
	if tp.isTrue(kIsSidechain) {
		lr.flags |= fSidechain
	}
	if tp.isTrue(kIsMeta) {
		lr.flags |= fMeta
	}
	if tp.isTrue(kIsCompactSummary) {
		lr.flags |= fCompactSummary
	}
	if tp.isTrue(kIsVisibleInTranscriptOnly) {
		lr.flags |= fVisibleOnly
	}
	if tp.isTrue(kIsApiErrorMessage) {
		lr.flags |= fAPIError
	}
	if sid := tp.str(kSessionId); len(sid) > 0 && len(f.sessionIDs) < 16 {
		found := false
		for _, s := range f.sessionIDs {
			if s == string(sid) {
				found = true
				break
			}
		}
		if !found {
			f.sessionIDs = append(f.sessionIDs, string(sid))
		}
	}
	if f.firstCwd == "" {
		if c := tp.str(kCwd); len(c) > 0 {
			f.firstCwd = string(c)
		}
	}
	switch t {
	case TypeSystem:
		sub := tp.str(kSubtype)
		lr.sub = f.name(sub)
		switch string(sub) {
		case SubtypeCompactBoundary:
			if x := tp.v[kCompactMetadata].Get("preservedSegment"); x != nil && x.Type() == fastjson.TypeObject {
				lr.flags |= fPreserved
			}
			if x := tp.v[kCompactMetadata].Get("preservedMessages"); x != nil && x.Type() == fastjson.TypeObject {
				lr.flags |= fPreserved
			}
			// a boundary wipes the leaf recorded by earlier last-prompt lines
			f.recorded.leaf = ""
			f.recorded.explicit = false
		case "api_error":
			lr.flags |= fAPIError
		}
	case TypeAssistant:
		if id := strBytes(tp.v[kMessage], "id"); len(id) > 0 {
			lr.msgID = f.msgIDs.intern(id)
		}
		blocks := tp.v[kMessage].GetArray("content")
		onlyThinking := len(blocks) > 0
		for _, b := range blocks {
			bt := string(strBytes(b, "type"))
			if bt != "thinking" && bt != "redacted_thinking" {
				onlyThinking = false
			}
			if bt != "tool_use" {
				continue
			}
			lr.flags |= fToolUse
			id := strBytes(b, "id")
			if len(id) == 0 {
				continue
			}
			if f.toolUse == nil {
				f.toolUse = map[string]int32{}
			}
			if _, dup := f.toolUse[string(id)]; !dup {
				f.toolUse[string(id)] = idx
			}
			switch string(strBytes(b, "name")) {
			case "Task", "Agent":
				lr.flags |= fAgentCall
			}
		}
		if onlyThinking {
			lr.flags |= fThinking
		}
	case TypeUser:
		c := tp.v[kMessage].Get("content")
		if c != nil && c.Type() == fastjson.TypeArray {
			for _, b := range c.GetArray() {
				if string(strBytes(b, "type")) != "tool_result" {
					continue
				}
				lr.flags |= fToolResult
				id := strBytes(b, "tool_use_id")
				if len(id) > 0 {
					if lr.flags&fHasUUID != 0 && len(f.pendingRes) < math.MaxInt32 {
						f.pendingRes = append(f.pendingRes, pendingResult{line: idx, id: string(id)})
					}
					if ag := strBytes(tp.v[kToolUseResult], "agentId"); len(ag) > 0 {
						if f.agentTool == nil {
							f.agentTool = map[string]string{}
						}
						f.agentTool[string(ag)] = string(id)
					}
				}
				break
			}
		}
	}
}

func (f *File) scanMeta(tp *top, lr *lineRec, t string) {
	if t == "" {
		f.counts["(no type)"]++
		return
	}
	if f.Meta.Counts == nil {
		f.Meta.Counts = map[string]int{}
	}
	f.Meta.Counts[t]++
	switch t {
	case TypeSummary:
		leaf := tp.str(kLeafUuid)
		if f.Meta.Summaries == nil {
			f.Meta.Summaries = map[string]string{}
		}
		f.Meta.Summaries[string(leaf)] = string(tp.str(kSummary))
		if t := tp.str(kSummary); len(t) > 0 {
			f.Meta.lastSummary = string(t)
		}
	case "task-summary":
		if t := tp.str(kSummary); len(t) > 0 {
			f.Meta.lastSummary = string(t)
		}
	case "custom-title":
		f.Meta.CustomTitle = string(tp.str(kCustomTitle))
		f.Meta.HasCustomTitle = true
	case "ai-title":
		f.Meta.AITitle = string(tp.str(kAiTitle))
	case "tag":
		f.Meta.Tag = string(tp.str(kTag))
	case "agent-name":
		f.Meta.AgentName = string(tp.str(kAgentName))
	case "mode":
		f.Meta.Mode = string(tp.str(kMode))
	case TypeLastPrompt:
		if p := tp.str(kLastPrompt); p != nil {
			f.Meta.LastPrompt = string(p)
		}
		leaf := tp.str(kLeafUuid)
		explicit := tp.isTrue(kExplicit)
		switch {
		case len(leaf) > 0:
			f.recorded.explicit = explicit || (f.recorded.explicit && f.recorded.leaf == string(leaf))
			f.recorded.leaf = string(leaf)
			f.recorded.cleared = false
			f.recorded.line = int(lr.ln)
		case explicit:
			f.recorded = recordedLeaf{cleared: true, line: int(lr.ln)}
		}
	}
}

// top-level keys the index reads
const (
	kType = iota
	kTimestamp
	kUuid
	kParentUuid
	kLogicalParentUuid
	kIsSidechain
	kIsMeta
	kIsCompactSummary
	kIsVisibleInTranscriptOnly
	kIsApiErrorMessage
	kSessionId
	kCwd
	kSubtype
	kCompactMetadata
	kMessage
	kToolUseResult
	kLeafUuid
	kSummary
	kCustomTitle
	kAiTitle
	kTag
	kAgentName
	kMode
	kLastPrompt
	kExplicit
	nTopKeys
)

// top holds the top-level values of one line, the last occurrence of a
// repeated key winning as in JSON.parse.
type top struct{ v [nTopKeys]*fastjson.Value }

func (t *top) visit(k []byte, x *fastjson.Value) {
	switch string(k) {
	case "type":
		t.v[kType] = x
	case "timestamp":
		t.v[kTimestamp] = x
	case "uuid":
		t.v[kUuid] = x
	case "parentUuid":
		t.v[kParentUuid] = x
	case "logicalParentUuid":
		t.v[kLogicalParentUuid] = x
	case "isSidechain":
		t.v[kIsSidechain] = x
	case "isMeta":
		t.v[kIsMeta] = x
	case "isCompactSummary":
		t.v[kIsCompactSummary] = x
	case "isVisibleInTranscriptOnly":
		t.v[kIsVisibleInTranscriptOnly] = x
	case "isApiErrorMessage":
		t.v[kIsApiErrorMessage] = x
	case "sessionId":
		t.v[kSessionId] = x
	case "cwd":
		t.v[kCwd] = x
	case "subtype":
		t.v[kSubtype] = x
	case "compactMetadata":
		t.v[kCompactMetadata] = x
	case "message":
		t.v[kMessage] = x
	case "toolUseResult":
		t.v[kToolUseResult] = x
	case "leafUuid":
		t.v[kLeafUuid] = x
	case "summary":
		t.v[kSummary] = x
	case "customTitle":
		t.v[kCustomTitle] = x
	case "aiTitle":
		t.v[kAiTitle] = x
	case "tag":
		t.v[kTag] = x
	case "agentName":
		t.v[kAgentName] = x
	case "mode":
		t.v[kMode] = x
	case "lastPrompt":
		t.v[kLastPrompt] = x
	case "explicit":
		t.v[kExplicit] = x
	}
}

func (t *top) str(k int) []byte {
	x := t.v[k]
	if x == nil || x.Type() != fastjson.TypeString {
		return nil
	}
	b, _ := x.StringBytes()
	return b
}

func (t *top) isTrue(k int) bool { return t.v[k] != nil && t.v[k].Type() == fastjson.TypeTrue }

// parseTS parses an RFC 3339 timestamp to unix milliseconds (noTS if invalid).
func parseTS(b []byte) int64 {
	if ms, ok := fastTS(b); ok {
		return ms
	}
	t, err := parseTime(string(b))
	if err != nil {
		return noTS
	}
	return t.UnixMilli()
}

// fastTS parses the common shape 2025-09-03T00:52:31.217Z.
func fastTS(b []byte) (int64, bool) {
	if len(b) != 24 || b[4] != '-' || b[7] != '-' || b[10] != 'T' || b[13] != ':' || b[16] != ':' || b[19] != '.' || b[23] != 'Z' {
		return 0, false
	}
	num := func(s []byte) (int, bool) {
		n := 0
		for _, c := range s {
			if c < '0' || c > '9' {
				return 0, false
			}
			n = n*10 + int(c-'0')
		}
		return n, true
	}
	y, ok1 := num(b[0:4])
	mo, ok2 := num(b[5:7])
	d, ok3 := num(b[8:10])
	h, ok4 := num(b[11:13])
	mi, ok5 := num(b[14:16])
	s, ok6 := num(b[17:19])
	ms, ok7 := num(b[20:23])
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6 && ok7) || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60 {
		return 0, false
	}
	days := daysFromCivil(y, mo, d)
	return ((days*24+int64(h))*60+int64(mi))*60000 + int64(s)*1000 + int64(ms), true
}

// daysFromCivil returns days since 1970-01-01 (proleptic Gregorian).
func daysFromCivil(y, m, d int) int64 {
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 && y%400 != 0 {
		era = (y - 399) / 400
	}
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return int64(era)*146097 + int64(doe) - 719468
}

// finish builds the graph after the last line.
func (f *File) finish() {
	f.top = top{} // drop pointers into the reader's parser
	nIDs := len(f.ids.s)
	f.nodeOf = make([]int32, nIDs)
	for i := range f.nodeOf {
		f.nodeOf[i] = -1
	}
	// nodes in order of first occurrence; value = last occurrence
	for li := range f.lines {
		lr := &f.lines[li]
		if lr.uuid < 0 || !f.isGraphType(lr.typ) {
			continue
		}
		if nd := f.nodeOf[lr.uuid]; nd >= 0 {
			f.nLast[nd] = int32(li)
			first := f.lines[f.nFirst[nd]]
			f.addProblem(ProbDuplicateUUID, int(lr.ln), f.ids.str(lr.uuid),
				"uuid also on line %d; Claude Code keeps the first position and this later value", first.ln)
			continue
		}
		nd := int32(len(f.nFirst))
		f.nodeOf[lr.uuid] = nd
		f.nFirst = append(f.nFirst, int32(li))
		f.nLast = append(f.nLast, int32(li))
	}
	nn := len(f.nFirst)
	f.member = make([]bool, nn)
	for nd := 0; nd < nn; nd++ {
		f.member[nd] = f.typeName(f.nLast[nd]) != TypeProgress
	}
	// progress bridge: effective parent id of every node
	f.effPar = make([]int32, nn)
	bridge := make([]int32, nn) // for progress nodes: resolved id (-2 = not yet)
	for i := range bridge {
		bridge[i] = -2
	}
	var resolve func(nd int32) int32
	resolve = func(nd int32) int32 {
		// iterative resolution through runs of progress nodes with a cycle guard
		var stack []int32
		cur := nd
		var out int32
		for steps := 0; ; steps++ {
			if bridge[cur] != -2 {
				out = bridge[cur]
				break
			}
			if steps > nn {
				out = -1
				break
			}
			bridge[cur] = -3 // in progress (cycle guard)
			stack = append(stack, cur)
			p := f.lines[f.nLast[cur]].parent
			if p < 0 {
				out = -1
				break
			}
			pn := f.nodeOf[p]
			if pn < 0 || f.member[pn] {
				out = p
				break
			}
			if bridge[pn] == -3 { // progress cycle
				out = -1
				break
			}
			cur = pn
		}
		if out == -3 {
			out = -1
		}
		for _, s := range stack {
			bridge[s] = out
		}
		return out
	}
	progressInChain := 0
	firstProgressLine := 0
	for nd := int32(0); int(nd) < nn; nd++ {
		lr := &f.lines[f.nLast[nd]]
		p := lr.parent
		f.effPar[nd] = p
		if p < 0 {
			continue
		}
		pn := f.nodeOf[p]
		if pn >= 0 && !f.member[pn] {
			f.effPar[nd] = resolve(pn)
			if f.member[nd] {
				progressInChain++
				if firstProgressLine == 0 {
					firstProgressLine = int(lr.ln)
				}
				if f.nFirst[pn] > f.nLast[nd] {
					f.addProblem(ProbProgressForward, int(lr.ln), f.ids.str(lr.uuid),
						"parent is a progress line written later (line %d); Claude Code 2.1.85's single-pass bridge loses this link", f.lines[f.nFirst[pn]].ln)
				}
			}
		}
	}
	if progressInChain > 0 {
		f.addProblem(ProbLegacyProgress, firstProgressLine, "",
			"%d messages hang on legacy progress lines (bridged to the nearest non-progress ancestor)", progressInChain)
	}
	// parents and children among members
	f.parent = make([]int32, nn)
	counts := make([]int32, nn)
	for nd := 0; nd < nn; nd++ {
		f.parent[nd] = -1
		if !f.member[nd] || f.effPar[nd] < 0 {
			continue
		}
		pn := f.nodeOf[f.effPar[nd]]
		if pn < 0 || !f.member[pn] {
			lr := f.lines[f.nLast[nd]]
			f.addProblem(ProbDanglingParent, int(lr.ln), f.ids.str(lr.uuid),
				"parentUuid %s names no record in this file; the chain is cut here", f.ids.str(f.effPar[nd]))
			continue
		}
		f.parent[nd] = pn
		if pn == int32(nd) {
			lr := f.lines[f.nLast[nd]]
			f.addProblem(ProbSelfParent, int(lr.ln), f.ids.str(lr.uuid), "record names itself as parent")
			continue
		}
		counts[pn]++
	}
	// children in compressed rows: kidList[kidStart[nd]:kidStart[nd+1]]
	f.kidStart = make([]int32, nn+1)
	for nd := 0; nd < nn; nd++ {
		f.kidStart[nd+1] = f.kidStart[nd] + counts[nd]
	}
	f.kidList = make([]int32, f.kidStart[nn])
	fill := make([]int32, nn)
	for nd := 0; nd < nn; nd++ {
		p := f.parent[nd]
		if p >= 0 && p != int32(nd) {
			f.kidList[f.kidStart[p]+fill[p]] = int32(nd)
			fill[p]++
		}
	}
	f.findCycles()
	for _, c := range f.cycles {
		lr := f.lines[f.nLast[c[0]]]
		f.addProblem(ProbCycle, int(lr.ln), f.ids.str(lr.uuid), "parentUuid cycle of %d records", len(c))
	}
	// tool results -> assistant line holding the tool_use
	for _, pr := range f.pendingRes {
		if h, ok := f.toolUse[pr.id]; ok {
			if f.toolResHold == nil {
				f.toolResHold = map[int32]int32{}
			}
			f.toolResHold[pr.line] = h
		}
	}
	f.pendingRes = nil
	// summaries whose leaf is not in this file
	for leaf := range f.Meta.Summaries {
		if f.nodeByUUID(leaf) < 0 {
			f.addProblem(ProbSummaryElse, 0, leaf, "summary line names leaf %s, which is not in this file (older CLIs appended the previous session's summary here)", leaf)
		}
	}
	if f.Size > MaxRewriteBytes {
		f.addProblem(ProbOver50MB, 0, "", "file is %d bytes, over 50 MB: Claude Code refuses full rewrites and sharing", f.Size)
	} else if f.Size > PrecompactSkipBytes {
		f.addProblem(ProbOver5MB, 0, "", "file is %d bytes, over 5 MB: Claude Code skips pre-compaction history and walks the chain by bytes", f.Size)
	}
	if nn == 0 {
		f.addProblem(ProbEmpty, 0, "", "no transcript messages")
	}
	f.sideOnly = f.SidechainOnly()
	f.skipLine = -1
	if f.Size > PrecompactSkipBytes {
		// Claude Code reads files over 5 MB forward and drops every byte
		// before the last compact boundary that has no preserved segment.
		for li := len(f.lines) - 1; li >= 0; li-- {
			lr := &f.lines[li]
			if lr.kind == jsonl.Object && f.names[lr.typ] == TypeSystem && f.names[lr.sub] == SubtypeCompactBoundary {
				if lr.flags&fPreserved == 0 {
					f.skipLine = int32(li)
				}
				break
			}
		}
	}
	f.relink = f.computeRelink()
	sortProblems(f.problems)
}

func (f *File) checkSessionName() {
	base := strings.TrimSuffix(filepath.Base(f.Path), ".jsonl")
	if !isUUID(base) {
		return
	}
	for _, s := range f.sessionIDs {
		if s != base {
			f.addProblem(ProbSessionMismatch, 0, "", "file holds lines of session %s (fork/resume copies keep the source id)", s)
			sortProblems(f.problems)
			return
		}
	}
}

func (f *File) findCycles() {
	nn := len(f.parent)
	f.inCycle = make([]bool, nn)
	state := make([]uint8, nn)
	var walk []int32
	for s := 0; s < nn; s++ {
		if state[s] != 0 || !f.member[s] {
			continue
		}
		walk = walk[:0]
		v := int32(s)
		for v >= 0 && state[v] == 0 {
			state[v] = 1
			walk = append(walk, v)
			p := f.parent[v]
			if p == v {
				break
			}
			v = p
		}
		if v >= 0 && state[v] == 1 && f.parent[v] != v {
			var cyc []int32
			for k := len(walk) - 1; k >= 0; k-- {
				cyc = append(cyc, walk[k])
				if walk[k] == v {
					break
				}
			}
			// cyc runs parent -> child; start from the earliest node in file order
			mi := 0
			for i := range cyc {
				if cyc[i] < cyc[mi] {
					mi = i
				}
			}
			cyc = append(cyc[mi:], cyc[:mi]...)
			for _, c := range cyc {
				f.inCycle[c] = true
			}
			f.cycles = append(f.cycles, cyc)
		}
		for _, w := range walk {
			state[w] = 2
		}
	}
}

func (f *File) isGraphType(t uint16) bool {
	switch f.names[t] {
	case TypeUser, TypeAssistant, TypeAttachment, TypeSystem, TypeProgress:
		return true
	}
	return false
}

func (f *File) typeName(li int32) string { return f.names[f.lines[li].typ] }

func (f *File) nodeByUUID(u string) int32 {
	id := f.ids.lookup(u)
	if id < 0 {
		return -1
	}
	return f.nodeOf[id]
}

// lineLen is the on-disk length of line li, newline included.
func (f *File) lineLen(li int32) int64 {
	if n, ok := f.big[li]; ok {
		return n
	}
	return int64(f.lines[li].n)
}

// RawLine returns the bytes of 1-based line number ln as stored, without the
// newline.
func (f *File) RawLine(ln int) ([]byte, error) {
	li := int32(ln - 1)
	if li < 0 || int(li) >= len(f.lines) {
		return nil, fmt.Errorf("line %d out of range", ln)
	}
	return f.rawLine(li)
}

func (f *File) rawLine(li int32) ([]byte, error) {
	if f.ra == nil {
		return nil, errors.New("transcript was not opened for random access")
	}
	lr := f.lines[li]
	b, err := jsonl.ReadLineAt(f.ra, lr.off, f.lineLen(li))
	if err != nil {
		return nil, err
	}
	return b, nil
}

// parseLine reads and parses line li. The returned value is owned by p.
func (f *File) parseLine(p *fastjson.Parser, li int32) (*fastjson.Value, []byte, error) {
	raw, err := f.rawLine(li)
	if err != nil {
		return nil, nil, err
	}
	body := raw
	if li == 0 {
		body = bytes.TrimPrefix(body, jsonl.BOM)
	}
	body = bytes.TrimSuffix(body, []byte("\r"))
	v, err := p.ParseBytes(body)
	if err != nil {
		return nil, raw, err
	}
	return v, raw, nil
}

// Problems returns the problems found while indexing, in line order. Leaf
// disagreement is added by LeafModes.
func (f *File) Problems() []Problem {
	out := append([]Problem(nil), f.problems...)
	if lm := f.LeafModes(); lm.Disagree {
		out = append(out, Problem{Code: ProbLeafDisagree, UUID: lm.Modes[LeafLastPrompt], Msg: lm.Summary()})
	}
	return out
}

// Lines is the number of physical lines.
func (f *File) Lines() int { return len(f.lines) }

// Messages is the number of distinct chain members (user, assistant,
// attachment, system lines with a uuid; duplicates counted once).
func (f *File) Messages() int {
	n := 0
	for _, m := range f.member {
		if m {
			n++
		}
	}
	return n
}

// TypeCounts counts lines by type ("" types under "(no type)").
func (f *File) TypeCounts() map[string]int {
	out := map[string]int{}
	for _, lr := range f.lines {
		if lr.kind != jsonl.Object {
			out["("+lr.kind.String()+")"]++
			continue
		}
		t := f.names[lr.typ]
		if t == "" {
			t = "(no type)"
		}
		out[t]++
	}
	return out
}

// SessionIDs lists the distinct sessionId values of the messages (at most 16).
func (f *File) SessionIDs() []string { return append([]string(nil), f.sessionIDs...) }

// Cwd is the first cwd recorded in the file.
func (f *File) Cwd() string { return f.firstCwd }

// SidechainOnly reports whether every chain member is a sidechain line.
func (f *File) SidechainOnly() bool {
	any := false
	for nd, m := range f.member {
		if !m {
			continue
		}
		any = true
		if f.lines[f.nLast[nd]].flags&fSidechain == 0 {
			return false
		}
	}
	return any
}

func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < 36; i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
				return false
			}
		}
	}
	return true
}

// kids returns the children of node nd in file order (do not modify).
func (f *File) kids(nd int32) []int32 { return f.kidList[f.kidStart[nd]:f.kidStart[nd+1]] }
