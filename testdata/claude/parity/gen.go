//go:build ignore

// gen writes the Claude Code parity cases: synthetic transcripts that
// run.sh resumes with the real Claude Code CLI to capture the conversation
// it sends. Run from the repository root:
//
//	go run testdata/claude/parity/gen.go
//
// It writes testdata/claude/parity/cases/<name>/<session>.jsonl (plus
// subagent files where a case has them) and cases.json. Every text a
// record carries ends with the tag [[L<n>]], n being the record's 1-based
// line number, so a captured request maps back to lines. Everything is made
// up.
package main

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

const (
	dir = "testdata/claude/parity/cases"
	// Cwd is the working directory of every case; run.sh resumes there.
	Cwd = "/tmp/ccparity/work"
)

var base = time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)

type obj = map[string]any

func id(n int) string { return fmt.Sprintf("%08d-0000-4000-8000-%012d", n, n) }

// tag is replaced by the line number when the line is added.
const tag = "[[L?]]"

func tg(s string) string { return s + " " + tag }

type gen struct {
	name  string
	sid   string
	lines []string
	sec   int
	side  bool   // isSidechain of the next env lines
	agent string // agentId of the next env lines
	extra map[string]string
	note  string
}

var cases []*gen

func newCase(name, note string) *gen {
	h := fnv.New32a()
	h.Write([]byte(name))
	n := h.Sum32()
	// the session id depends on the name only, so adding a case changes no other
	g := &gen{name: name, sid: fmt.Sprintf("%08x-0000-4000-8000-%012x", n, n), note: note}
	cases = append(cases, g)
	return g
}

func (g *gen) ts() string {
	g.sec += 2
	return g.at(g.sec)
}

func (g *gen) at(sec int) string {
	return base.Add(time.Duration(sec) * time.Second).Format("2006-01-02T15:04:05.000Z")
}

func js(v any) string {
	if v == nil {
		return "null"
	}
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func (g *gen) env(typ string, uuid, parent any, ts string, rest ...any) string {
	var b strings.Builder
	b.WriteString(`{"parentUuid":` + js(parent))
	b.WriteString(`,"isSidechain":` + js(g.side))
	if g.agent != "" {
		b.WriteString(`,"agentId":` + js(g.agent))
	}
	b.WriteString(`,"userType":"external","cwd":` + js(Cwd) + `,"sessionId":` + js(g.sid) + `,"version":"2.1.330","gitBranch":"main"`)
	for i := 0; i+1 < len(rest); i += 2 {
		b.WriteString("," + js(rest[i]) + ":" + js(rest[i+1]))
	}
	b.WriteString(`,"type":` + js(typ) + `,"uuid":` + js(uuid) + `,"timestamp":` + js(ts) + "}")
	return b.String()
}

// add appends a line, replacing the tag placeholder by its line number.
func (g *gen) add(s string) {
	n := len(g.lines) + 1
	g.lines = append(g.lines, strings.ReplaceAll(s, tag, fmt.Sprintf("[[L%d]]", n)))
}

func par(n int) any {
	if n == 0 {
		return nil
	}
	return id(n)
}

func (g *gen) user(n, parent int, text string, rest ...any) {
	g.userAt(n, parent, g.ts(), text, rest...)
}

func (g *gen) userAt(n, parent int, ts, text string, rest ...any) {
	g.add(g.env("user", id(n), par(parent), ts, append([]any{"message", obj{"role": "user", "content": tg(text)}}, rest...)...))
}

func (g *gen) userBlocks(n, parent int, blocks []obj, rest ...any) {
	g.add(g.env("user", id(n), par(parent), g.ts(), append([]any{"message", obj{"role": "user", "content": blocks}}, rest...)...))
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

// apiErr writes the synthetic assistant message Claude Code records when
// its retries are exhausted.
func (g *gen) apiErr(n, parent int) {
	msg := obj{"id": fmt.Sprintf("%08d-synth", n), "type": "message", "role": "assistant", "model": "<synthetic>",
		"content": []obj{text("API Error: 529 Overloaded")}, "stop_reason": "stop_sequence", "stop_sequence": "",
		"usage": obj{"input_tokens": 0, "output_tokens": 0}}
	g.add(g.env("assistant", id(n), par(parent), g.ts(), "message", msg, "isApiErrorMessage", true, "error", "unknown"))
}

func (g *gen) result(n, parent int, toolID, out string, rest ...any) {
	g.resultAt(n, parent, g.ts(), toolID, out, rest...)
}

func (g *gen) resultAt(n, parent int, ts, toolID, out string, rest ...any) {
	msg := obj{"role": "user", "content": []obj{{"tool_use_id": toolID, "type": "tool_result", "content": tg(out)}}}
	g.add(g.env("user", id(n), par(parent), ts, append([]any{"message", msg, "toolUseResult", obj{"stdout": out}, "sourceToolAssistantUUID", id(parent)}, rest...)...))
}

func (g *gen) sys(n, parent int, subtype string, rest ...any) {
	g.sysAt(n, parent, g.ts(), subtype, rest...)
}

func (g *gen) sysAt(n, parent int, ts, subtype string, rest ...any) {
	g.add(g.env("system", id(n), par(parent), ts, append([]any{"subtype", subtype, "level", "info"}, rest...)...))
}

func (g *gen) progress(n, parent int) {
	g.progressAt(n, parent, g.ts())
}

func (g *gen) progressAt(n, parent int, ts string) {
	g.add(g.env("progress", id(n), par(parent), ts, "data", obj{"type": "hook_progress", "hookEvent": "PostToolUse", "hookName": "PostToolUse:Bash", "command": "true"},
		"toolUseID", "toolu_hook", "parentToolUseID", "toolu_hook"))
}

// meta writes a metadata line with "type" first.
func (g *gen) meta(typ string, kv ...any) {
	var b strings.Builder
	b.WriteString(`{"type":` + js(typ))
	for i := 0; i+1 < len(kv); i += 2 {
		b.WriteString("," + js(kv[i]) + ":" + js(kv[i+1]))
	}
	b.WriteString("}")
	g.add(b.String())
}

func (g *gen) lastPrompt(prompt string, leaf any, explicit any) {
	kv := []any{"lastPrompt", prompt}
	if leaf != "-" {
		kv = append(kv, "leafUuid", leaf)
	}
	if explicit != nil {
		kv = append(kv, "explicit", explicit)
	}
	g.meta("last-prompt", append(kv, "sessionId", g.sid)...)
}

func text(s string) obj     { return obj{"type": "text", "text": s} }
func ttext(s string) obj    { return text(tg(s)) }
func thinking(s string) obj { return obj{"type": "thinking", "thinking": tg(s), "signature": "sig"} }
func toolUse(tid, name, cmd string) obj {
	return obj{"type": "tool_use", "id": tid, "name": name, "input": obj{"command": tg(cmd)}}
}
func toolResult(tid, out string) obj {
	return obj{"tool_use_id": tid, "type": "tool_result", "content": tg(out)}
}

func msgID(n int) string { return fmt.Sprintf("msg_%08d", n) }

// chat writes k user/assistant exchanges starting at record n under parent;
// it returns the last uuid number.
func (g *gen) chat(n, parent, k int) int {
	for i := 0; i < k; i++ {
		g.user(n, parent, fmt.Sprintf("question %d", i+1))
		g.asst(n+1, n, msgID(n+1), ttext(fmt.Sprintf("answer %d", i+1)))
		parent = n + 1
		n += 2
	}
	return parent
}

func main() {
	os.RemoveAll(dir)
	linear()
	rewinds()
	apiErrors()
	parallel()
	progressCases()
	compaction()
	metadata()
	lastPrompts()
	sidechains()
	damaged()
	newRecords()
	titles()
	type entry struct {
		Name    string   `json:"name"`
		Session string   `json:"session"`
		Note    string   `json:"note"`
		Files   []string `json:"files"`
	}
	var man []entry
	os.RemoveAll(titleDir)
	for _, g := range titleCases {
		write(filepath.Join(titleDir, g.sid+".jsonl"), strings.Join(g.lines, "\n")+"\n")
	}
	for _, g := range cases {
		p := filepath.Join(dir, g.name, g.sid+".jsonl")
		write(p, strings.Join(g.lines, "\n")+"\n")
		files := []string{g.sid + ".jsonl"}
		for rel, content := range g.extra {
			write(filepath.Join(dir, g.name, rel), content)
			files = append(files, rel)
		}
		sort.Strings(files[1:])
		man = append(man, entry{g.name, g.sid, g.note, files})
	}
	b, _ := json.MarshalIndent(man, "", " ")
	write("testdata/claude/parity/cases.json", string(b)+"\n")
	fmt.Println(len(man), "cases")
}

func write(p, s string) {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		panic(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		panic(err)
	}
}

// raw replaces the last line by s (for damaged lines).
func (g *gen) raw(s string) { g.lines = append(g.lines, s) }

func linear() {
	for k := 1; k <= 8; k++ {
		g := newCase(fmt.Sprintf("linear-%d", k), "k user/assistant exchanges")
		last := g.chat(1000, 0, k)
		if k%2 == 0 {
			g.lastPrompt(fmt.Sprintf("question %d", k), id(last), nil)
		}
	}
	for k := 1; k <= 4; k++ {
		g := newCase(fmt.Sprintf("linear-trailing-user-%d", k), "ends with a user prompt that got no reply")
		last := g.chat(1000, 0, k-1)
		g.user(1900, last, "unanswered")
	}
	g := newCase("linear-split-blocks", "one reply written as thinking+text+text lines")
	g.user(1000, 0, "explain")
	g.asst(1001, 1000, "msg_A", thinking("hmm"))
	g.asst(1002, 1001, "msg_A", ttext("part one"))
	g.asst(1003, 1002, "msg_A", ttext("part two"))
	g.user(1004, 1003, "thanks")
	g.asst(1005, 1004, "msg_B", ttext("welcome"))

	g = newCase("linear-thinking-only", "a reply that is only thinking, then a new prompt")
	g.user(1000, 0, "think")
	g.asst(1001, 1000, "msg_A", thinking("only thinking"))
	g.user(1002, 1001, "and?")
	g.asst(1003, 1002, "msg_B", ttext("done"))

	g = newCase("linear-whitespace-reply", "a whitespace-only assistant text")
	g.user(1000, 0, "say nothing")
	g.asst(1001, 1000, "msg_A", text("   \n  "))
	g.user(1002, 1001, "now say something")
	g.asst(1003, 1002, "msg_B", ttext("something"))

	g = newCase("linear-meta-command", "isMeta command expansion and local-command output before the prompt")
	g.user(1000, 0, "<command-name>/review</command-name>", "isMeta", true)
	g.user(1001, 1000, "<local-command-stdout>ok</local-command-stdout>")
	g.user(1002, 1001, "review main.go")
	g.asst(1003, 1002, "msg_A", ttext("looks fine"))

	g = newCase("linear-interrupted", "an interrupted turn: tool_use, then [Request interrupted]")
	g.user(1000, 0, "run it")
	g.asst(1001, 1000, "msg_A", toolUse("toolu_1001", "Bash", "sleep 100"))
	g.resultAt(1002, 1001, g.ts(), "toolu_1001", "[Request interrupted by user for tool use]")
	g.user(1003, 1002, "[Request interrupted by user for tool use]")

	g = newCase("linear-ends-tool-result", "ends with a tool_result (interrupted turn)")
	g.user(1000, 0, "list")
	g.asst(1001, 1000, "msg_A", toolUse("toolu_1001", "Bash", "ls"))
	g.result(1002, 1001, "toolu_1001", "a b")

	g = newCase("linear-ends-tool-use", "ends with a tool_use whose result was never written")
	g.user(1000, 0, "list")
	g.asst(1001, 1000, "msg_A", ttext("I'll list"))
	g.asst(1002, 1001, "msg_A", toolUse("toolu_1002", "Bash", "ls"))

	g = newCase("linear-image", "an image block in a prompt")
	g.userBlocks(1000, 0, []obj{{"type": "image", "source": obj{"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}}, ttext("what is this")})
	g.asst(1001, 1000, "msg_A", ttext("a tiny png"))
}

func rewinds() {
	for pos := 1; pos <= 3; pos++ {
		for _, lp := range []string{"none", "old", "new"} {
			g := newCase(fmt.Sprintf("rewind-at-%d-lp-%s", pos, lp), "user edits the prompt after exchange pos; last-prompt names the old, the new or no branch")
			last := g.chat(1000, 0, 3)
			_ = last
			// branch from the assistant of exchange pos (uuid 1000+2*pos-1)
			from := 1000 + 2*pos - 1
			g.user(2000, from, "edited prompt")
			g.asst(2001, 2000, "msg_R", ttext("edited answer"))
			switch lp {
			case "old":
				g.lastPrompt("question 3", id(last), nil)
			case "new":
				g.lastPrompt("edited prompt", id(2001), nil)
			}
		}
	}
	g := newCase("rewind-root", "two roots: the first prompt edited")
	g.chat(1000, 0, 2)
	g.user(2000, 0, "edited first prompt")
	g.asst(2001, 2000, "msg_R", ttext("edited first answer"))

	g = newCase("rewind-older-newer-ts", "the old branch has newer timestamps than the new one, written later")
	g.chat(1000, 0, 2)
	g.userAt(2000, 1001, g.at(3), "edited")
	g.asstAt(2001, 2000, g.at(4), "msg_R", ttext("edited answer"))

	g = newCase("rewind-twice", "two edits of the same prompt")
	g.chat(1000, 0, 2)
	g.user(2000, 1001, "edit one")
	g.asst(2001, 2000, "msg_R1", ttext("answer one"))
	g.user(3000, 1001, "edit two")
	g.asst(3001, 3000, "msg_R2", ttext("answer two"))
	g.lastPrompt("edit two", id(3001), nil)
}

func apiErrors() {
	for r := 1; r <= 3; r++ {
		g := newCase(fmt.Sprintf("api-retry-%d", r), "system api_error retries before the reply")
		g.user(1000, 0, "hello")
		prev := 1000
		for i := 0; i < r; i++ {
			g.sys(1100+i, prev, "api_error", "error", obj{"status": 529}, "retryInMs", 500, "retryAttempt", i+1, "maxRetries", 10)
			prev = 1100 + i
		}
		g.asst(1001, 1000, "msg_A", ttext("hi"))
		g.user(1002, 1001, "again")
		g.asst(1003, 1002, "msg_B", ttext("hi again"))
	}
	for _, lp := range []bool{false, true} {
		g := newCase(fmt.Sprintf("api-retry-late-lp-%v", lp), "an api_error written last with the newest timestamp on an old parent")
		g.chat(1000, 0, 2)
		if lp {
			g.lastPrompt("question 2", id(1003), nil)
		}
		g.sysAt(1100, 1002, g.at(900), "api_error", "error", obj{"status": 529}, "retryInMs", 500, "retryAttempt", 1, "maxRetries", 10)
	}
	g := newCase("api-retry-late-chained", "a reply whose parent is the api_error line")
	g.user(1000, 0, "hello")
	g.sys(1100, 1000, "api_error", "error", obj{"status": 500}, "retryAttempt", 1)
	g.asst(1001, 1100, "msg_A", ttext("hi"))
	g.user(1002, 1001, "ok")
	g.asst(1003, 1002, "msg_B", ttext("fine"))

	for _, after := range []string{"end", "retry", "retry-lp"} {
		g := newCase("api-synthetic-"+after, "a synthetic API error assistant message (isApiErrorMessage)")
		g.user(1000, 0, "hello")
		g.apiErr(1001, 1000)
		switch after {
		case "retry":
			g.user(1002, 1001, "try again")
			g.asst(1003, 1002, "msg_B", ttext("worked"))
		case "retry-lp":
			g.user(1002, 1001, "try again")
			g.asst(1003, 1002, "msg_B", ttext("worked"))
			g.lastPrompt("try again", id(1003), nil)
		}
	}
	g = newCase("api-synthetic-middle-retry", "a synthetic error mid-conversation, the user retries")
	g.chat(1000, 0, 2)
	g.user(1004, 1003, "next")
	g.apiErr(1005, 1004)
	g.user(1006, 1005, "again please")
	g.asst(1007, 1006, "msg_C", ttext("done"))

	g = newCase("api-synthetic-late", "a synthetic error written late on an old branch with the newest timestamp")
	g.chat(1000, 0, 2)
	g.add(newSynth(g, 1100, 1002))
}

// newSynth builds a synthetic API error line with a late timestamp.
func newSynth(g *gen, n, parent int) string {
	msg := obj{"id": fmt.Sprintf("%08d-synth", n), "type": "message", "role": "assistant", "model": "<synthetic>",
		"content": []obj{text("API Error: 500 " + tag)}, "stop_reason": "stop_sequence", "stop_sequence": "",
		"usage": obj{"input_tokens": 0, "output_tokens": 0}}
	return g.env("assistant", id(n), par(parent), g.at(900), "message", msg, "isApiErrorMessage", true)
}

func parallel() {
	for k := 1; k <= 4; k++ {
		for _, shape := range []string{"dag", "linear"} {
			for _, think := range []bool{false, true} {
				g := newCase(fmt.Sprintf("parallel-%s-%d-think-%v", shape, k, think), "k parallel tool calls, results parented on the tool_use line (dag) or chained (linear)")
				g.user(1000, 0, "do things")
				prev := 1000
				n := 1001
				if think {
					g.asst(n, prev, "msg_A", thinking("plan"))
					prev = n
					n++
				}
				uses := []int{}
				for i := 0; i < k; i++ {
					g.asst(n, prev, "msg_A", toolUse(fmt.Sprintf("toolu_%d", n), "Bash", fmt.Sprintf("cmd %d", i)))
					uses = append(uses, n)
					prev = n
					n++
				}
				for i, u := range uses {
					p := u
					if shape == "linear" {
						p = prev
					}
					g.result(n, p, fmt.Sprintf("toolu_%d", u), fmt.Sprintf("out %d", i))
					prev = n
					n++
				}
				g.asst(n, prev, "msg_B", ttext("all done"))
			}
		}
	}
	for _, miss := range []int{0, 1} {
		g := newCase(fmt.Sprintf("parallel-missing-result-%d", miss), "one of two parallel results is gone")
		g.user(1000, 0, "two")
		g.asst(1001, 1000, "msg_A", toolUse("toolu_1001", "Bash", "a"))
		g.asst(1002, 1001, "msg_A", toolUse("toolu_1002", "Bash", "b"))
		if miss == 0 {
			g.result(1004, 1002, "toolu_1002", "b out")
		} else {
			g.result(1003, 1001, "toolu_1001", "a out")
			g.result(1004, 1002, "toolu_1002", "b out")
		}
		g.asst(1005, 1004, "msg_B", ttext("done"))
	}
	g := newCase("tool-use-no-result-mid", "a tool_use whose result is gone, mid-conversation")
	g.user(1000, 0, "run")
	g.asst(1001, 1000, "msg_A", toolUse("toolu_1001", "Bash", "x"))
	g.user(1002, 1001, "never mind")
	g.asst(1003, 1002, "msg_B", ttext("ok"))

	g = newCase("tool-use-no-result-with-text", "a text+tool_use reply whose result is gone")
	g.user(1000, 0, "run")
	g.asst(1001, 1000, "msg_A", ttext("running"))
	g.asst(1002, 1001, "msg_A", toolUse("toolu_1002", "Bash", "x"))
	g.user(1003, 1002, "never mind")
	g.asst(1004, 1003, "msg_B", ttext("ok"))

	g = newCase("tool-result-no-call", "a tool_result whose tool_use is gone")
	g.user(1000, 0, "hi")
	g.asst(1001, 1000, "msg_A", ttext("hello"))
	g.result(1002, 1001, "toolu_gone", "orphan output")
	g.user(1003, 1002, "next")
	g.asst(1004, 1003, "msg_B", ttext("ok"))

	g = newCase("tool-result-mixed-orphan", "one tool_result block matches, one does not")
	g.user(1000, 0, "hi")
	g.asst(1001, 1000, "msg_A", toolUse("toolu_1001", "Bash", "a"))
	g.userBlocks(1002, 1001, []obj{toolResult("toolu_1001", "a out"), toolResult("toolu_zzz", "orphan")})
	g.asst(1003, 1002, "msg_B", ttext("ok"))

	g = newCase("tool-result-late-sibling", "a parallel result written after the next reply")
	g.user(1000, 0, "two")
	g.asst(1001, 1000, "msg_A", toolUse("toolu_1001", "Bash", "a"))
	g.asst(1002, 1001, "msg_A", toolUse("toolu_1002", "Bash", "b"))
	g.result(1004, 1002, "toolu_1002", "b out")
	g.asst(1005, 1004, "msg_B", ttext("done"))
	g.result(1003, 1001, "toolu_1001", "a out")
}

func progressCases() {
	// base: u a(tool) r a u a ; a progress line inserted before record i
	for pos := 1; pos <= 6; pos++ {
		for _, run := range []int{1, 2} {
			g := newCase(fmt.Sprintf("progress-at-%d-run-%d", pos, run), "legacy progress lines bridged before record pos")
			recs := []func(parent int){
				func(p int) { g.user(1000, p, "test") },
				func(p int) { g.asst(1001, p, "msg_A", toolUse("toolu_1001", "Bash", "go test")) },
				func(p int) { g.result(1002, p, "toolu_1001", "ok") },
				func(p int) { g.asst(1003, p, "msg_B", ttext("pass")) },
				func(p int) { g.user(1004, p, "vet") },
				func(p int) { g.asst(1005, p, "msg_C", ttext("clean")) },
			}
			parent := 0
			for i, r := range recs {
				if i == pos-1 && i > 0 {
					for j := 0; j < run; j++ {
						g.progress(1500+j, parent)
						parent = 1500 + j
					}
				}
				r(parent)
				parent = 1000 + i
				if i == 0 && pos == 1 {
					// progress hung on the root, then the chain continues through it
					for j := 0; j < run; j++ {
						g.progress(1500+j, parent)
						parent = 1500 + j
					}
				}
			}
		}
	}
	g := newCase("progress-trailing", "progress lines after the last reply")
	g.chat(1000, 0, 2)
	g.progress(1500, 1003)
	g.progress(1501, 1500)

	g = newCase("progress-forward", "a system line written before the progress line it hangs on")
	g.user(1000, 0, "test")
	g.asst(1001, 1000, "msg_A", ttext("done"))
	g.sysAt(1100, 1500, g.at(40), "turn_duration", "durationMs", 100, "messageCount", 2)
	g.progress(1500, 1001)
	g.user(1002, 1500, "more")
	g.asst(1003, 1002, "msg_B", ttext("more done"))

	g = newCase("progress-fork", "two progress children of one reply; the chain continues on the second")
	g.user(1000, 0, "test")
	g.asst(1001, 1000, "msg_A", ttext("done"))
	g.progress(1500, 1001)
	g.progress(1501, 1001)
	g.user(1002, 1501, "next")
	g.asst(1003, 1002, "msg_B", ttext("next done"))

	g = newCase("progress-late-newest", "a late progress line with the newest timestamp")
	g.chat(1000, 0, 2)
	g.progressAt(1500, 1001, g.at(900))
}

func compaction() {
	summary := func(g *gen, n, parent int) {
		g.user(n, parent, "This session is being continued from a previous conversation. Summary.", "isCompactSummary", true, "isVisibleInTranscriptOnly", true)
	}
	boundary := func(g *gen, n, logical int, md obj) {
		g.sys(n, 0, "compact_boundary", "content", "Conversation compacted", "logicalParentUuid", id(logical), "compactMetadata", md)
	}
	for _, lp := range []string{"none", "before", "after"} {
		g := newCase("compact-plain-lp-"+lp, "one compaction")
		last := g.chat(1000, 0, 2)
		if lp == "before" {
			g.lastPrompt("question 2", id(last), nil)
		}
		boundary(g, 2000, last, obj{"trigger": "auto", "preTokens": 150000})
		summary(g, 2001, 2000)
		g.user(2002, 2001, "after compaction")
		g.asst(2003, 2002, "msg_C", ttext("continuing"))
		if lp == "after" {
			g.lastPrompt("after compaction", id(2003), nil)
		}
	}
	g := newCase("compact-just-boundary", "compaction is the last thing in the file")
	last := g.chat(1000, 0, 2)
	boundary(g, 2000, last, obj{"trigger": "manual", "preTokens": 1000})
	summary(g, 2001, 2000)

	g = newCase("compact-twice", "two compactions")
	last = g.chat(1000, 0, 2)
	boundary(g, 2000, last, obj{"trigger": "auto", "preTokens": 150000})
	summary(g, 2001, 2000)
	last = g.chat(2002, 2001, 2)
	boundary(g, 3000, last, obj{"trigger": "auto", "preTokens": 150000})
	summary(g, 3001, 3000)
	g.chat(3002, 3001, 1)

	g = newCase("compact-twice-lp-stale", "two compactions; a last-prompt between them")
	last = g.chat(1000, 0, 1)
	boundary(g, 2000, last, obj{"trigger": "auto"})
	summary(g, 2001, 2000)
	last = g.chat(2002, 2001, 1)
	g.lastPrompt("question 1", id(last), nil)
	boundary(g, 3000, last, obj{"trigger": "auto"})
	summary(g, 3001, 3000)
	g.chat(3002, 3001, 1)

	for _, ok := range []bool{true, false} {
		g := newCase(fmt.Sprintf("compact-preserved-valid-%v", ok), "a boundary with preservedSegment (tail reaches head, or not)")
		g.user(1000, 0, "one")
		g.asst(1001, 1000, "msg_A", ttext("one done"))
		g.user(1002, 1001, "keep me")
		g.asst(1003, 1002, "msg_B", ttext("kept"))
		head, tail := 1002, 1003
		if !ok {
			head, tail = 1003, 1000
		}
		boundary(g, 2000, 1003, obj{"trigger": "manual", "preservedSegment": obj{"headUuid": id(head), "anchorUuid": id(2001), "tailUuid": id(tail)}})
		summary(g, 2001, 2000)
		g.user(2002, 2001, "after")
		g.asst(2003, 2002, "msg_C", ttext("after done"))
	}
	g = newCase("compact-preserved-then-plain", "a preserved compaction, then a plain one")
	g.chat(1000, 0, 2)
	boundary(g, 2000, 1003, obj{"trigger": "manual", "preservedSegment": obj{"headUuid": id(1002), "anchorUuid": id(2001), "tailUuid": id(1003)}})
	summary(g, 2001, 2000)
	g.chat(2002, 2001, 1)
	boundary(g, 3000, 2003, obj{"trigger": "auto"})
	summary(g, 3001, 3000)
	g.chat(3002, 3001, 1)

	g = newCase("compact-plain-then-preserved", "a plain compaction, then a preserved one")
	g.chat(1000, 0, 1)
	boundary(g, 2000, 1001, obj{"trigger": "auto"})
	summary(g, 2001, 2000)
	g.chat(2002, 2001, 2)
	boundary(g, 3000, 2005, obj{"trigger": "manual", "preservedSegment": obj{"headUuid": id(2004), "anchorUuid": id(3001), "tailUuid": id(2005)}})
	summary(g, 3001, 3000)
	g.chat(3002, 3001, 1)

	g = newCase("compact-preserved-messages", "2.1.330 compactMetadata.preservedMessages (anchor + ordered uuids)")
	g.chat(1000, 0, 2)
	boundary(g, 2000, 1003, obj{"trigger": "manual", "preservedMessages": obj{"anchorUuid": id(2001), "uuids": []string{id(1002), id(1003)}}})
	summary(g, 2001, 2000)
	g.chat(2002, 2001, 1)

	g = newCase("compact-preserved-messages-bad", "preservedMessages naming a uuid not in the file")
	g.chat(1000, 0, 2)
	boundary(g, 2000, 1003, obj{"trigger": "manual", "preservedMessages": obj{"anchorUuid": id(2001), "uuids": []string{id(1002), id(8888)}}})
	summary(g, 2001, 2000)
	g.chat(2002, 2001, 1)

	g = newCase("compact-repeats-summary", "2.1.330 repeatsCompactSummary on the summary")
	g.chat(1000, 0, 1)
	boundary(g, 2000, 1001, obj{"trigger": "auto"})
	g.user(2001, 2000, "Summary again.", "isCompactSummary", true, "isVisibleInTranscriptOnly", true, "repeatsCompactSummary", true)
	g.chat(2002, 2001, 1)
}

func metadata() {
	kinds := [][]any{
		{"summary", "summary", "A summary", "leafUuid", id(1003)},
		{"custom-title", "customTitle", "My title"},
		{"custom-title", "customTitle", ""},
		{"ai-title", "aiTitle", "AI title"},
		{"task-summary", "summary", "working", "timestamp", "2026-03-02T09:00:10.000Z"},
		{"tag", "tag", "wip"},
		{"agent-name", "agentName", "bob"},
		{"agent-color", "agentColor", "blue"},
		{"agent-setting", "agentSetting", "reviewer"},
		{"pr-link", "prNumber", 7, "prUrl", "https://example.com/pr/7", "prRepository", "o/r", "timestamp", "2026-03-02T09:00:10.000Z"},
		{"mode", "mode", "normal"},
		{"worktree-state", "worktreeSession", nil},
		{"content-replacement", "replacements", []obj{}},
		{"file-history-snapshot", "messageId", id(1002), "snapshot", obj{"messageId": id(1002), "trackedFileBackups": obj{}, "timestamp": "2026-03-02T09:00:10.000Z"}, "isSnapshotUpdate", false},
		{"attribution-snapshot", "messageId", id(1002), "surface", "cli", "fileStates", obj{}},
		{"queue-operation", "operation", "enqueue", "timestamp", "2026-03-02T09:00:10.000Z", "content", "later"},
		{"speculation-accept", "timestamp", "2026-03-02T09:00:10.000Z", "timeSavedMs", 10},
		{"permission-mode", "permissionMode", "default"},
		{"bridge-session", "bridgeSessionId", "b1", "lastSequenceNum", 3},
		{"marble-origami-commit", "collapseId", "x"},
		{"future-entry-kind", "payload", obj{"x": 1}},
	}
	for i, k := range kinds {
		g := newCase(fmt.Sprintf("meta-%02d-%s", i, k[0]), "a metadata line of one kind, in the middle and at the end")
		g.chat(1000, 0, 1)
		kv := append([]any{"sessionId", g.sid}, k[1:]...)
		g.meta(k[0].(string), kv...)
		g.chat(1002, 1001, 1)
		g.meta(k[0].(string), kv...)
	}
}

func lastPrompts() {
	g := newCase("lp-stale", "last-prompt names a leaf on an abandoned branch")
	g.chat(1000, 0, 2)
	g.user(2000, 1001, "edited")
	g.asst(2001, 2000, "msg_R", ttext("edited answer"))
	g.lastPrompt("question 2", id(1003), nil)

	g = newCase("lp-ancestor", "last-prompt names a proper ancestor of the last record")
	g.chat(1000, 0, 1)
	g.lastPrompt("question 1", id(1001), nil)
	g.chat(1002, 1001, 2)

	g = newCase("lp-ancestor-explicit", "an explicit last-prompt names a proper ancestor of the last record")
	g.chat(1000, 0, 1)
	g.lastPrompt("question 1", id(1001), true)
	g.chat(1002, 1001, 2)

	g = newCase("lp-missing", "last-prompt names a uuid not in the file")
	g.chat(1000, 0, 2)
	g.lastPrompt("question 2", id(9999), nil)

	g = newCase("lp-explicit-null-end", "a final last-prompt with leafUuid null, explicit true")
	g.chat(1000, 0, 2)
	g.lastPrompt("question 2", nil, true)

	g = newCase("lp-explicit-null-then-rows", "explicit null leaf, then more records")
	g.chat(1000, 0, 2)
	g.lastPrompt("question 2", nil, true)
	g.chat(1004, 1003, 1)

	g = newCase("lp-explicit-null-fork", "explicit null leaf, then a new root")
	g.chat(1000, 0, 2)
	g.lastPrompt("question 2", nil, true)
	g.chat(2000, 0, 1)

	g = newCase("lp-null-not-explicit", "leafUuid null without explicit")
	g.chat(1000, 0, 2)
	g.lastPrompt("question 2", nil, nil)

	g = newCase("lp-no-leaf-field", "last-prompt without leafUuid (older writers)")
	g.chat(1000, 0, 2)
	g.lastPrompt("question 2", "-", nil)

	g = newCase("lp-explicit-leaf", "explicit last-prompt on the old branch of a rewind")
	g.chat(1000, 0, 2)
	g.user(2000, 1001, "edited")
	g.asst(2001, 2000, "msg_R", ttext("edited answer"))
	g.lastPrompt("question 2", id(1003), true)

	g = newCase("lp-on-user", "last-prompt names a user record with a reply below it")
	g.chat(1000, 0, 2)
	g.lastPrompt("question 2", id(1002), nil)

	g = newCase("lp-on-system", "last-prompt names a system record")
	g.chat(1000, 0, 2)
	g.sys(1100, 1003, "turn_duration", "durationMs", 5, "messageCount", 4)
	g.lastPrompt("question 2", id(1100), nil)

	g = newCase("lp-then-boundary", "a compact boundary after the last-prompt")
	g.chat(1000, 0, 2)
	g.lastPrompt("question 1", id(1001), nil)
	g.sys(2000, 0, "compact_boundary", "content", "Conversation compacted", "logicalParentUuid", id(1003), "compactMetadata", obj{"trigger": "auto"})
	g.user(2001, 2000, "Summary.", "isCompactSummary", true, "isVisibleInTranscriptOnly", true)

	g = newCase("lp-rewound", "a rewound last-prompt (2.1.330 /rewind): leaf is the anchor, cutUuid the first record cut")
	g.chat(1000, 0, 3)
	g.meta("last-prompt", "lastPrompt", "question 2", "leafUuid", id(1003), "rewound", true, "cutUuid", id(1004), "sessionId", g.sid)

	g = newCase("lp-rewound-then-new", "a rewound last-prompt, then a new exchange from the anchor")
	g.chat(1000, 0, 3)
	g.meta("last-prompt", "lastPrompt", "question 2", "leafUuid", id(1003), "rewound", true, "cutUuid", id(1004), "sessionId", g.sid)
	g.user(2000, 1003, "after the rewind")
	g.asst(2001, 2000, "msg_RW", ttext("rewound answer"))

	g = newCase("lp-rewound-to-empty", "a rewind to before the first prompt (leafUuid null, explicit, rewound)")
	g.chat(1000, 0, 2)
	g.meta("last-prompt", "lastPrompt", "", "leafUuid", nil, "explicit", true, "rewound", true, "cutUuid", id(1000), "sessionId", g.sid)

	g = newCase("lp-explicit-null-then-lp", "explicit null, then a normal last-prompt")
	g.chat(1000, 0, 2)
	g.lastPrompt("question 2", nil, true)
	g.lastPrompt("question 1", id(1001), nil)
}

func sidechains() {
	g := newCase("side-inline-newest", "an inline sidechain with the newest timestamp")
	g.chat(1000, 0, 2)
	g.side = true
	g.user(1500, 1003, "side question")
	g.asst(1501, 1500, "msg_S", ttext("side answer"))
	g.side = false

	g = newCase("side-inline-middle", "sidechain records in the middle of the file")
	g.chat(1000, 0, 1)
	g.side = true
	g.user(1500, 1001, "side question")
	g.asst(1501, 1500, "msg_S", ttext("side answer"))
	g.side = false
	g.chat(1002, 1001, 1)

	g = newCase("side-subagent-files", "a Task call with a subagent file and meta.json")
	g.user(1000, 0, "delegate")
	g.asst(1001, 1000, "msg_A", obj{"type": "tool_use", "id": "toolu_1001", "name": "Task", "input": obj{"description": "look", "prompt": tg("look around"), "subagent_type": "general-purpose"}})
	g.add(g.env("user", id(1002), id(1001), g.ts(), "message", obj{"role": "user", "content": []obj{toolResult("toolu_1001", "found it")}}, "toolUseResult", obj{"status": "completed", "agentId": "a1b2"}, "sourceToolAssistantUUID", id(1001)))
	g.asst(1003, 1002, "msg_B", ttext("the agent found it"))
	sub := &gen{sid: g.sid, side: true, agent: "a1b2"}
	sub.user(5000, 0, "look around")
	sub.asst(5001, 5000, "msg_SUB", ttext("found it"))
	g.extra = map[string]string{
		g.sid + "/subagents/agent-a1b2.jsonl":     strings.Join(sub.lines, "\n") + "\n",
		g.sid + "/subagents/agent-a1b2.meta.json": `{"agentType":"general-purpose","description":"look","toolUseId":"toolu_1001"}` + "\n",
	}

	g = newCase("side-compact-subagent", "a compaction subagent file pointing into the parent session")
	last := g.chat(1000, 0, 2)
	g.sys(2000, 0, "compact_boundary", "content", "Conversation compacted", "logicalParentUuid", id(last), "compactMetadata", obj{"trigger": "auto"})
	g.user(2001, 2000, "Summary.", "isCompactSummary", true, "isVisibleInTranscriptOnly", true)
	g.chat(2002, 2001, 1)
	sub = &gen{sid: g.sid, side: true, agent: "acompact-1a2b"}
	sub.user(6000, last, "Summarise the conversation")
	sub.asst(6001, 6000, "msg_CS", ttext("Summary."))
	g.extra = map[string]string{g.sid + "/subagents/agent-acompact-1a2b.jsonl": strings.Join(sub.lines, "\n") + "\n"}
}

func damaged() {
	body := func(g *gen) { g.chat(1000, 0, 3) }
	g := newCase("torn-tail", "a torn last line")
	body(g)
	g.raw(`{"parentUuid":"` + id(1005) + `","isSidechain":false,"type":"user","message":{"role":"user","content":"cut`)

	g = newCase("malformed-middle", "a malformed line in the middle")
	g.chat(1000, 0, 1)
	g.raw(`{"parentUuid":"broken`)
	g.chat(1002, 1001, 2)

	g = newCase("nul-run", "a run of NUL bytes between records")
	g.chat(1000, 0, 1)
	g.raw(strings.Repeat("\x00", 64))
	g.chat(1002, 1001, 2)

	g = newCase("bom", "a byte order mark before the first record")
	body(g)
	g.lines[0] = "\xef\xbb\xbf" + g.lines[0]

	g = newCase("crlf", "CRLF line ends")
	body(g)
	for i := range g.lines {
		g.lines[i] += "\r"
	}

	g = newCase("blank-lines", "blank lines between records")
	g.chat(1000, 0, 1)
	g.raw("")
	g.raw("   ")
	g.chat(1002, 1001, 1)

	g = newCase("non-object", "a JSON line that is not an object")
	g.chat(1000, 0, 1)
	g.raw(`[1,2,3]`)
	g.chat(1002, 1001, 1)

	for _, where := range []string{"early", "late"} {
		g := newCase("dup-value-"+where, "a uuid written again later with a new value")
		g.chat(1000, 0, 2)
		if where == "early" {
			g.asst(1001, 1000, msgID(1001), ttext("answer 1 rewritten"))
			g.chat(1004, 1003, 1)
		} else {
			g.chat(1004, 1003, 1)
			g.asst(1001, 1000, msgID(1001), ttext("answer 1 rewritten"))
		}
	}
	g = newCase("dup-last-record", "the last record is a rewrite of an earlier uuid")
	g.chat(1000, 0, 2)
	g.user(1002, 1001, "question 2 rewritten")

	g = newCase("dup-leaf-rewrite", "the leaf is written twice, the second time last")
	g.chat(1000, 0, 2)
	g.sys(1100, 1003, "turn_duration", "durationMs", 1, "messageCount", 4)
	g.asst(1003, 1002, msgID(1003), ttext("answer 2 final"))

	g = newCase("dup-reparent", "a uuid rewritten with a different parent")
	g.chat(1000, 0, 2)
	g.user(2000, 1001, "branch")
	g.asst(2001, 2000, "msg_X", ttext("branch answer"))
	g.user(1002, 2001, "question 2 moved")

	g = newCase("dup-lp-tail", "duplicate rewritten after the last-prompt's leaf")
	g.chat(1000, 0, 2)
	g.lastPrompt("question 2", id(1003), nil)
	g.user(1000, 0, "question 1 rewritten")

	for _, gap := range []int{1, 4, 6, 30} {
		g := newCase(fmt.Sprintf("orphan-gap-%ds", gap), "a record whose parent is missing; the previous record is gap seconds earlier")
		g.user(1000, 0, "one")
		g.asstAt(1001, 1000, g.at(2), "msg_A", ttext("one done"))
		g.userAt(1002, 9999, g.at(2+gap), "two")
		g.asstAt(1003, 1002, g.at(3+gap), "msg_B", ttext("two done"))
	}
	g = newCase("orphan-sidechain-mismatch", "missing parent; the only record in 5 s is a sidechain record")
	g.user(1000, 0, "one")
	g.asstAt(1001, 1000, g.at(2), "msg_A", ttext("one done"))
	g.side = true
	g.userAt(1500, 1001, g.at(3), "side")
	g.side = false
	g.userAt(1002, 9999, g.at(4), "two")
	g.asstAt(1003, 1002, g.at(5), "msg_B", ttext("two done"))

	g = newCase("orphan-window-two", "missing parent; two records in the 5 s window, 1 s apart")
	g.user(1000, 0, "one")
	g.asstAt(1001, 1000, g.at(3), "msg_A", ttext("one done"))
	g.userAt(1002, 9999, g.at(5), "two")
	g.asstAt(1003, 1002, g.at(6), "msg_B", ttext("two done"))

	g = newCase("orphan-window-tie-three", "missing parent; three records share the newest timestamp in the window")
	g.userAt(1000, 0, g.at(1), "one")
	g.asstAt(1001, 1000, g.at(3), "msg_A", ttext("one done"))
	g.userAt(1004, 1001, g.at(3), "side note")
	g.asstAt(1005, 1004, g.at(3), "msg_C", ttext("noted"))
	g.userAt(1002, 9999, g.at(5), "two")
	g.asstAt(1003, 1002, g.at(6), "msg_B", ttext("two done"))

	g = newCase("orphan-window-future", "missing parent; the only other record is newer")
	g.userAt(1000, 0, g.at(9), "one")
	g.asstAt(1001, 1000, g.at(10), "msg_A", ttext("one done"))
	g.userAt(1002, 9999, g.at(5), "two")
	g.asstAt(1003, 1002, g.at(11), "msg_B", ttext("two done"))

	g = newCase("all-roots", "every record a root")
	for i := 0; i < 4; i++ {
		g.user(1000+2*i, 0, fmt.Sprintf("q%d", i))
		g.asst(1001+2*i, 0, msgID(1001+2*i), ttext(fmt.Sprintf("a%d", i)))
	}

	g = newCase("self-parent", "a record that names itself")
	g.chat(1000, 0, 1)
	g.user(1002, 1002, "me")
	g.asst(1003, 1002, "msg_S", ttext("reply"))

	g = newCase("self-parent-root", "the first record names itself")
	g.user(1000, 1000, "me")
	g.asst(1001, 1000, "msg_S", ttext("reply"))

	g = newCase("cycle", "a parent cycle under the leaf")
	g.chat(1000, 0, 1)
	g.user(1002, 1004, "loop A")
	g.asst(1003, 1002, "msg_Y", ttext("loop B"))
	g.user(1004, 1003, "loop C")

	g = newCase("cycle-with-tail", "a cycle, then records hanging off it")
	g.user(1000, 1001, "loop A")
	g.asst(1001, 1000, "msg_Y", ttext("loop B"))
	g.user(1002, 1001, "after")
	g.asst(1003, 1002, "msg_Z", ttext("after answer"))

	g = newCase("missing-uuid", "a message line without uuid")
	g.chat(1000, 0, 1)
	g.raw(strings.Replace(g.env("user", "", id(1001), g.ts(), "message", obj{"role": "user", "content": "no uuid"}), `"uuid":"",`, "", 1))
	g.chat(1002, 1001, 1)

	g = newCase("no-timestamps", "records without timestamps")
	g.chat(1000, 0, 2)
	for i := range g.lines {
		g.lines[i] = strings.Replace(g.lines[i], `,"timestamp":"`+g.at(2*(i+1))+`"`, "", 1)
	}
}

// newRecords uses record types and fields Claude Code 2.1.330 writes.
func newRecords() {
	g := newCase("new-records-all", "every 2.1.330 record type and field sessctl knows")
	g.user(1000, 0, "start")
	g.asst(1001, 1000, "msg_A", ttext("started"))
	g.meta("cost-state", "sessionId", g.sid, "totalCostUSD", 0.01, "totalAPIDuration", 3, "modelUsage", obj{})
	g.meta("file-history-delta", "sessionId", g.sid, "messageId", id(1000), "delta", obj{})
	g.meta("atis-latch", "atis", "", "sessionId", g.sid)
	g.meta("api-request", "sessionId", g.sid, "requestId", "req_1", "timestamp", g.at(5))
	g.meta("line-withheld", "sessionId", g.sid, "uuid", id(1500), "reason", "size")
	g.sys(1100, 1001, "rewind_stand_in", "content", "rewound")
	g.user(1002, 1001, "next", "rewindAnchorUuid", id(1001))
	g.asst(1003, 1002, "msg_B", ttext("next done"))
	g.meta("mode", "mode", "normal", "sessionId", g.sid)
	g.meta("continued-in", "sessionId", g.sid, "continuedInSessionId", "00000000-0000-4000-8000-00000000abcd")
}

const titleDir = "testdata/claude/parity/titles"

var titleCases []*gen

// titleCase makes a session for the listing comparison only (not resumed).
func titleCase(name string) *gen {
	g := newCase(name, "")
	cases = cases[:len(cases)-1]
	titleCases = append(titleCases, g)
	return g
}

// plain user/assistant lines without tags, for titles.
func (g *gen) say(n, parent int, content any) {
	g.add(g.env("user", id(n), par(parent), g.ts(), "message", obj{"role": "user", "content": content}))
}

func (g *gen) reply(n, parent int) {
	g.asst(n, parent, msgID(n), text("ok"))
}

func titles() {
	g := titleCase("title-custom-and-ai")
	g.say(1000, 0, "first prompt")
	g.reply(1001, 1000)
	g.meta("ai-title", "sessionId", g.sid, "aiTitle", "AI made this")
	g.meta("custom-title", "sessionId", g.sid, "customTitle", "Mine")

	g = titleCase("title-ai-only")
	g.say(1000, 0, "first prompt")
	g.reply(1001, 1000)
	g.meta("ai-title", "sessionId", g.sid, "aiTitle", "AI made this")

	g = titleCase("title-custom-empty")
	g.say(1000, 0, "first prompt")
	g.reply(1001, 1000)
	g.meta("ai-title", "sessionId", g.sid, "aiTitle", "AI made this")
	g.meta("custom-title", "sessionId", g.sid, "customTitle", "")

	g = titleCase("title-last-prompt")
	g.say(1000, 0, "first prompt")
	g.reply(1001, 1000)
	g.say(1002, 1001, "second prompt")
	g.reply(1003, 1002)
	g.meta("last-prompt", "sessionId", g.sid, "lastPrompt", "second prompt", "leafUuid", id(1003))

	g = titleCase("title-summary")
	g.say(1000, 0, "first prompt")
	g.reply(1001, 1000)
	g.meta("summary", "summary", "A summary line", "leafUuid", id(1001))

	g = titleCase("title-summary-and-last-prompt")
	g.say(1000, 0, "first prompt")
	g.reply(1001, 1000)
	g.meta("summary", "summary", "A summary line", "leafUuid", id(1001))
	g.meta("last-prompt", "sessionId", g.sid, "lastPrompt", "the last prompt")

	g = titleCase("title-summary-elsewhere")
	g.say(1000, 0, "first prompt")
	g.reply(1001, 1000)
	g.meta("summary", "summary", "Another session's summary", "leafUuid", id(777777))

	g = titleCase("title-multiline")
	g.say(1000, 0, "line one\nline two\n\n  line three")
	g.reply(1001, 1000)

	g = titleCase("title-long")
	g.say(1000, 0, strings.Repeat("word ", 80))
	g.reply(1001, 1000)

	g = titleCase("title-long-multibyte")
	g.say(1000, 0, strings.Repeat("héllo wörld ", 30))
	g.reply(1001, 1000)

	g = titleCase("title-image-only")
	g.say(1000, 0, []obj{{"type": "image", "source": obj{"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}}})
	g.reply(1001, 1000)

	g = titleCase("title-image-and-text")
	g.say(1000, 0, []obj{{"type": "image", "source": obj{"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}}, text("what is in the picture")})
	g.reply(1001, 1000)

	g = titleCase("title-slash-command")
	g.say(1000, 0, "<command-message>orchestrator is running…</command-message>\n<command-name>/orchestrator</command-name>\n<command-args>@CLAUDE.md plan the release</command-args>")
	g.reply(1001, 1000)

	g = titleCase("title-slash-command-no-args")
	g.say(1000, 0, "<command-name>/init</command-name>\n<command-message>init</command-message>\n<command-args></command-args>")
	g.reply(1001, 1000)

	g = titleCase("title-slash-then-prompt")
	g.say(1000, 0, "<command-name>/clear</command-name>\n<command-message>clear</command-message>\n<command-args></command-args>")
	g.say(1001, 1000, "<local-command-stdout></local-command-stdout>")
	g.say(1002, 1001, "the real question")
	g.reply(1003, 1002)

	g = titleCase("title-meta-first")
	g.add(g.env("user", id(1000), nil, g.ts(), "message", obj{"role": "user", "content": "Caveat: meta text"}, "isMeta", true))
	g.say(1001, 1000, "after meta")
	g.reply(1002, 1001)

	g = titleCase("title-interrupted-first")
	g.say(1000, 0, "[Request interrupted by user]")
	g.say(1001, 1000, "after interruption")
	g.reply(1002, 1001)

	g = titleCase("title-bash-input")
	g.say(1000, 0, "<bash-input>ls -la</bash-input>")
	g.say(1001, 1000, "<bash-stdout>total 0</bash-stdout><bash-stderr></bash-stderr>")
	g.reply(1002, 1001)

	g = titleCase("title-whitespace-prompt")
	g.say(1000, 0, "   \n\t  padded prompt  \n")
	g.reply(1001, 1000)

	g = titleCase("title-tool-result-first")
	g.say(1000, 0, []obj{{"type": "tool_result", "tool_use_id": "toolu_x", "content": "out"}})
	g.say(1001, 1000, "after tool result")
	g.reply(1002, 1001)

	g = titleCase("title-compact-summary-first")
	g.add(g.env("user", id(1000), nil, g.ts(), "message", obj{"role": "user", "content": "This session is being continued. Summary."}, "isCompactSummary", true))
	g.say(1001, 1000, "after compact summary")
	g.reply(1002, 1001)

	g = titleCase("title-sidechain-only")
	g.side = true
	g.say(1000, 0, "side question")
	g.reply(1001, 1000)
	g.side = false

	g = titleCase("title-no-prompt")
	g.meta("custom-title", "sessionId", g.sid, "customTitle", "Only a title")

	g = titleCase("title-tag-branch")
	g.say(1000, 0, "tagged")
	g.reply(1001, 1000)
	g.meta("tag", "sessionId", g.sid, "tag", "wip")
	g.add(strings.Replace(g.env("user", id(1002), id(1001), g.ts(), "message", obj{"role": "user", "content": "on another branch"}), `"gitBranch":"main"`, `"gitBranch":"feature/x"`, 1))
	g.reply(1003, 1002)

	g = titleCase("title-last-prompt-long")
	g.say(1000, 0, "first prompt")
	g.reply(1001, 1000)
	g.meta("last-prompt", "sessionId", g.sid, "lastPrompt", strings.Repeat("z", 250))

	g = titleCase("title-ai-then-custom-then-ai")
	g.say(1000, 0, "first prompt")
	g.reply(1001, 1000)
	g.meta("custom-title", "sessionId", g.sid, "customTitle", "Mine")
	g.meta("ai-title", "sessionId", g.sid, "aiTitle", "Later AI title")
}
