package claude

import (
	"bytes"
	"encoding/json"

	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/valyala/fastjson"
)

// topNames are the top-level members the index reads, in the order of the
// k* constants: the parallel pass's validating scan captures them.
var topNames = [nTopKeys]string{
	kType: "type", kTimestamp: "timestamp", kUuid: "uuid", kParentUuid: "parentUuid",
	kLogicalParentUuid: "logicalParentUuid", kIsSidechain: "isSidechain", kIsMeta: "isMeta",
	kIsCompactSummary: "isCompactSummary", kIsVisibleInTranscriptOnly: "isVisibleInTranscriptOnly",
	kIsApiErrorMessage: "isApiErrorMessage", kSessionId: "sessionId", kCwd: "cwd",
	kSubtype: "subtype", kCompactMetadata: "compactMetadata", kMessage: "message",
	kToolUseResult: "toolUseResult", kLeafUuid: "leafUuid", kSummary: "summary",
	kCustomTitle: "customTitle", kAiTitle: "aiTitle", kTag: "tag", kAgentName: "agentName",
	kMode: "mode", kLastPrompt: "lastPrompt", kExplicit: "explicit", kGitBranch: "gitBranch",
	kContinuedIn: "continuedInSessionId", kRelocatedCwd: "relocatedCwd",
}

var topCapture = &jsonl.Capture{Top: topNames[:]}

// capTop is one line's captured top-level members (raw values, nil when
// absent; a repeated key's last occurrence, as top.visit keeps).
type capTop struct {
	raw [][]byte
	p   *fastjson.Parser // decodes strings holding escapes
}

// str is top.str on a raw value: the string's bytes as fastjson gives
// them (nil when absent or not a string).
func (c *capTop) str(k int) []byte { return rawStr(c.p, c.raw[k]) }

func (c *capTop) isTrue(k int) bool { return bytes.Equal(c.raw[k], litTrue) }

var litTrue = []byte("true")

// rawStr decodes a raw JSON value as fastjson's StringBytes does: nil when
// it is not a string. A string without escapes is its own bytes; others
// (and the empty string) go through fastjson, so that the result is
// fastjson's to the byte and to the nil.
func rawStr(p *fastjson.Parser, raw []byte) []byte {
	if len(raw) < 2 || raw[0] != '"' {
		return nil
	}
	if len(raw) > 2 && bytes.IndexByte(raw, '\\') < 0 {
		return raw[1 : len(raw)-1]
	}
	v, err := p.ParseBytes(raw)
	if err != nil || v.Type() != fastjson.TypeString {
		return nil
	}
	b, _ := v.StringBytes()
	return b
}

// member is fastjson's Get(key) on a raw object (nil when raw is not an
// object or has no such member): the first member whose stored key is key,
// else the first whose key, unescaped, is key.
func member(raw []byte, key string) []byte {
	if len(raw) == 0 || raw[0] != '{' {
		return nil
	}
	var out []byte
	escaped := false
	_ = jsonl.Members(raw, func(k, v []byte) bool {
		if string(k) == key {
			out = v
			return false
		}
		if bytes.IndexByte(k, '\\') >= 0 {
			escaped = true
		}
		return true
	})
	if out != nil || !escaped {
		return out
	}
	_ = jsonl.Members(raw, func(k, v []byte) bool {
		if keyIs(k, key) {
			out = v
			return false
		}
		return true
	})
	return out
}

func keyIs(raw []byte, key string) bool {
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw) == key
	}
	var s string
	q := append(append([]byte{'"'}, raw...), '"')
	return json.Unmarshal(q, &s) == nil && s == key
}

// extractCaptured is extract from the validating scan's captures instead
// of a parsed tree: only the members the index reads are looked at, nested
// ones (message, compactMetadata, toolUseResult, content blocks) by a skip
// over their raw bytes. TestParallelIndexSameAsSerial holds it equal to
// extract.
func extractCaptured(c *capTop, lf *lineFacts, ar *factsArena) {
	keep := ar.keep
	typ, more := extractTop(c, lf, keep)
	if !more {
		return
	}
	t := string(typ)
	msg := c.raw[kMessage]
	if t == TypeAssistant {
		if m := rawStr(c.p, member(msg, "model")); len(m) > 0 && string(m) != "<synthetic>" {
			lf.model = keep(m)
		}
	}
	switch t {
	case TypeSystem:
		sub := c.str(kSubtype)
		lf.sub = keep(sub)
		switch string(sub) {
		case SubtypeCompactBoundary:
			cm := c.raw[kCompactMetadata]
			if x := member(cm, "preservedSegment"); len(x) > 0 && x[0] == '{' {
				lf.flags |= fPreserved
			}
			if x := member(cm, "preservedMessages"); len(x) > 0 && x[0] == '{' {
				lf.flags |= fPreserved
			}
		case "api_error":
			lf.flags |= fAPIError
		}
	case TypeAssistant:
		lf.msgID = keep(rawStr(c.p, member(msg, "id")))
		content := member(msg, "content")
		onlyThinking := false
		if len(content) > 0 && content[0] == '[' {
			n := 0
			jsonl.Elements(content, func(b []byte) bool {
				n++
				var bt, id, name []byte
				if len(b) > 0 && b[0] == '{' {
					bt = rawStr(c.p, member(b, "type"))
				}
				if string(bt) != "thinking" && string(bt) != "redacted_thinking" {
					onlyThinking = false
				} else if n == 1 {
					onlyThinking = true
				}
				if string(bt) != "tool_use" {
					return true
				}
				lf.flags |= fToolUse
				id = rawStr(c.p, member(b, "id"))
				if len(id) == 0 {
					return true
				}
				lf.toolUses = append(lf.toolUses, keep(id))
				name = rawStr(c.p, member(b, "name"))
				switch string(name) {
				case "Task", "Agent":
					lf.flags |= fAgentCall
				}
				return true
			})
		}
		if onlyThinking {
			lf.flags |= fThinking
		}
	case TypeUser:
		content := member(msg, "content")
		if len(content) > 0 && content[0] == '[' {
			jsonl.Elements(content, func(b []byte) bool {
				if len(b) == 0 || b[0] != '{' || string(rawStr(c.p, member(b, "type"))) != "tool_result" {
					return true
				}
				lf.flags |= fToolResult
				if id := rawStr(c.p, member(b, "tool_use_id")); len(id) > 0 {
					lf.toolResID = keep(id)
					lf.agentID = keep(rawStr(c.p, member(c.raw[kToolUseResult], "agentId")))
				}
				return false
			})
		}
	}
}
