package claude

// The per-line scan of Open: the few top-level fields the index keeps.

import (
	"math"

	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/sessctl/sessctl/internal/sessfmt"
	"github.com/valyala/fastjson"
)

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

// lineFacts is what the index takes from one object line, derived from
// the line alone (extract), so that it can be worked out on any goroutine;
// apply folds it into the File in file order. Byte slices are nil when the
// member is absent or not a string.
type lineFacts struct {
	typ                              []byte
	ts                               int64
	uuid, parent, lpar               []byte
	sessionID, cwd, gitBranch, model []byte
	sub, msgID                       []byte
	toolUses                         [][]byte // tool_use ids with an id, in block order
	toolResID, agentID               []byte   // the first tool_result block's tool_use_id; toolUseResult.agentId
	leaf, val                        []byte   // metadata lines: leafUuid, and the value the line type sets
	flags                            uint16
	hasVal, explicit                 bool
	// usage is the line's stats event (claudeUsageEvent), gathered when
	// the File collects them (File.usage).
	usage    sessfmt.UsageEvent
	hasUsage bool
}

// factsArena holds the bytes of lineFacts.
type factsArena struct{ b []byte }

func (a *factsArena) keep(p []byte) []byte {
	if p == nil {
		return nil
	}
	start := len(a.b)
	a.b = append(a.b, p...)
	return a.b[start:len(a.b):len(a.b)]
}

// topSource answers for one line's top-level members, whether they come
// from a parsed tree (top: extract) or from the validating scan's captures
// (capTop: extractCaptured).
type topSource interface {
	str(k int) []byte
	isTrue(k int) bool
}

// extractTop fills lf from the top-level members that extract and
// extractCaptured read alike and returns the line's type; more is false
// when the type's facts end there (summaries, titles, last-prompt and the
// other metadata lines).
func extractTop(src topSource, lf *lineFacts, keep func([]byte) []byte) (typ []byte, more bool) {
	*lf = lineFacts{ts: noTS}
	typ = src.str(kType)
	lf.typ = keep(typ)
	if ts := src.str(kTimestamp); len(ts) > 0 {
		lf.ts = parseTS(ts)
	}
	t := string(typ) // no allocation for the comparisons below
	switch t {
	case TypeUser, TypeAssistant, TypeAttachment, TypeSystem, TypeProgress:
	default:
		switch t {
		case TypeSummary:
			lf.leaf, lf.val = keep(src.str(kLeafUuid)), keep(src.str(kSummary))
		case "continued-in":
			lf.val = keep(src.str(kContinuedIn))
		case "relocated":
			lf.val = keep(src.str(kRelocatedCwd))
		case "task-summary":
			lf.val = keep(src.str(kSummary))
		case "custom-title":
			lf.val = keep(src.str(kCustomTitle))
		case "ai-title":
			lf.val = keep(src.str(kAiTitle))
		case "tag":
			lf.val = keep(src.str(kTag))
		case "agent-name":
			lf.val = keep(src.str(kAgentName))
		case "mode":
			lf.val = keep(src.str(kMode))
		case TypeLastPrompt:
			p := src.str(kLastPrompt)
			lf.val, lf.hasVal = keep(p), p != nil
			lf.leaf = keep(src.str(kLeafUuid))
			lf.explicit = src.isTrue(kExplicit)
		}
		return typ, false
	}
	lf.uuid = keep(src.str(kUuid))
	lf.parent = keep(src.str(kParentUuid))
	lf.lpar = keep(src.str(kLogicalParentUuid))
	if src.isTrue(kIsSidechain) {
		lf.flags |= fSidechain
	}
	if src.isTrue(kIsMeta) {
		lf.flags |= fMeta
	}
	if src.isTrue(kIsCompactSummary) {
		lf.flags |= fCompactSummary
	}
	if src.isTrue(kIsVisibleInTranscriptOnly) {
		lf.flags |= fVisibleOnly
	}
	if src.isTrue(kIsApiErrorMessage) {
		lf.flags |= fAPIError
	}
	lf.sessionID = keep(src.str(kSessionId))
	lf.cwd = keep(src.str(kCwd))
	lf.gitBranch = keep(src.str(kGitBranch))
	return typ, true
}

// extract fills lf from the parsed object v of one line; tp is scratch.
// Strings are copied into ar (nil: lf points into v).
func extract(v *fastjson.Value, tp *top, lf *lineFacts, ar *factsArena) {
	keep := func(p []byte) []byte {
		if ar == nil {
			return p
		}
		return ar.keep(p)
	}
	*tp = top{}
	if o, err := v.Object(); err == nil {
		o.Visit(tp.visit)
	}
	typ, more := extractTop(tp, lf, keep)
	if !more {
		return
	}
	t := string(typ) // no allocation for the comparisons below
	if t == TypeAssistant {
		if m := strBytes(tp.v[kMessage], "model"); len(m) > 0 && string(m) != "<synthetic>" {
			lf.model = keep(m)
		}
	}
	switch t {
	case TypeSystem:
		sub := tp.str(kSubtype)
		lf.sub = keep(sub)
		switch string(sub) {
		case SubtypeCompactBoundary:
			if x := tp.v[kCompactMetadata].Get("preservedSegment"); x != nil && x.Type() == fastjson.TypeObject {
				lf.flags |= fPreserved
			}
			if x := tp.v[kCompactMetadata].Get("preservedMessages"); x != nil && x.Type() == fastjson.TypeObject {
				lf.flags |= fPreserved
			}
		case "api_error":
			lf.flags |= fAPIError
		}
	case TypeAssistant:
		lf.msgID = keep(strBytes(tp.v[kMessage], "id"))
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
			lf.flags |= fToolUse
			id := strBytes(b, "id")
			if len(id) == 0 {
				continue
			}
			lf.toolUses = append(lf.toolUses, keep(id))
			switch string(strBytes(b, "name")) {
			case "Task", "Agent":
				lf.flags |= fAgentCall
			}
		}
		if onlyThinking {
			lf.flags |= fThinking
		}
	case TypeUser:
		c := tp.v[kMessage].Get("content")
		if c != nil && c.Type() == fastjson.TypeArray {
			for _, b := range c.GetArray() {
				if string(strBytes(b, "type")) != "tool_result" {
					continue
				}
				lf.flags |= fToolResult
				if id := strBytes(b, "tool_use_id"); len(id) > 0 {
					lf.toolResID = keep(id)
					lf.agentID = keep(strBytes(tp.v[kToolUseResult], "agentId"))
				}
				break
			}
		}
	}
}

// scan indexes one record (v: its parsed object when it is one).
func (f *File) scan(rec *jsonl.Record) {
	var lf *lineFacts
	if rec.Kind == jsonl.Object {
		lf = &f.facts
		extract(rec.Value, &f.top, lf, nil)
		if f.usage != nil {
			lf.usage, lf.hasUsage = freshUsageEvent(rec.Body())
		}
	}
	f.apply(rec, lf)
}

// apply indexes one record, with the facts of its line when it is an
// object.
func (f *File) apply(rec *jsonl.Record, lf *lineFacts) {
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
	// the line without its newline, as the serial reader holds it
	rawLen := n
	if rec.Newline {
		rawLen--
	}
	switch rec.Kind {
	case jsonl.Blank:
		f.lines = append(f.lines, lr)
		return
	case jsonl.Malformed:
		f.addProblem(ProbMalformed, rec.Line, "", "line is not valid JSON (%d bytes); Claude Code skips it", rawLen)
		f.lines = append(f.lines, lr)
		return
	case jsonl.NonObject:
		f.addProblem(ProbNonObject, rec.Line, "", "line is JSON but not an object")
		f.lines = append(f.lines, lr)
		return
	case jsonl.NULRun:
		f.addProblem(ProbNULRun, rec.Line, "", "line contains NUL bytes (%d bytes), typical of a crash or pre-allocated tail", rawLen)
		f.lines = append(f.lines, lr)
		return
	case jsonl.TornTail:
		f.addProblem(ProbTornTail, rec.Line, "", "last line has no newline and does not parse (%d bytes): a torn write", rawLen)
		f.lines = append(f.lines, lr)
		return
	}
	if rec.CRLF && f.counts["crlf"] == 0 {
		f.addProblem(ProbCRLF, rec.Line, "", "line ends with CRLF (Claude Code writes LF)")
	}
	if rec.CRLF {
		f.counts["crlf"]++
	}
	lr.typ = f.name(lf.typ)
	if lf.ts != noTS {
		lr.ts = lf.ts
		if f.firstTS == noTS || lr.ts < f.firstTS {
			f.firstTS = lr.ts
		}
		if f.lastTS == noTS || lr.ts > f.lastTS {
			f.lastTS = lr.ts
		}
	}
	if lf.hasUsage && f.usage != nil {
		f.usage.add(&lf.usage)
	}
	idx := int32(len(f.lines))
	t := string(lf.typ) // no allocation for the comparisons below
	switch t {
	case TypeUser, TypeAssistant, TypeAttachment, TypeSystem, TypeProgress:
		f.applyMessage(lf, &lr, idx, t)
	default:
		f.applyMeta(lf, &lr, t)
	}
	f.lines = append(f.lines, lr)
}

func (f *File) applyMessage(lf *lineFacts, lr *lineRec, idx int32, t string) {
	lr.flags |= lf.flags
	if len(lf.uuid) > 0 {
		lr.uuid = f.ids.intern(lf.uuid)
		lr.flags |= fHasUUID
	} else if t != TypeProgress {
		f.addProblem(ProbMissingUUID, int(lr.ln), "", "%s line has no uuid; Claude Code does not load it", t)
	}
	if len(lf.parent) > 0 {
		lr.parent = f.ids.intern(lf.parent)
		lr.flags |= fHasParent
	}
	if len(lf.lpar) > 0 {
		lr.lpar = f.ids.intern(lf.lpar)
	}
	if sid := lf.sessionID; len(sid) > 0 && len(f.sessionIDs) < 16 {
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
	if f.firstCwd == "" && len(lf.cwd) > 0 {
		f.firstCwd = string(lf.cwd)
	}
	if b := lf.gitBranch; len(b) > 0 && string(b) != f.gitBranch {
		f.gitBranch = string(b)
	}
	if m := lf.model; len(m) > 0 && string(m) != f.model {
		f.model = string(m)
	}
	switch t {
	case TypeSystem:
		lr.sub = f.name(lf.sub)
		if string(lf.sub) == SubtypeCompactBoundary {
			// a boundary wipes the leaf recorded by earlier last-prompt lines
			f.recorded.leaf = ""
			f.recorded.explicit = false
		}
	case TypeAssistant:
		if len(lf.msgID) > 0 {
			lr.msgID = f.msgIDs.intern(lf.msgID)
		}
		for _, id := range lf.toolUses {
			if f.toolUse == nil {
				f.toolUse = map[string]int32{}
			}
			if _, dup := f.toolUse[string(id)]; !dup {
				f.toolUse[string(id)] = idx
			}
		}
	case TypeUser:
		if id := lf.toolResID; len(id) > 0 {
			if lr.flags&fHasUUID != 0 && len(f.pendingRes) < math.MaxInt32 {
				f.pendingRes = append(f.pendingRes, pendingResult{line: idx, id: string(id)})
			}
			if ag := lf.agentID; len(ag) > 0 {
				if f.agentTool == nil {
					f.agentTool = map[string]string{}
				}
				f.agentTool[string(ag)] = string(id)
			}
		}
	}
}

func (f *File) applyMeta(lf *lineFacts, lr *lineRec, t string) {
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
		if f.Meta.Summaries == nil {
			f.Meta.Summaries = map[string]string{}
		}
		f.Meta.Summaries[string(lf.leaf)] = string(lf.val)
		if len(lf.val) > 0 {
			f.Meta.lastSummary = string(lf.val)
		}
	case "continued-in":
		f.Meta.ContinuedIn = string(lf.val)
	case "relocated":
		f.Meta.RelocatedCwd = string(lf.val)
	case "task-summary":
		if len(lf.val) > 0 {
			f.Meta.lastSummary = string(lf.val)
		}
	case "custom-title":
		f.Meta.CustomTitle = string(lf.val)
		f.Meta.HasCustomTitle = true
	case "ai-title":
		f.Meta.AITitle = string(lf.val)
	case "tag":
		f.Meta.Tag = string(lf.val)
	case "agent-name":
		f.Meta.AgentName = string(lf.val)
	case "mode":
		f.Meta.Mode = string(lf.val)
	case TypeLastPrompt:
		if lf.hasVal {
			f.Meta.LastPrompt = string(lf.val)
		}
		leaf := lf.leaf
		switch {
		case len(leaf) > 0:
			f.recorded.explicit = lf.explicit || (f.recorded.explicit && f.recorded.leaf == string(leaf))
			f.recorded.leaf = string(leaf)
			f.recorded.cleared = false
			f.recorded.line = int(lr.ln)
		case lf.explicit:
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
	kGitBranch
	kContinuedIn
	kRelocatedCwd
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
	case "gitBranch":
		t.v[kGitBranch] = x
	case "continuedInSessionId":
		t.v[kContinuedIn] = x
	case "relocatedCwd":
		t.v[kRelocatedCwd] = x
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
