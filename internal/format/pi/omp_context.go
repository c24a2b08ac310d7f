package pi

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// The oh-my-pi (omp 18.3.4) and xcsh (oh-my-pi 14 session code plus
// context_change) context rebuild. The rules are in
// testdata/omp/parity/SPEC.md; the section numbers below refer to it.

func init() { buildOmp = buildOmpFamily }

func buildOmpFamily(f *File, ctx *Context, pes []pathEntry) {
	xcsh := f.Dialect == DialectXcsh
	if len(pes) == 0 {
		ompEmpty(ctx, xcsh)
		return
	}
	pes = ompPrepare(f, ctx, pes, xcsh)
	if xcsh {
		buildXcsh(ctx, pes)
	} else {
		buildO18(ctx, pes)
	}
	// Values from records that span lines are printed on one line.
	for i, m := range ctx.Messages {
		ctx.Messages[i] = oneLine(m)
	}
	for i := range ctx.Fields {
		if ctx.Fields[i].Value != nil {
			ctx.Fields[i].Value = oneLine(ctx.Fields[i].Value)
		}
	}
}

// oneLine compacts a raw value that spans lines (a newline in valid JSON is
// always white space between tokens).
func oneLine(v json.RawMessage) json.RawMessage {
	if bytes.IndexByte(v, '\n') < 0 {
		return v
	}
	var b bytes.Buffer
	if json.Compact(&b, v) != nil {
		return v
	}
	return b.Bytes()
}

// ompEmpty is the result for a null leaf or a file without entries (§9.1).
func ompEmpty(ctx *Context, xcsh bool) {
	ctx.Messages, ctx.Sources = nil, nil
	ctx.Fields = []Member{
		{"thinkingLevel", str("off")},
		{"serviceTier", nil},
		{"models", json.RawMessage("{}")},
	}
	if xcsh {
		ctx.Fields = append(ctx.Fields,
			Member{"injectedTtsrRules", json.RawMessage("[]")},
			Member{"selectedMCPToolNames", json.RawMessage("[]")},
			Member{"hasPersistedMCPToolSelection", json.RawMessage("false")},
			Member{"mode", str("none")})
		return
	}
	ctx.Fields = append(ctx.Fields, Member{"injectedTtsrRules", json.RawMessage("[]")}, Member{"mode", str("none")})
}

// ompPrepare applies what loading does to the entries before the context is
// built: blob references (§4) and, for omp, the GitHub Copilot replay
// sanitizing of SessionManager.open (§5.2). Migrations (§3) are done by
// Open for the whole file (see Legacy): the lines read here are migrated.
func ompPrepare(f *File, ctx *Context, pes []pathEntry, xcsh bool) []pathEntry {
	res := newBlobResolver(f.BlobDir)
	for k := range pes {
		pe := &pes[k]
		if !pe.obj {
			continue
		}

		if xcsh {
			pe.line = res.resolveO14(pe.line, pe.typ)
		} else {
			pe.line = res.resolveO18(pe.line)
		}
		if !xcsh && pe.typ == "message" {
			pe.line = sanitizeCopilot(pe.line)
		}
	}
	ctx.Warnings = append(ctx.Warnings, res.warnings...)
	return pes
}

// sanitizeCopilot strips replayed OpenAI Responses data from GitHub Copilot
// assistant messages, as SessionManager.open does (§5.2).
func sanitizeCopilot(line []byte) []byte {
	m := sub(trimWS(line), "message")
	if !isObject(m) {
		return line
	}
	m = trimWS(m)
	if !isStr(sub(m, "role"), "assistant") || !isStr(sub(sub(m, "providerPayload"), "type"), "openaiResponsesHistory") ||
		!isStr(sub(m, "provider"), "github-copilot") {
		return line
	}
	ms := members(m)
	for i := range ms {
		switch keyName(ms[i].key) {
		case "providerPayload":
			ms[i].val = nil
		case "content":
			if !isArray(ms[i].val) {
				continue
			}
			els := elements(ms[i].val)
			changed := false
			for j, b := range els {
				if isObject(b) && isStr(sub(trimWS(b), "type"), "thinking") && sub(trimWS(b), "thinkingSignature") != nil {
					els[j], changed = withMember(b, "thinkingSignature", nil), true
				}
			}
			if changed {
				ms[i].val = encodeArray(els)
			}
		}
	}
	return withMember(line, "message", encodeObject(ms))
}

// msgList is the context's messages with the entry each came from.
type msgList struct {
	msgs []json.RawMessage
	srcs []int
}

func (l *msgList) push(m json.RawMessage, src int) {
	l.msgs = append(l.msgs, m)
	l.srcs = append(l.srcs, src)
}

func (l *msgList) remove(i int) {
	l.msgs = append(l.msgs[:i], l.msgs[i+1:]...)
	l.srcs = append(l.srcs[:i], l.srcs[i+1:]...)
}

// orderedMap is a JavaScript object built key by key.
type orderedMap struct {
	keys []string
	vals map[string][]byte
}

func (o *orderedMap) set(k string, v []byte) {
	if o.vals == nil {
		o.vals = map[string][]byte{}
	}
	if _, ok := o.vals[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
}

func (o *orderedMap) encode() json.RawMessage {
	ms := make([]kv, len(o.keys))
	for i, k := range o.keys {
		ms[i] = kv{key: encodeKeyRaw(k), val: o.vals[k]}
	}
	return encodeObject(ms)
}

// orderedSet is a JavaScript Set of values, in first-seen order.
type orderedSet struct {
	seen map[string]bool
	vals [][]byte
}

func (s *orderedSet) add(v []byte) {
	k, ok := setKey(v)
	if ok {
		if s.seen == nil {
			s.seen = map[string]bool{}
		}
		if s.seen[k] {
			return
		}
		s.seen[k] = true
	}
	s.vals = append(s.vals, trimWS(v))
}

// iterate calls fn for each item `for (x of v)` visits: array elements, or
// the code points of a string.
func iterate(v []byte, fn func([]byte)) {
	if isArray(v) {
		for _, e := range elements(v) {
			fn(e)
		}
		return
	}
	if s, ok := strOf(v); ok {
		for _, r := range s {
			fn(jsonString(string(r)))
		}
	}
}

// roleKey is String(role) for an object key.
func roleKey(role []byte) string {
	if nullish(role) {
		return "default"
	}
	return jsString(role)
}

func assistantModel(m []byte) []byte {
	m = trimWS(m)
	return jsonString(jsString(sub(m, "provider")) + "/" + jsString(sub(m, "model")))
}

// ---- omp 18.3.4 ----

func buildO18(ctx *Context, path []pathEntry) {
	thinking := json.RawMessage(`"off"`)
	var configured, tier, mode, modeData json.RawMessage
	mode = str("none")
	var models orderedMap
	models.vals = map[string][]byte{}
	explicitDefault := false
	compaction := -1
	var rules orderedSet
	for k := range path {
		pe := &path[k]
		if !pe.obj {
			continue
		}
		switch pe.typ {
		case "thinking_level_change":
			tl := pe.get("thinkingLevel")
			thinking = str("off")
			if !nullish(tl) {
				thinking = trimWS(tl)
			}
			configured = nil
			if c := pe.get("configured"); !nullish(c) {
				configured = trimWS(c)
			} else if !nullish(tl) {
				configured = trimWS(tl)
			}
		case "model_change":
			if m := pe.get("model"); truthy(m) {
				role := pe.get("role")
				models.set(roleKey(role), trimWS(m))
				if isStr(role, "default") || nullish(role) {
					explicitDefault = true
				}
			}
		case "service_tier_change":
			tier = coerceServiceTier(pe.get("serviceTier"))
		case "message":
			if m := pe.get("message"); isObject(m) && isStr(sub(trimWS(m), "role"), "assistant") && !explicitDefault {
				models.set("default", assistantModel(m))
			}
		case "compaction":
			compaction = k
		case "ttsr_injection":
			iterate(pe.get("injectedRules"), rules.add)
		case "mode_change":
			mode = nilIfAbsent(pe.get("mode"))
			modeData = nilIfAbsent(pe.get("data"))
		}
	}
	resetIdx := -1
	for k := range path {
		if path[k].typ == "reset_boundary" && path[k].obj {
			resetIdx = k
		}
	}
	compactionIdx, keptIdx := -1, -1
	if compaction >= 0 {
		firstKept := path[compaction].get("firstKeptEntryId")
		compactionIdx, keptIdx = compactionSpan(len(path),
			func(k int) bool { return path[k].typ == "compaction" && strictEqual(path[k].id, path[compaction].id) },
			func(k int) bool { return strictEqual(path[k].id, firstKept) })
	}
	var l msgList
	emit := func(k int) { emitO18(&l, &path[k]) }
	switch {
	case resetIdx >= 0 && resetIdx > compactionIdx:
		for k := resetIdx + 1; k < len(path); k++ {
			emit(k)
		}
	case compaction >= 0:
		c := &path[compaction]
		ctx.Compaction = c.n
		firstKept := c.get("firstKeptEntryId")
		replayThrough := c.get("providerReplayThroughEntryId")
		pd := trimWS(c.get("preserveData"))
		remote := remotePayload(sub(pd, "openaiRemoteCompaction"), true)
		anthropic := anthropicPayload(sub(pd, "anthropicCompaction"))
		payload := remote
		if payload == nil {
			payload = anthropic
		}
		idOf := func(id []byte) func(pe *pathEntry) bool {
			return func(pe *pathEntry) bool { return strictEqual(pe.id, id) }
		}
		var rewriteAt json.RawMessage
		if anthropic != nil {
			fk := findIndex(path, 0, len(path), idOf(firstKept))
			snap := -1
			if isStr(firstKept, "") && truthy(replayThrough) {
				snap = findIndex(path, 0, len(path), idOf(replayThrough))
			}
			first := -1
			switch {
			case fk >= 0 && fk < compactionIdx:
				first = fk
			case snap >= 0 && snap < compactionIdx-1:
				first = snap + 1
			case compactionIdx+1 < len(path):
				first = compactionIdx + 1
			}
			if first >= 0 {
				if ms, ok := jsTimeMs(path[first].get("timestamp")); ok {
					rewriteAt = json.RawMessage(strconv.FormatInt(ms-1, 10))
				}
			}
		}
		if sub(pd, "snapcompact") != nil {
			ctx.Warnings = append(ctx.Warnings, "the compaction carries a snapcompact archive: the agent also shows the model archived history blocks, which sessctl does not reproduce")
		}
		l.push(synthesized("compactionSummary", c,
			Member{"summary", nilIfAbsent(c.get("summary"))},
			Member{"shortSummary", nilIfAbsent(c.get("shortSummary"))},
			Member{"tokensBefore", nilIfAbsent(c.get("tokensBefore"))},
			Member{"tokensAfter", nilIfAbsent(c.get("tokensAfter"))},
			Member{"method", nilIfAbsent(c.get("method"))},
			Member{"providerPayload", payload},
			Member{"warning", nilIfAbsent(c.get("warning"))},
			Member{"historyRewriteAt", rewriteAt},
		), c.n)
		if d := trimWS(c.get("details")); isObject(d) && isStr(sub(d, "kind"), "experimental-context-rollover") {
			f := findIndex(path, 0, len(path), idOf(firstKept))
			for i := compactionIdx - 1; i > resetIdx; i-- {
				if !isUserRequestEntry(&path[i]) {
					continue
				}
				if i < f {
					emit(i)
				}
				break
			}
		}
		if remote == nil {
			fk := keptIdx
			snap := -1
			if anthropic != nil && isStr(firstKept, "") && truthy(replayThrough) {
				snap = findIndex(path, 0, len(path), idOf(replayThrough))
			}
			start := -1
			if fk >= 0 {
				start = fk
			} else if snap >= 0 {
				start = snap + 1
			}
			if start >= 0 && start < compactionIdx {
				for k := start; k < compactionIdx; k++ {
					emit(k)
				}
			}
		} else if truthy(replayThrough) {
			r := findIndex(path, 0, len(path), idOf(replayThrough))
			if r >= 0 && r < compactionIdx {
				for k := r + 1; k < compactionIdx; k++ {
					emit(k)
				}
			}
		}
		for k := compactionIdx + 1; k < len(path); k++ {
			emit(k)
		}
	default:
		for k := range path {
			emit(k)
		}
	}
	contextNotes(&l, path)
	stripDanglingToolCalls(&l)
	dropFailedTurns(&l)
	ctx.Messages, ctx.Sources = l.msgs, l.srcs
	ctx.Fields = []Member{
		{"thinkingLevel", thinking},
		{"configuredThinkingLevel", configured},
		{"serviceTier", tier},
		{"models", models.encode()},
		{"injectedTtsrRules", encodeArray(rules.vals)},
		{"mode", mode},
		{"modeData", modeData},
	}
}

// nilIfAbsent keeps a raw value (nil stays nil: undefined).
func nilIfAbsent(v []byte) json.RawMessage {
	if v == nil {
		return nil
	}
	return json.RawMessage(trimWS(v))
}

func findIndex(path []pathEntry, from, to int, pred func(*pathEntry) bool) int {
	for k := from; k < to && k < len(path); k++ {
		if pred(&path[k]) {
			return k
		}
	}
	return -1
}

// emitO18 is appendMessage of omp 18.3.4 (§8.1).
func emitO18(l *msgList, pe *pathEntry) {
	if !pe.obj {
		return
	}
	switch pe.typ {
	case "message":
		m := pe.get("message")
		if isObject(m) && isStr(sub(trimWS(m), "role"), "assistant") {
			mm := trimWS(m)
			if truthy(sub(mm, "retryRecovery")) || isEmptyErrorTurn(mm) {
				return
			}
		}
		if m == nil {
			m = json.RawMessage("null")
		}
		l.push(trimWS(m), pe.n)
	case "custom_message":
		ct := pe.get("customType")
		if isStr(ct, "prewalk-plan") || isStr(ct, "vibe-mode-context") {
			return
		}
		if m := customMessageO18(pe); m != nil {
			l.push(m, pe.n)
		}
	case "branch_summary":
		if m := branchSummaryMessage(pe); m != nil {
			l.push(m, pe.n)
		}
	}
}

// customMessageO18 converts a custom_message entry (nil when its content is
// neither a string nor an array).
func customMessageO18(pe *pathEntry) json.RawMessage {
	content := trimWS(pe.get("content"))
	if _, ok := strOf(content); !ok && !isArray(content) {
		return nil
	}
	ct := str("custom-message")
	if s, ok := strOf(pe.get("customType")); ok && s != "" {
		ct = trimWS(pe.get("customType"))
	}
	display := json.RawMessage("false")
	if d := string(trimWS(pe.get("display"))); d == "true" || d == "false" {
		display = json.RawMessage(d)
	}
	var attribution json.RawMessage
	if a := pe.get("attribution"); a != nil {
		attribution = str("agent")
		if isStr(a, "user") {
			attribution = str("user")
		}
	}
	return synthesized("custom", pe,
		Member{"customType", ct},
		Member{"content", content},
		Member{"display", display},
		Member{"details", nilIfAbsent(pe.get("details"))},
		Member{"attribution", attribution},
	)
}

// isUserRequestEntry: a user message, or a user-attributed skill or collab
// prompt (stored as a custom message or a custom_message entry).
func isUserRequestEntry(pe *pathEntry) bool {
	if !pe.obj {
		return false
	}
	prompt := func(m []byte) bool {
		return (isStr(sub(m, "customType"), "skill-prompt") || isStr(sub(m, "customType"), "collab-prompt")) &&
			isStr(sub(m, "attribution"), "user")
	}
	switch pe.typ {
	case "message":
		m := trimWS(pe.get("message"))
		if isStr(sub(m, "role"), "user") {
			return true
		}
		return isStr(sub(m, "role"), "custom") && prompt(m)
	case "custom_message":
		if m := customMessageO18(pe); m != nil {
			return prompt(m)
		}
	}
	return false
}

// isEmptyErrorTurn: an error turn without any content (§8.1).
func isEmptyErrorTurn(m []byte) bool {
	if !isStr(sub(m, "stopReason"), "error") {
		return false
	}
	content := sub(m, "content")
	if !isArray(content) {
		return false // the agent would fail here; keep the turn
	}
	for _, b := range elements(content) {
		b = trimWS(b)
		t, _ := strOf(sub(b, "type"))
		nonBlank := func(k string) bool { s, _ := strOf(sub(b, k)); return jsTrim(s) != "" }
		switch t {
		case "text":
			if nonBlank("text") {
				return false
			}
		case "thinking":
			if nonBlank("thinking") || nonBlank("thinkingSignature") {
				return false
			}
		case "redactedThinking":
			if nonBlank("data") {
				return false
			}
		case "fallback":
		default:
			return false
		}
	}
	return true
}

// remotePayload validates preserveData.openaiRemoteCompaction; strict (omp
// 18) also requires every replacementHistory item to be an object.
func remotePayload(c []byte, strict bool) json.RawMessage {
	c = trimWS(c)
	if !isObject(c) {
		return nil
	}
	p, ok := strOf(sub(c, "provider"))
	if !ok || p == "" {
		return nil
	}
	rh := trimWS(sub(c, "replacementHistory"))
	if !isArray(rh) {
		return nil
	}
	if strict {
		for _, it := range elements(rh) {
			if !isObject(it) {
				return nil
			}
		}
	}
	return object(Member{"type", str("openaiResponsesHistory")}, Member{"provider", trimWS(sub(c, "provider"))}, Member{"items", rh})
}

// anthropicPayload validates preserveData.anthropicCompaction.
func anthropicPayload(c []byte) json.RawMessage {
	c = trimWS(c)
	if !isObject(c) {
		return nil
	}
	nonEmpty := func(k string) json.RawMessage {
		if s, ok := strOf(sub(c, k)); ok && s != "" {
			return trimWS(sub(c, k))
		}
		return nil
	}
	if nonEmpty("provider") == nil || nonEmpty("content") == nil {
		return nil
	}
	return object(Member{"type", str("anthropicCompaction")}, Member{"provider", nonEmpty("provider")},
		Member{"content", nonEmpty("content")}, Member{"signature", nonEmpty("signature")},
		Member{"encryptedContent", nonEmpty("encryptedContent")}, Member{"filesText", nonEmpty("filesText")})
}

// coerceServiceTier maps a stored service tier to the per-family object
// omp 18 uses (§7).
func coerceServiceTier(v []byte) json.RawMessage {
	v = trimWS(v)
	if nullish(v) {
		return nil
	}
	valid := func(s string) bool {
		switch s {
		case "auto", "default", "flex", "scale", "priority":
			return true
		}
		return false
	}
	if isObject(v) {
		var ms []Member
		for _, fam := range []string{"openai", "anthropic", "google"} {
			if s, ok := strOf(sub(v, fam)); ok && valid(s) {
				ms = append(ms, Member{fam, str(s)})
			}
		}
		if len(ms) == 0 {
			return nil
		}
		return object(ms...)
	}
	s, ok := strOf(v)
	if !ok {
		return nil
	}
	switch s {
	case "priority":
		return object(Member{"openai", str(s)}, Member{"anthropic", str(s)}, Member{"google", str(s)})
	case "openai-only":
		return object(Member{"openai", str("priority")})
	case "claude-only":
		return object(Member{"anthropic", str("priority")})
	case "auto", "default", "flex", "scale":
		return object(Member{"openai", str(s)})
	}
	return nil
}

// stripDanglingToolCalls removes tool calls without a result in the context
// from assistant turns (§8.5).
func stripDanglingToolCalls(l *msgList) {
	paired := map[string]bool{}
	for _, m := range l.msgs {
		if isStr(sub(m, "role"), "toolResult") {
			if k, ok := setKey(sub(m, "toolCallId")); ok {
				paired[k] = true
			}
		}
	}
	isPaired := func(id []byte) bool {
		k, ok := setKey(id)
		return ok && paired[k]
	}
	for i := len(l.msgs) - 1; i >= 0; i-- {
		m := l.msgs[i]
		if !isStr(sub(m, "role"), "assistant") {
			continue
		}
		content := sub(m, "content")
		if !isArray(content) {
			continue
		}
		blocks := elements(content)
		dangling := 0
		for _, b := range blocks {
			b = trimWS(b)
			if isStr(sub(b, "type"), "toolCall") && !isPaired(sub(b, "id")) {
				dangling++
			}
		}
		if dangling == 0 {
			continue
		}
		var kept [][]byte
		for _, b := range blocks {
			tb := trimWS(b)
			if isStr(sub(tb, "type"), "toolCall") && !isPaired(sub(tb, "id")) {
				continue
			}
			if isStr(sub(tb, "type"), "redactedThinking") {
				continue
			}
			if isStr(sub(tb, "type"), "thinking") && truthy(sub(tb, "thinkingSignature")) {
				b = withMember(tb, "thinkingSignature", nil)
			}
			kept = append(kept, b)
		}
		if len(kept) == 0 {
			l.remove(i)
			continue
		}
		l.msgs[i] = withMember(m, "content", encodeArray(kept))
	}
}

// dropFailedTurns removes aborted and error assistant turns and their paired
// results, unless an interrupted-thinking marker follows (§8.6).
func dropFailedTurns(l *msgList) {
	for i := len(l.msgs) - 1; i >= 0; i-- {
		if i >= len(l.msgs) {
			continue
		}
		m := l.msgs[i]
		if !isStr(sub(m, "role"), "assistant") {
			continue
		}
		if !isStr(sub(m, "stopReason"), "aborted") && !isStr(sub(m, "stopReason"), "error") {
			continue
		}
		if i+1 < len(l.msgs) {
			next := l.msgs[i+1]
			if isStr(sub(next, "role"), "custom") && isStr(sub(next, "customType"), "interrupted-thinking") {
				continue
			}
		}
		dropped := map[string]bool{}
		for _, b := range elements(sub(m, "content")) {
			b = trimWS(b)
			if isStr(sub(b, "type"), "toolCall") {
				if k, ok := setKey(sub(b, "id")); ok {
					dropped[k] = true
				}
			}
		}
		l.remove(i)
		if len(dropped) > 0 {
			for j := len(l.msgs) - 1; j >= i; j-- {
				c := l.msgs[j]
				if isStr(sub(c, "role"), "toolResult") {
					if k, ok := setKey(sub(c, "toolCallId")); ok && dropped[k] {
						l.remove(j)
					}
				}
			}
		}
	}
}

// ---- xcsh (O14) ----

func buildXcsh(ctx *Context, path []pathEntry) {
	thinking := json.RawMessage(`"off"`)
	var tier, ctxName, ctxTenant, profName, profTenant, mode, modeData json.RawMessage
	mode = str("none")
	var models orderedMap
	models.vals = map[string][]byte{}
	compaction := -1
	var rules orderedSet
	mcp := json.RawMessage("[]")
	hasMCP := false
	for k := range path {
		pe := &path[k]
		if !pe.obj {
			continue
		}
		switch pe.typ {
		case "thinking_level_change":
			thinking = str("off")
			if tl := pe.get("thinkingLevel"); !nullish(tl) {
				thinking = trimWS(tl)
			}
		case "model_change":
			if m := pe.get("model"); truthy(m) {
				models.set(roleKey(pe.get("role")), trimWS(m))
			}
		case "context_change":
			ctxName = nilIfAbsent(pe.get("contextName"))
			ctxTenant = nilIfAbsent(pe.get("tenant"))
		case "profile_change": // the same entry in other xcsh revisions
			profName = nilIfAbsent(pe.get("profileName"))
			profTenant = nilIfAbsent(pe.get("tenant"))
		case "service_tier_change":
			tier = nil
			if t := pe.get("serviceTier"); !nullish(t) {
				tier = trimWS(t)
			}
		case "message":
			if m := pe.get("message"); isObject(m) && isStr(sub(trimWS(m), "role"), "assistant") {
				models.set("default", assistantModel(m))
			}
		case "compaction":
			compaction = k
		case "ttsr_injection":
			iterate(pe.get("injectedRules"), rules.add)
		case "mcp_tool_selection":
			var names [][]byte
			iterate(pe.get("selectedToolNames"), func(v []byte) { names = append(names, trimWS(v)) })
			mcp = encodeArray(names)
			hasMCP = true
		case "mode_change":
			mode = nilIfAbsent(pe.get("mode"))
			modeData = nilIfAbsent(pe.get("data"))
		}
	}
	var l msgList
	emit := func(k int) { emitXcsh(&l, &path[k]) }
	if compaction >= 0 {
		c := &path[compaction]
		ctx.Compaction = c.n
		var payload json.RawMessage
		if pd := trimWS(c.get("preserveData")); truthy(pd) {
			payload = remotePayload(sub(pd, "openaiRemoteCompaction"), false)
		}
		l.push(synthesized("compactionSummary", c,
			Member{"summary", nilIfAbsent(c.get("summary"))},
			Member{"shortSummary", nilIfAbsent(c.get("shortSummary"))},
			Member{"tokensBefore", nilIfAbsent(c.get("tokensBefore"))},
			Member{"providerPayload", payload},
		), c.n)
		firstKept := c.get("firstKeptEntryId")
		idx, kept := compactionSpan(len(path),
			func(k int) bool { return path[k].typ == "compaction" && strictEqual(path[k].id, c.id) },
			func(k int) bool { return strictEqual(path[k].id, firstKept) })
		if payload == nil && kept >= 0 {
			// A remote compaction replays the provider's history instead.
			for k := kept; k < idx; k++ {
				emit(k)
			}
		}
		for k := idx + 1; k < len(path); k++ {
			emit(k)
		}
	} else {
		for k := range path {
			emit(k)
		}
	}
	ctx.Messages, ctx.Sources = l.msgs, l.srcs
	ctx.Fields = []Member{
		{"thinkingLevel", thinking},
		{"serviceTier", tier},
		{"models", models.encode()},
		{"activeContextName", ctxName},
		{"activeContextTenant", ctxTenant},
		{"activeProfileName", profName},
		{"activeProfileTenant", profTenant},
		{"injectedTtsrRules", encodeArray(rules.vals)},
		{"selectedMCPToolNames", mcp},
		{"hasPersistedMCPToolSelection", json.RawMessage(strconv.FormatBool(hasMCP))},
		{"mode", mode},
		{"modeData", modeData},
	}
}

func emitXcsh(l *msgList, pe *pathEntry) {
	if !pe.obj {
		return
	}
	switch pe.typ {
	case "message":
		m := pe.get("message")
		if m == nil {
			m = json.RawMessage("null")
		}
		l.push(trimWS(m), pe.n)
	case "custom_message":
		l.push(synthesized("custom", pe,
			Member{"customType", nilIfAbsent(pe.get("customType"))},
			Member{"content", nilIfAbsent(pe.get("content"))},
			Member{"display", nilIfAbsent(pe.get("display"))},
			Member{"details", nilIfAbsent(pe.get("details"))},
			Member{"attribution", nilIfAbsent(pe.get("attribution"))},
		), pe.n)
	case "branch_summary":
		if m := branchSummaryMessage(pe); m != nil {
			l.push(m, pe.n)
		}
	}
}
