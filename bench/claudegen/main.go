// Command claudegen writes a deterministic synthetic Claude Code transcript
// for benchmarks, shaped like a real pre-2.1.85 session file:
//
//	go run ./bench/claudegen -size 1GB -out /tmp/claude-1GB.jsonl
//
// Turns of: a file-history-snapshot, a user prompt, a last-prompt line, then
// assistant replies written one line per content block (thinking, text, one
// to three parallel tool_use blocks sharing message.id), legacy hook
// progress lines after each tool call (about 40% of all lines), tool_result
// lines parented to the line holding their tool_use (via the last progress
// line of that call, so the loader must bridge), a system turn_duration
// line, re-appended custom-title/last-prompt metadata, an occasional
// 100-300 KB tool result, and a compact boundary (with its summary) every
// -compact-every bytes. The same -seed always gives the same bytes.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"time"
)

func main() {
	sizeStr := flag.String("size", "1GB", "approximate size (B, KB, MB, GB; powers of 1024)")
	out := flag.String("out", "", "output file")
	seed := flag.Uint64("seed", 1, "random seed")
	every := flag.String("compact-every", "200MB", "write a compact boundary about every this many bytes")
	flag.Parse()
	size, err := parseSize(*sizeStr)
	if err != nil || *out == "" {
		fmt.Fprintln(os.Stderr, "usage: claudegen -size 1GB -out FILE")
		os.Exit(2)
	}
	ce, err := parseSize(*every)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	fh, err := os.Create(*out)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	g := &gen{w: bufio.NewWriterSize(fh, 1<<20), r: rand.New(rand.NewPCG(*seed, 7)),
		sid: "5e55c0de-0000-4000-8000-000000000001", t: time.Date(2025, 11, 1, 8, 0, 0, 0, time.UTC)}
	g.run(size, ce)
	if err := g.w.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := fh.Close(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "wrote %s: %d bytes, %d lines (%d progress, %d compactions)\n", *out, g.n, g.lines, g.progress, g.compactions)
}

func parseSize(s string) (int64, error) {
	mult := int64(1)
	u := strings.ToUpper(s)
	for _, x := range []struct {
		suf string
		m   int64
	}{{"GB", 1 << 30}, {"MB", 1 << 20}, {"KB", 1 << 10}, {"B", 1}} {
		if strings.HasSuffix(u, x.suf) {
			mult, u = x.m, strings.TrimSuffix(u, x.suf)
			break
		}
	}
	n, err := strconv.ParseFloat(strings.TrimSpace(u), 64)
	if err != nil {
		return 0, fmt.Errorf("bad size %q", s)
	}
	return int64(n * float64(mult)), nil
}

type gen struct {
	w                            *bufio.Writer
	r                            *rand.Rand
	sid                          string
	t                            time.Time
	n                            int64
	lines, progress, compactions int
	idn                          uint64
	msgn                         int
}

func (g *gen) uuid() string {
	g.idn++
	x := g.idn
	return fmt.Sprintf("%08x-%04x-4%03x-8%03x-%012x", uint32(x*2654435761), uint16(x>>7), x%4096, (x>>3)%4096, x*11400714819323198485>>16)
}

func (g *gen) ts() string {
	g.t = g.t.Add(time.Duration(200+g.r.IntN(3000)) * time.Millisecond)
	return g.t.Format("2006-01-02T15:04:05.000Z")
}

const words = "the of and to in is that for it as was with be by on not he this are or his from at which but have an they you were her she there been one all we their has would when what if will more no out so said can who up them some could him into its then two time my about do like only other new these than any may very now after first most also made did many over such where years must through back much before go good well should because each those people how too little state world use work just see way"

var wordList = strings.Fields(words)

func (g *gen) text(n int) string {
	var b strings.Builder
	for b.Len() < n {
		if b.Len() > 0 {
			if g.r.IntN(12) == 0 {
				b.WriteString(".\n")
			} else {
				b.WriteByte(' ')
			}
		}
		b.WriteString(wordList[g.r.IntN(len(wordList))])
	}
	return b.String()
}

func js(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// line writes a message line with parentUuid first, as Claude Code does.
func (g *gen) line(typ, uuid, parent, ts string, fields string) {
	p := "null"
	if parent != "" {
		p = `"` + parent + `"`
	}
	s := `{"parentUuid":` + p + `,"isSidechain":false,"userType":"external","cwd":"/home/dev/bigproject","sessionId":"` + g.sid +
		`","version":"2.1.70","gitBranch":"main",` + fields + `,"type":"` + typ + `","uuid":"` + uuid + `","timestamp":"` + ts + "\"}\n"
	g.write(s)
	if typ == "progress" {
		g.progress++
	}
}

func (g *gen) write(s string) {
	g.w.WriteString(s)
	g.n += int64(len(s))
	g.lines++
}

func (g *gen) asst(uuid, parent, msgID string, block any) {
	msg := map[string]any{"id": msgID, "type": "message", "role": "assistant", "model": "claude-sonnet-4-5-20250929",
		"content": []any{block}, "stop_reason": nil, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": 3 + g.r.IntN(50), "cache_creation_input_tokens": g.r.IntN(4000),
			"cache_read_input_tokens": 20000 + g.r.IntN(100000), "output_tokens": 1 + g.r.IntN(900), "service_tier": "standard"}}
	g.line("assistant", uuid, parent, g.ts(), `"message":`+js(msg)+`,"requestId":"req_`+msgID[4:]+`"`)
}

func (g *gen) run(size, compactEvery int64) {
	prev := ""
	nextCompact := compactEvery
	title := 0
	for g.n < size {
		if g.n >= nextCompact {
			nextCompact += compactEvery
			g.compactions++
			b := g.uuid()
			g.line("system", b, "", g.ts(), `"subtype":"compact_boundary","content":"Conversation compacted","isMeta":false,"level":"info","logicalParentUuid":"`+prev+`","compactMetadata":{"trigger":"auto","preTokens":`+strconv.Itoa(150000+g.r.IntN(20000))+`}`)
			s := g.uuid()
			g.line("user", s, b, g.ts(), `"message":`+js(map[string]any{"role": "user", "content": "This session is being continued from a previous conversation that ran out of context. Summary:\n" + g.text(6000)})+`,"isCompactSummary":true,"isVisibleInTranscriptOnly":true`)
			prev = s
		}
		// a user prompt with its snapshot and last-prompt
		u := g.uuid()
		g.write(`{"type":"file-history-snapshot","messageId":"` + u + `","snapshot":{"messageId":"` + u + `","trackedFileBackups":{},"timestamp":"` + g.t.Format("2006-01-02T15:04:05.000Z") + `"},"isSnapshotUpdate":false}` + "\n")
		prompt := g.text(80 + g.r.IntN(1500))
		g.line("user", u, prev, g.ts(), `"message":`+js(map[string]any{"role": "user", "content": prompt})+`,"promptId":"`+g.uuid()+`"`)
		prev = u
		// several assistant rounds with tool calls
		rounds := 1 + g.r.IntN(6)
		for r := 0; r < rounds; r++ {
			g.msgn++
			msgID := fmt.Sprintf("msg_%020d", g.msgn)
			a := g.uuid()
			g.asst(a, prev, msgID, map[string]any{"type": "thinking", "thinking": g.text(300 + g.r.IntN(2500)), "signature": g.text(200)})
			prev = a
			a = g.uuid()
			g.asst(a, prev, msgID, map[string]any{"type": "text", "text": g.text(100 + g.r.IntN(800))})
			prev = a
			if r == rounds-1 {
				break
			}
			calls := 1 + g.r.IntN(3)
			type call struct{ id, holder string }
			var cs []call
			for c := 0; c < calls; c++ {
				a = g.uuid()
				tid := fmt.Sprintf("toolu_%018d%02d", g.msgn, c)
				g.asst(a, prev, msgID, map[string]any{"type": "tool_use", "id": tid, "name": "Bash",
					"input": map[string]any{"command": g.text(30 + g.r.IntN(200)), "description": g.text(40)}})
				prev = a
				cs = append(cs, call{tid, a})
			}
			// results: each hangs on the progress lines of its hook run,
			// which hang on the line holding its tool_use
			for _, c := range cs {
				p1 := g.uuid()
				g.line("progress", p1, c.holder, g.ts(), `"data":{"type":"hook_progress","hookEvent":"PostToolUse","hookName":"PostToolUse:Bash","command":"/home/dev/.claude/hooks/post.sh"},"parentToolUseID":"`+c.id+`","toolUseID":"`+c.id+`"`)
				p2 := g.uuid()
				g.line("progress", p2, p1, g.ts(), `"data":{"type":"hook_progress","hookEvent":"PostToolUse","hookName":"PostToolUse:Bash","command":"/home/dev/.claude/hooks/lint.sh"},"parentToolUseID":"`+c.id+`","toolUseID":"`+c.id+`"`)
				p3 := p2
				if g.r.IntN(3) != 0 {
					p3 = g.uuid()
					g.line("progress", p3, p2, g.ts(), `"data":{"type":"bash_progress","output":`+js(g.text(100))+`,"fullOutput":`+js(g.text(300))+`,"elapsedTimeSeconds":2,"totalLines":4},"parentToolUseID":"`+c.id+`","toolUseID":"`+c.id+`"`)
				}
				n := 500 + g.r.IntN(12000)
				if g.r.IntN(400) == 0 {
					n = 100000 + g.r.IntN(200000)
				}
				out := g.text(n)
				res := g.uuid()
				g.line("user", res, p3, g.ts(), `"message":`+js(map[string]any{"role": "user", "content": []any{map[string]any{"tool_use_id": c.id, "type": "tool_result", "content": out, "is_error": false}}})+
					`,"toolUseResult":`+js(map[string]any{"stdout": out[:min(len(out), 2000)], "stderr": "", "interrupted": false, "isImage": false})+`,"sourceToolAssistantUUID":"`+c.holder+`"`)
				prev = res
			}
		}
		d := g.uuid()
		g.line("system", d, prev, g.ts(), `"subtype":"turn_duration","durationMs":`+strconv.Itoa(1000+g.r.IntN(90000))+`,"isMeta":false`)
		prev = d
		g.write(`{"type":"last-prompt","lastPrompt":` + js(prompt[:min(len(prompt), 200)]) + `,"sessionId":"` + g.sid + `"}` + "\n")
		if title++; title%50 == 0 {
			g.write(`{"type":"custom-title","customTitle":"big benchmark session","sessionId":"` + g.sid + `"}` + "\n")
		}
	}
}
