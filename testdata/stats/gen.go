//go:build ignore

// gen.go writes testdata/stats/claude-home: a small Claude Code home whose
// token totals sessctl stats and ccusage must agree on (docs/stats.md).
// Run from the repository root: go run testdata/stats/gen.go
//
// It holds what usage counting gets wrong most often: an API response split
// over several lines (placeholder usage first, the final usage later), a
// response with no requestId, a <synthetic> message, a malformed line, a
// subagent (sidechain) file that replays a parent response under another
// requestId, a resumed session that copies a response of another session
// byte for byte (same message.id and requestId), a day boundary, two
// models, and Claude Code 2.1.330 cost-state records.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

type obj = map[string]any

type sess struct {
	dir, id, cwd string
	lines        []string
	n            int
	parent       string
	sidechain    bool
}

func (s *sess) add(v obj) {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	s.lines = append(s.lines, string(b))
}

func (s *sess) uuid() string {
	s.n++
	u := fmt.Sprintf("%08x-0000-4000-8000-%012x", s.n, len(s.id)*1000+s.n)
	return u
}

func (s *sess) base(typ, ts string) obj {
	u := s.uuid()
	o := obj{"type": typ, "uuid": u, "parentUuid": nilIf(s.parent), "sessionId": s.id, "cwd": s.cwd,
		"timestamp": ts, "isSidechain": s.sidechain, "version": "2.1.330", "userType": "external"}
	s.parent = u
	return o
}

func nilIf(p string) any {
	if p == "" {
		return nil
	}
	return p
}

func (s *sess) user(ts, text string) {
	o := s.base("user", ts)
	o["message"] = obj{"role": "user", "content": text}
	s.add(o)
}

func (s *sess) toolResult(ts, id string) {
	o := s.base("user", ts)
	o["message"] = obj{"role": "user", "content": []any{obj{"type": "tool_result", "tool_use_id": id, "content": "ok"}}}
	s.add(o)
}

func usage(in, out, cr, cw int) obj {
	return obj{"input_tokens": in, "output_tokens": out, "cache_read_input_tokens": cr, "cache_creation_input_tokens": cw,
		"service_tier": "standard"}
}

// asst writes one line of an assistant response.
func (s *sess) asst(ts, model, msgID, reqID string, block obj, u obj) {
	o := s.base("assistant", ts)
	o["message"] = obj{"id": msgID, "type": "message", "role": "assistant", "model": model,
		"content": []any{block}, "stop_reason": nil, "usage": u}
	if reqID != "" {
		o["requestId"] = reqID
	}
	s.add(o)
}

func (s *sess) raw(line string) { s.lines = append(s.lines, line) }

func (s *sess) costState(total float64) {
	s.add(obj{"type": "cost-state", "sessionId": s.id, "totalCostUSD": total, "totalAPIDuration": 1234, "modelUsage": obj{}})
}

func (s *sess) write(root string) {
	p := filepath.Join(root, s.dir, s.id+".jsonl")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		panic(err)
	}
	if err := os.WriteFile(p, []byte(strings.Join(s.lines, "\n")+"\n"), 0o644); err != nil {
		panic(err)
	}
}

func text(t string) obj     { return obj{"type": "text", "text": t} }
func think(t string) obj    { return obj{"type": "thinking", "thinking": t, "signature": "sig"} }
func tool(id, n string) obj { return obj{"type": "tool_use", "id": id, "name": n, "input": obj{}} }

const (
	sonnet = "claude-sonnet-4-5-20250929"
	opus   = "claude-opus-4-1-20250805"
)

func main() {
	root := filepath.Join("testdata", "stats", "claude-home", "projects")
	if err := os.RemoveAll(filepath.Dir(root)); err != nil {
		panic(err)
	}
	a := "-home-u-proj-a"
	b := "-home-u-proj-b"

	// s1: project a, across midnight UTC (2026-11-20 → 2026-11-21).
	s1 := &sess{dir: a, id: "aaaaaaaa-0000-4000-8000-000000000001", cwd: "/home/u/proj-a"}
	s1.user("2026-11-20T23:50:00.000Z", "fix the parser")
	// one response on three lines: placeholder usage (output 3), then the final one (output 172)
	s1.asst("2026-11-20T23:50:05.000Z", sonnet, "msg_a1", "req_a1", think("hm"), usage(10, 3, 1000, 200))
	s1.asst("2026-11-20T23:50:06.000Z", sonnet, "msg_a1", "req_a1", text("Looking."), usage(10, 172, 1000, 200))
	s1.asst("2026-11-20T23:50:07.000Z", sonnet, "msg_a1", "req_a1", tool("tu_1", "Bash"), usage(10, 172, 1000, 200))
	s1.toolResult("2026-11-20T23:50:09.000Z", "tu_1")
	s1.raw(`{"type":"assistant","message":{"id":"msg_broken"`) // malformed: skipped by everyone
	s1.asst("2026-11-20T23:59:59.000Z", sonnet, "msg_a2", "req_a2", tool("tu_2", "Read"), usage(5, 40, 1200, 0))
	s1.asst("2026-11-20T23:59:59.500Z", sonnet, "msg_a2", "req_a2", tool("tu_3", "Read"), usage(5, 40, 1200, 0))
	s1.toolResult("2026-11-21T00:00:01.000Z", "tu_2")
	s1.toolResult("2026-11-21T00:00:02.000Z", "tu_3")
	s1.costState(0.0421)
	// no requestId (a third-party gateway): keyed by message.id alone
	s1.asst("2026-11-21T00:01:00.000Z", sonnet, "msg_a3", "", text("Done."), usage(7, 90, 1300, 50))
	s1.asst("2026-11-21T00:01:00.000Z", sonnet, "msg_a3", "", text("Done."), usage(7, 90, 1300, 50))
	// an API error turned into a synthetic message: zero usage
	s1.asst("2026-11-21T00:02:00.000Z", "<synthetic>", "6e0c6a8e-0000-4000-8000-0000000000aa", "", text("API Error"), usage(0, 0, 0, 0))
	s1.costState(0.0587)
	s1.write(root)

	// The subagent of s1: replays the parent's msg_a1 under another requestId, then answers on its own.
	sub := &sess{dir: filepath.Join(a, s1.id, "subagents"), id: "agent-a0000001", cwd: "/home/u/proj-a", sidechain: true}
	sub.user("2026-11-20T23:55:00.000Z", "search the repo")
	sub.asst("2026-11-20T23:55:01.000Z", sonnet, "msg_a1", "req_sub_replay", text("Looking."), usage(10, 172, 1000, 200))
	sub.asst("2026-11-20T23:55:03.000Z", sonnet, "msg_s1", "req_s1", tool("tu_s1", "Grep"), usage(300, 60, 0, 4000))
	sub.toolResult("2026-11-20T23:55:04.000Z", "tu_s1")
	sub.asst("2026-11-20T23:55:06.000Z", sonnet, "msg_s2", "req_s2", text("Found it."), usage(20, 30, 4000, 100))
	sub.write(root)

	// s2: project b, another day, opus.
	s2 := &sess{dir: b, id: "bbbbbbbb-0000-4000-8000-000000000002", cwd: "/home/u/proj-b"}
	s2.user("2026-11-22T09:00:00.000Z", "write docs")
	s2.asst("2026-11-22T09:00:04.000Z", opus, "msg_b1", "req_b1", text("Sure."), usage(2000, 500, 0, 3000))
	s2.user("2026-11-22T09:05:00.000Z", "more")
	s2.asst("2026-11-22T09:05:04.000Z", opus, "msg_b2", "req_b2", tool("tu_b2", "Edit"), usage(30, 250, 5000, 120))
	s2.toolResult("2026-11-22T09:05:05.000Z", "tu_b2")
	s2.write(root)

	// s3: resumed from s2 (claude --resume --fork-session): it starts with a
	// copy of s2's lines (same message.id and requestId), then goes on.
	s3 := &sess{dir: b, id: "cccccccc-0000-4000-8000-000000000003", cwd: "/home/u/proj-b"}
	s3.user("2026-11-22T09:00:00.000Z", "write docs")
	s3.asst("2026-11-22T09:00:04.000Z", opus, "msg_b1", "req_b1", text("Sure."), usage(2000, 500, 0, 3000))
	s3.user("2026-11-23T10:00:00.000Z", "and a changelog")
	s3.asst("2026-11-23T10:00:03.000Z", sonnet, "msg_c1", "req_c1", text("Done."), usage(40, 80, 6000, 10))
	s3.costState(0.0102)
	s3.write(root)
}
