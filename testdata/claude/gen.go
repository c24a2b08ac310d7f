//go:build ignore

// gen writes the synthetic Claude Code fixtures under testdata/claude.
// Run from the repository root: go run testdata/claude/gen.go
//
// Every fixture is made up; the shapes follow the public format notes in
// the project's reference (split assistant lines, tool_result parents,
// legacy progress, compaction, metadata lines, subagent layouts).
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/sessctl/sessctl/internal/format/claude"
)

func projectDir(cwd string) string { return claude.ProjectDirName(cwd) }

const root = "testdata/claude"

var base = time.Date(2025, 10, 1, 9, 0, 0, 0, time.UTC)

// id makes a readable, valid uuid whose first 8 characters identify it.
func id(n int) string { return fmt.Sprintf("%08d-0000-4000-8000-%012d", n, n) }

type obj = map[string]any

type gen struct {
	sid   string
	cwd   string
	lines []string
	t     int
}

func newGen(sid, cwd string) *gen { return &gen{sid: sid, cwd: cwd} }

func (g *gen) ts() string {
	g.t++
	return base.Add(time.Duration(g.t) * time.Second).Format("2006-01-02T15:04:05.000Z")
}

func (g *gen) at(sec int) string {
	return base.Add(time.Duration(sec) * time.Second).Format("2006-01-02T15:04:05.000Z")
}

// env builds a message line with parentUuid first, as Claude Code writes it.
func (g *gen) env(typ string, uuid, parent any, ts string, rest ...any) string {
	var b strings.Builder
	b.WriteString(`{"parentUuid":`)
	writeJSON(&b, parent)
	b.WriteString(`,"isSidechain":false,"userType":"external","cwd":`)
	writeJSON(&b, g.cwd)
	b.WriteString(`,"sessionId":`)
	writeJSON(&b, g.sid)
	b.WriteString(`,"version":"2.1.70","gitBranch":"main"`)
	for i := 0; i+1 < len(rest); i += 2 {
		b.WriteString(",")
		writeJSON(&b, rest[i])
		b.WriteString(":")
		writeJSON(&b, rest[i+1])
	}
	b.WriteString(`,"type":`)
	writeJSON(&b, typ)
	b.WriteString(`,"uuid":`)
	writeJSON(&b, uuid)
	b.WriteString(`,"timestamp":`)
	writeJSON(&b, ts)
	b.WriteString("}")
	return b.String()
}

func writeJSON(b *strings.Builder, v any) {
	if v == nil {
		b.WriteString("null")
		return
	}
	j, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	b.Write(j)
}

func (g *gen) add(s string) { g.lines = append(g.lines, s) }

func (g *gen) user(n, parent int, text string, rest ...any) {
	g.add(g.env("user", id(n), par(parent), g.ts(), append([]any{"message", obj{"role": "user", "content": text}}, rest...)...))
}

func (g *gen) userAt(n, parent int, ts string, text string, rest ...any) {
	g.add(g.env("user", id(n), par(parent), ts, append([]any{"message", obj{"role": "user", "content": text}}, rest...)...))
}

func (g *gen) asst(n, parent int, msgID string, block obj, rest ...any) {
	g.asstAt(n, parent, g.ts(), msgID, block, rest...)
}

func (g *gen) asstAt(n, parent int, ts, msgID string, block obj, rest ...any) {
	msg := obj{"id": msgID, "type": "message", "role": "assistant", "model": "claude-sonnet-4-5-20250929",
		"content": []obj{block}, "stop_reason": nil, "stop_sequence": nil,
		"usage": obj{"input_tokens": 10, "output_tokens": 5, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 100}}
	g.add(g.env("assistant", id(n), par(parent), ts, append([]any{"message", msg, "requestId", "req_" + msgID}, rest...)...))
}

func (g *gen) result(n, parent int, toolID, text string, rest ...any) {
	msg := obj{"role": "user", "content": []obj{{"tool_use_id": toolID, "type": "tool_result", "content": text}}}
	g.add(g.env("user", id(n), par(parent), g.ts(), append([]any{"message", msg, "toolUseResult", obj{"stdout": text}, "sourceToolAssistantUUID", id(parent)}, rest...)...))
}

func (g *gen) sys(n, parent int, subtype string, rest ...any) {
	g.sysAt(n, parent, g.ts(), subtype, rest...)
}

func (g *gen) sysAt(n, parent int, ts, subtype string, rest ...any) {
	g.add(g.env("system", id(n), par(parent), ts, append([]any{"subtype", subtype, "level", "info"}, rest...)...))
}

func (g *gen) progress(n, parent int, ts string) {
	g.add(g.env("progress", id(n), par(parent), ts, "data", obj{"type": "hook_progress", "hookEvent": "PostToolUse", "hookName": "PostToolUse:Bash", "command": "true"},
		"toolUseID", "toolu_hook", "parentToolUseID", "toolu_hook"))
}

func (g *gen) meta(v obj) {
	j, _ := json.Marshal(v)
	// put "type" first, as Claude Code's metadata lines do
	s := string(j)
	t, _ := json.Marshal(v["type"])
	s = strings.Replace(s, `"type":`+string(t)+`,`, "", 1)
	s = strings.Replace(s, `,"type":`+string(t), "", 1)
	g.add(`{"type":` + string(t) + "," + strings.TrimPrefix(s, "{"))
}

func par(n int) any {
	if n == 0 {
		return nil
	}
	return id(n)
}

func text(s string) obj     { return obj{"type": "text", "text": s} }
func thinking(s string) obj { return obj{"type": "thinking", "thinking": s, "signature": "sig"} }
func toolUse(tid, name string, in obj) obj {
	return obj{"type": "tool_use", "id": tid, "name": name, "input": in}
}

func (g *gen) write(rel string) {
	g.writeRaw(rel, strings.Join(g.lines, "\n")+"\n")
}

func (g *gen) writeRaw(rel, content string) {
	p := filepath.Join(root, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		panic(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		panic(err)
	}
}

const cwd = "/home/dev/shop"

func main() {
	splitParallel()
	progressLegacy()
	compactPlain()
	compactPreserved()
	rewind()
	apiErrorLate()
	damaged()
	duplicate()
	selfParentAndCycle()
	metadata()
	summaryElsewhere()
	subagents()
	longCwd()
	sidechainOnly()
	records2130()
}

// records2130 writes a transcript with every record type and field Claude
// Code 2.1.330 writes (docs/formats.md lists them): check must find nothing,
// show and tree must lose nothing, repair must keep every line.
func records2130() {
	g := newGen("12121212-0000-4000-8000-000000002130", cwd)
	sid := g.sid
	m := func(typ string, kv ...any) {
		o := obj{"type": typ, "sessionId": sid}
		for i := 0; i+1 < len(kv); i += 2 {
			o[kv[i].(string)] = kv[i+1]
		}
		g.meta(o)
	}
	g.user(21300001, 0, "Start the 2.1.330 tour")
	g.asst(21300002, 21300001, "msg_N1", text("Started."))
	m("file-history-snapshot", "messageId", id(21300001), "snapshot", obj{"messageId": id(21300001), "trackedFileBackups": obj{}, "timestamp": g.at(1)}, "isSnapshotUpdate", false)
	m("file-history-delta", "messageId", id(21300001), "delta", obj{"added": []string{}})
	m("cost-state", "totalCostUSD", 0.01, "totalAPIDuration", 32, "modelUsage", obj{})
	m("atis-latch", "atis", "")
	m("mode", "mode", "normal")
	m("permission-mode", "permissionMode", "default")
	m("isolation-latch", "latched", false)
	m("session-owner", "owner", "cli")
	m("dev-mods", "mods", []string{})
	m("memory-mode", "memoryMode", "auto")
	m("tools-used", "tools", []string{"Bash"})
	m("data-flow-records", "records", []string{})
	m("data-flow-incomplete", "incomplete", false)
	m("derived-from", "derivedFromSessionId", "12121212-0000-4000-8000-000000000001")
	m("worktree-state", "worktreeSession", nil)
	m("queue-operation", "operation", "enqueue", "timestamp", g.at(3), "content", "later")
	m("content-replacement", "replacements", []string{})
	m("api-request-shape", "requestId", "req_1", "shape", obj{})
	m("api-request-blob", "requestId", "req_1", "blob", "")
	m("api-request", "requestId", "req_1", "timestamp", g.at(3))
	m("api-request-resumed", "requestId", "req_1")
	m("fork-context-ref", "ref", "x")
	m("observer-ref", "ref", "y")
	m("frame-link", "frame", "z")
	m("resume-head-vouch", "vouch", "sha")
	m("artifact-comment-monitor", "monitor", obj{})
	m("artifact-autoreact-ledger", "ledger", obj{})
	m("history-suppression", "suppressed", false)
	m("attribution-snapshot", "messageId", id(21300002), "surface", "cli", "fileStates", obj{})
	m("bridge-session", "bridgeSessionId", "b1", "lastSequenceNum", 3)
	m("pr-link", "prNumber", 7, "prUrl", "https://example.com/pr/7", "prRepository", "o/r", "timestamp", g.at(3))
	m("agent-name", "agentName", "tour")
	m("agent-color", "agentColor", "blue")
	m("agent-setting", "agentSetting", "default")
	m("ended-by-model", "timestamp", g.at(3))
	g.meta(obj{"type": "line-withheld", "bytes": 123456})
	g.sys(21300003, 21300002, "api_retry", "content", "retrying", "retryAttempt", 1)
	g.sys(21300004, 21300003, "turn_duration", "durationMs", 1200, "messageCount", 2)
	g.sys(21300005, 21300004, "rewind_stand_in", "content", "", "source_uuid", id(21300002))
	g.add(g.env("attachment", id(21300006), id(21300005), g.ts(), "attachment", obj{"type": "date_change", "newDate": "2025-10-02"}))
	g.user(21300007, 21300006, "Rewind and try again", "rewindAnchorUuid", id(21300002))
	g.asst(21300008, 21300007, "msg_N2", text("Tried again."))
	m("last-prompt", "lastPrompt", "Rewind and try again", "leafUuid", id(21300008), "rewound", true, "cutUuid", id(21300003))
	g.sys(21300009, 0, "compact_boundary", "content", "Conversation compacted", "logicalParentUuid", id(21300008),
		"compactMetadata", obj{"trigger": "auto", "preTokens": 1000, "preservedMessages": obj{"anchorUuid": id(21300010), "uuids": []string{id(21300007), id(21300008)}}})
	g.user(21300010, 21300009, "Summary of the tour so far.", "isCompactSummary", true, "isVisibleInTranscriptOnly", true)
	g.user(21300011, 21300010, "Summary of the tour so far.", "isCompactSummary", true, "isVisibleInTranscriptOnly", true, "repeatsCompactSummary", true)
	g.user(21300012, 21300011, "Move to the api folder")
	g.asst(21300013, 21300012, "msg_N3", text("Moved."))
	m("relocated", "relocatedCwd", cwd+"/api")
	m("custom-title", "customTitle", "2.1.330 tour")
	m("ai-title", "aiTitle", "Tour of new records")
	m("tag", "tag", "tour")
	m("last-prompt", "lastPrompt", "Move to the api folder", "leafUuid", id(21300013))
	m("continued-in", "continuedInSessionId", "12121212-0000-4000-8000-000000002131")
	g.write("shapes/records-2.1.330.jsonl")
}

// a session file holding only sidechain records (an inline side question):
// list hides it unless --all.
func sidechainOnly() {
	g := newGen("ffffffff-0000-4000-8000-000000000003", cwd)
	g.user(15000001, 0, "Side question: what is a goroutine?")
	g.asst(15000002, 15000001, "msg_Q1", text("A lightweight thread managed by the Go runtime."))
	for i, l := range g.lines {
		g.lines[i] = strings.Replace(l, `"isSidechain":false`, `"isSidechain":true`, 1)
	}
	g.write("home/projects/" + projectDir(cwd) + "/" + g.sid + ".jsonl")
}

// split assistant lines (one per content block) and parallel tool results
// whose parentUuid is the line holding their tool_use.
func splitParallel() {
	g := newGen("11111111-1111-4111-8111-111111111111", cwd)
	g.user(10000001, 0, "List the files and count the lines of main.go")
	g.asst(10000002, 10000001, "msg_A", thinking("Two independent tool calls."))
	g.asst(10000003, 10000002, "msg_A", text("I'll check both at once."))
	g.asst(10000004, 10000003, "msg_A", toolUse("toolu_ls", "Bash", obj{"command": "ls"}))
	g.asst(10000005, 10000004, "msg_A", toolUse("toolu_wc", "Bash", obj{"command": "wc -l main.go"}))
	g.result(10000006, 10000004, "toolu_ls", "go.mod\nmain.go")
	g.result(10000007, 10000005, "toolu_wc", "42 main.go")
	g.asst(10000008, 10000007, "msg_B", text("There are two files; main.go has 42 lines."))
	g.meta(obj{"type": "last-prompt", "sessionId": g.sid, "lastPrompt": "List the files and count the lines of main.go", "leafUuid": id(10000008)})
	g.write("shapes/split-parallel.jsonl")
}

// legacy progress lines in the chain, a system line written before the
// progress line it points to, and a progress fork.
func progressLegacy() {
	g := newGen("22222222-2222-4222-8222-222222222222", cwd)
	g.user(20000001, 0, "Run the tests")
	g.asst(20000002, 20000001, "msg_P1", toolUse("toolu_t", "Bash", obj{"command": "go test ./..."}))
	g.progress(20000003, 20000002, g.ts())
	g.progress(20000004, 20000003, g.ts())
	g.result(20000005, 20000004, "toolu_t", "ok")
	// turn_duration written BEFORE the progress line it hangs on (out of order)
	tsLate := g.at(40)
	g.sysAt(20000008, 20000007, tsLate, "turn_duration", "durationMs", 1200, "messageCount", 4)
	g.asst(20000006, 20000005, "msg_P2", text("All tests pass."))
	g.progress(20000007, 20000006, g.ts())
	// progress fork: a second progress child of the same assistant line
	g.progress(20000009, 20000006, g.ts())
	g.user(20000010, 20000009, "Thanks. Now run vet")
	g.asst(20000011, 20000010, "msg_P3", text("go vet is clean."))
	g.write("shapes/progress-legacy.jsonl")
}

func compactPlain() {
	g := newGen("33333333-3333-4333-8333-333333333333", cwd)
	g.user(30000001, 0, "Refactor the cart module")
	g.asst(30000002, 30000001, "msg_C1", text("Refactored cart.go into three files."))
	g.user(30000003, 30000002, "Add tests")
	g.asst(30000004, 30000003, "msg_C2", text("Added cart_test.go."))
	g.meta(obj{"type": "last-prompt", "sessionId": g.sid, "lastPrompt": "Add tests", "leafUuid": id(30000004)})
	g.sys(30000005, 0, "compact_boundary", "content", "Conversation compacted", "logicalParentUuid", id(30000004),
		"compactMetadata", obj{"trigger": "auto", "preTokens": 155000})
	g.user(30000006, 30000005, "This session is being continued from a previous conversation. Summary: the cart module was split and tested.",
		"isCompactSummary", true, "isVisibleInTranscriptOnly", true)
	g.user(30000007, 30000006, "Now add a checkout endpoint")
	g.asst(30000008, 30000007, "msg_C3", text("Added POST /checkout."))
	g.meta(obj{"type": "last-prompt", "sessionId": g.sid, "lastPrompt": "Now add a checkout endpoint", "leafUuid": id(30000008)})
	g.write("shapes/compact.jsonl")
}

func compactPreserved() {
	g := newGen("44444444-4444-4444-8444-444444444444", cwd)
	g.user(40000001, 0, "Start the migration")
	g.asst(40000002, 40000001, "msg_D1", text("Step one done."))
	g.user(40000003, 40000002, "Continue")
	g.asst(40000004, 40000003, "msg_D2", text("Step two done."))
	g.user(40000005, 40000004, "Keep this part")
	g.asst(40000006, 40000005, "msg_D3", text("Step three done."))
	g.sys(40000007, 0, "compact_boundary", "content", "Conversation compacted", "logicalParentUuid", id(40000006),
		"compactMetadata", obj{"trigger": "manual", "preTokens": 90000,
			"preservedSegment": obj{"headUuid": id(40000005), "anchorUuid": id(40000008), "tailUuid": id(40000006)}})
	g.user(40000008, 40000007, "Summary: steps one and two of the migration are done.", "isCompactSummary", true, "isVisibleInTranscriptOnly", true)
	g.user(40000009, 40000008, "Finish the migration")
	g.asst(40000010, 40000009, "msg_D4", text("Migration finished."))
	g.write("shapes/compact-preserved.jsonl")
}

// the user rewinds and edits a prompt: two user children of one assistant line.
func rewind() {
	g := newGen("55555555-5555-4555-8555-555555555555", cwd)
	g.user(50000001, 0, "Write a haiku about Go")
	g.asst(50000002, 50000001, "msg_R1", text("Goroutines hum..."))
	g.user(50000003, 50000002, "Make it about channels")
	g.asst(50000004, 50000003, "msg_R2", text("Channels carry words..."))
	g.user(50000005, 50000002, "Make it about interfaces instead")
	g.asst(50000006, 50000005, "msg_R3", text("Interfaces, quiet..."))
	g.meta(obj{"type": "last-prompt", "sessionId": g.sid, "lastPrompt": "Make it about interfaces instead", "leafUuid": id(50000006)})
	g.write("shapes/rewind.jsonl")
}

// an api_error line flushed late with a newer timestamp forks the chain and
// wins the timestamp-based leaf choice.
func apiErrorLate() {
	g := newGen("66666666-6666-4666-8666-666666666666", cwd)
	g.user(60000001, 0, "Summarise README.md")
	g.asst(60000002, 60000001, "msg_E1", text("The README describes a shop backend."))
	g.user(60000003, 60000002, "And CONTRIBUTING.md?")
	g.asst(60000004, 60000003, "msg_E2", text("It asks for tests with every change."))
	g.meta(obj{"type": "last-prompt", "sessionId": g.sid, "lastPrompt": "And CONTRIBUTING.md?", "leafUuid": id(60000004)})
	g.sysAt(60000005, 60000003, g.at(600), "api_error", "error", obj{"status": 529, "message": "Overloaded"},
		"retryInMs", 2000, "retryAttempt", 1, "maxRetries", 10)
	g.write("shapes/api-error-late.jsonl")
}

func damaged() {
	g := newGen("77777777-7777-4777-8777-777777777777", cwd)
	g.user(70000001, 0, "hello")
	g.asst(70000002, 70000001, "msg_T1", text("Hi!"))
	g.user(70000003, 70000002, "bye")
	body := strings.Join(g.lines, "\n") + "\n"
	torn := g.env("assistant", id(70000004), id(70000003), g.ts(), "message", obj{"id": "msg_T2"})
	g.writeRaw("shapes/torn-tail.jsonl", body+torn[:len(torn)/2])
	g.writeRaw("shapes/nul-run.jsonl", strings.Join(g.lines[:2], "\n")+"\n"+strings.Repeat("\x00", 64)+"\n"+g.lines[2]+"\n")
	g.writeRaw("shapes/bom.jsonl", "\xef\xbb\xbf"+body)
	g.writeRaw("shapes/malformed-middle.jsonl", g.lines[0]+"\n"+`{"parentUuid":"broken`+"\n"+strings.Join(g.lines[1:], "\n")+"\n")
}

// a uuid written twice: the first position is kept, the later value wins.
func duplicate() {
	g := newGen("88888888-8888-4888-8888-888888888888", cwd)
	g.user(80000001, 0, "Plan the release")
	g.asst(80000002, 80000001, "msg_U1", text("Draft plan (first write)."))
	g.user(80000003, 80000002, "Ship it")
	g.asst(80000002, 80000001, "msg_U1", text("Final plan (rewritten)."))
	g.asst(80000004, 80000003, "msg_U2", text("Shipped."))
	g.write("shapes/duplicate-uuid.jsonl")
}

func selfParentAndCycle() {
	g := newGen("99999999-9999-4999-8999-999999999999", cwd)
	g.user(90000001, 0, "First")
	g.asst(90000002, 90000001, "msg_S1", text("Reply"))
	g.user(90000003, 90000003, "I name myself as parent")
	g.asst(90000004, 90000003, "msg_S2", text("Reply to self-parent"))
	g.write("shapes/self-parent.jsonl")

	c := newGen("aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa", cwd)
	c.user(91000001, 0, "Root")
	c.asst(91000002, 91000001, "msg_Y1", text("Reply"))
	c.user(91000003, 91000005, "In a loop (A)")
	c.asst(91000004, 91000003, "msg_Y2", text("In a loop (B)"))
	c.user(91000005, 91000004, "In a loop (C)")
	c.write("shapes/cycle.jsonl")
}

// metadata lines re-appended many times; last one wins; unknown types kept.
func metadata() {
	g := newGen("bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb", cwd)
	g.meta(obj{"type": "file-history-snapshot", "messageId": id(11000001), "snapshot": obj{"messageId": id(11000001), "trackedFileBackups": obj{}, "timestamp": g.at(1)}, "isSnapshotUpdate": false})
	g.user(11000001, 0, "<command-name>/init</command-name>", "isMeta", true)
	g.user(11000002, 11000001, "[Request interrupted by user]")
	g.user(11000003, 11000002, "Set up the linter config")
	g.asst(11000004, 11000003, "msg_M1", text("Added .golangci.yml."))
	g.meta(obj{"type": "ai-title", "sessionId": g.sid, "aiTitle": "Linter setup"})
	g.meta(obj{"type": "custom-title", "sessionId": g.sid, "customTitle": "old name"})
	g.meta(obj{"type": "tag", "sessionId": g.sid, "tag": "tooling"})
	g.meta(obj{"type": "queue-operation", "operation": "enqueue", "timestamp": g.at(20), "sessionId": g.sid, "content": "also run it"})
	g.meta(obj{"type": "last-prompt", "sessionId": g.sid, "lastPrompt": "Set up the linter config", "leafUuid": id(11000004)})
	g.meta(obj{"type": "future-entry-kind", "sessionId": g.sid, "payload": obj{"x": 1}})
	g.user(11000005, 11000004, "Run it")
	g.asst(11000006, 11000005, "msg_M2", text("No issues."))
	g.meta(obj{"type": "custom-title", "sessionId": g.sid, "customTitle": "Linter setup (final)"})
	g.meta(obj{"type": "ai-title", "sessionId": g.sid, "aiTitle": "Configure golangci-lint"})
	g.meta(obj{"type": "tag", "sessionId": g.sid, "tag": "tooling"})
	g.meta(obj{"type": "last-prompt", "sessionId": g.sid, "lastPrompt": "Run it", "leafUuid": id(11000006)})
	g.write("shapes/metadata.jsonl")
}

// session A's file carries the summary of session B (older CLIs appended
// the previous session's summary to the current file).
func summaryElsewhere() {
	dir := "home/projects/" + projectDir(cwd) + "/"
	b := newGen("cccccccc-0000-4000-8000-00000000000b", cwd)
	b.user(12000001, 0, "<local-command-stdout>ok</local-command-stdout>")
	b.user(12000002, 12000001, "Fix the flaky payment test")
	b.asst(12000003, 12000002, "msg_SB", text("Fixed by waiting on the channel."))
	b.write(dir + b.sid + ".jsonl")

	a := newGen("cccccccc-0000-4000-8000-00000000000a", cwd)
	a.meta(obj{"type": "summary", "summary": "Flaky payment test fixed", "leafUuid": id(12000003)})
	a.user(12100001, 0, "Bump the Go version")
	a.asst(12100002, 12100001, "msg_SA", text("Bumped to 1.26."))
	a.write(dir + a.sid + ".jsonl")
}

// both subagent layouts: <session>/subagents/agent-<id>.jsonl with
// .meta.json (toolUseId), a file linked only through toolUseResult.agentId,
// an unlinked one, and a legacy agent-<id>.jsonl beside the session.
func subagents() {
	dir := "home/projects/" + projectDir(cwd) + "/"
	s := newGen("dddddddd-0000-4000-8000-000000000001", cwd)
	s.user(13000001, 0, "Review the code and the docs in parallel")
	s.asst(13000002, 13000001, "msg_G1", toolUse("toolu_agent1", "Task", obj{"description": "Review code", "prompt": "Review the Go code", "subagent_type": "general-purpose"}))
	s.asst(13000003, 13000002, "msg_G1", toolUse("toolu_agent2", "Task", obj{"description": "Review docs", "prompt": "Review the docs", "subagent_type": "general-purpose"}))
	s.result(13000004, 13000002, "toolu_agent1", "Code looks fine.")
	msg := obj{"role": "user", "content": []obj{{"tool_use_id": "toolu_agent2", "type": "tool_result", "content": []obj{text("Docs need a changelog.")}}}}
	s.add(s.env("user", id(13000005), id(13000003), s.ts(), "message", msg, "toolUseResult", obj{"status": "completed", "agentId": "b2", "totalTokens": 1234}, "sourceToolAssistantUUID", id(13000003)))
	s.asst(13000006, 13000005, "msg_G2", text("Code is fine; the docs need a changelog."))
	s.write(dir + s.sid + ".jsonl")

	sub := func(agent string, n int, rel string) {
		a := newGen(s.sid, cwd)
		a.add(strings.Replace(a.env("user", id(n), nil, a.ts(), "agentId", agent, "message", obj{"role": "user", "content": "Review"}), `"isSidechain":false`, `"isSidechain":true`, 1))
		a.add(strings.Replace(a.env("assistant", id(n+1), id(n), a.ts(), "agentId", agent, "message", obj{"id": "msg_sub" + agent, "type": "message", "role": "assistant", "model": "claude-haiku-4-5", "content": []obj{text("Done reviewing.")}}), `"isSidechain":false`, `"isSidechain":true`, 1))
		a.write(dir + rel)
	}
	sub("a1", 13100001, s.sid+"/subagents/agent-a1.jsonl")
	metaJSON, _ := json.Marshal(obj{"agentType": "general-purpose", "description": "Review code", "toolUseId": "toolu_agent1"})
	s.writeRaw(dir+s.sid+"/subagents/agent-a1.meta.json", string(metaJSON)+"\n")
	sub("b2", 13200001, s.sid+"/subagents/agent-b2.jsonl")
	sub("c3", 13300001, s.sid+"/subagents/agent-c3.jsonl")
	// a compaction subagent: its first record hangs on the session's last
	// record, which is in the parent file (how Claude Code writes them)
	c := newGen(s.sid, cwd)
	c.add(strings.Replace(c.env("user", id(13600001), id(13000006), c.ts(), "agentId", "acompact-5e6f", "message", obj{"role": "user", "content": "Summarise the conversation so far."}), `"isSidechain":false`, `"isSidechain":true`, 1))
	c.add(strings.Replace(c.env("assistant", id(13600002), id(13600001), c.ts(), "agentId", "acompact-5e6f", "message", obj{"id": "msg_cmp", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5-20250929", "content": []obj{text("Summary: code reviewed, docs need a changelog.")}}), `"isSidechain":false`, `"isSidechain":true`, 1))
	c.write(dir + s.sid + "/subagents/agent-acompact-5e6f.jsonl")

	// legacy layout: agent file beside an older session
	o := newGen("dddddddd-0000-4000-8000-000000000002", cwd)
	o.user(13400001, 0, "Search for TODOs")
	o.asst(13400002, 13400001, "msg_L1", toolUse("toolu_old", "Task", obj{"description": "Find TODOs", "prompt": "grep TODO"}))
	msg2 := obj{"role": "user", "content": []obj{{"tool_use_id": "toolu_old", "type": "tool_result", "content": "3 TODOs"}}}
	o.add(o.env("user", id(13400003), id(13400002), o.ts(), "message", msg2, "toolUseResult", obj{"agentId": "e5f6a7b8", "status": "completed"}))
	o.asst(13400004, 13400003, "msg_L2", text("There are 3 TODOs."))
	o.write(dir + o.sid + ".jsonl")
	sub("e5f6a7b8", 13500001, "agent-e5f6a7b8.jsonl")
	// rewrite with the legacy session id
	p := filepath.Join(root, dir, "agent-e5f6a7b8.jsonl")
	bs, _ := os.ReadFile(p)
	os.WriteFile(p, []byte(strings.ReplaceAll(string(bs), s.sid, o.sid)), 0o644)
}

// a working directory over 200 characters: the folder name is cut to 200
// and suffixed with a hash.
func longCwd() {
	long := "/home/dev/" + strings.Repeat("very-long-directory-name/", 10) + "project"
	g := newGen("eeeeeeee-0000-4000-8000-000000000001", long)
	g.user(14000001, 0, "Where am I?")
	g.asst(14000002, 14000001, "msg_W1", text("In a very deep directory."))
	g.write("home/projects/" + projectDir(long) + "/" + g.sid + ".jsonl")
}
