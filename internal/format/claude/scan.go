package claude

// The per-line scan of Open: the few top-level fields the index keeps.

import (
	"math"

	"github.com/sessctl/sessctl/internal/jsonl"
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
	if b := tp.str(kGitBranch); len(b) > 0 && string(b) != f.gitBranch {
		f.gitBranch = string(b)
	}
	if t == TypeAssistant {
		if m := strBytes(tp.v[kMessage], "model"); len(m) > 0 && string(m) != "<synthetic>" && string(m) != f.model {
			f.model = string(m)
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
	case "continued-in":
		f.Meta.ContinuedIn = string(tp.str(kContinuedIn))
	case "relocated":
		f.Meta.RelocatedCwd = string(tp.str(kRelocatedCwd))
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
