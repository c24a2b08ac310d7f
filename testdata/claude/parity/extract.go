//go:build ignore

// extract turns the requests fakeapi recorded for one case into the
// expectation file the parity test reads:
//
//	go run testdata/claude/parity/extract.go -case NAME -session ID -exit RC -stderr FILE -dir CAPDIR -out FILE
//
// It takes the Messages API request that carries the probe prompt and
// lists, message by message, the [[L<n>]] tags of each content block
// (n = line number in the case's transcript). Blocks without a tag are
// kept as a short text (what Claude Code added itself), except the
// system reminders and the probe prompt of the new turn.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

var tagRE = regexp.MustCompile(`\[\[L(\d+)\]\]`)

// Block is one content block of a sent message.
type Block struct {
	Type string `json:"type"`
	Tags []int  `json:"tags,omitempty"`
	Text string `json:"text,omitempty"`
}

// Message is one sent message.
type Message struct {
	Role   string  `json:"role"`
	Blocks []Block `json:"blocks"`
}

// Expect is the committed capture of one case.
type Expect struct {
	Case     string    `json:"case"`
	Session  string    `json:"session"`
	Exit     int       `json:"exit"`
	Stderr   string    `json:"stderr,omitempty"`
	Found    bool      `json:"requestFound"`
	Sent     []int     `json:"sent"`
	Messages []Message `json:"messages"`
}

func main() {
	name := flag.String("case", "", "case name")
	sid := flag.String("session", "", "session id")
	exit := flag.Int("exit", 0, "exit code of claude")
	stderr := flag.String("stderr", "", "file with claude's stderr")
	dir := flag.String("dir", "", "folder fakeapi recorded into")
	out := flag.String("out", "", "expectation file to write")
	flag.Parse()
	e := Expect{Case: *name, Session: *sid, Exit: *exit, Sent: []int{}, Messages: []Message{}}
	if b, err := os.ReadFile(*stderr); err == nil {
		s := strings.TrimSpace(string(b))
		if len(s) > 300 {
			s = s[:300]
		}
		e.Stderr = s
	}
	reqs, _ := filepath.Glob(filepath.Join(*dir, "req-*.json"))
	sort.Strings(reqs)
	for _, rp := range reqs {
		path, _ := os.ReadFile(strings.TrimSuffix(rp, ".json") + ".path")
		if !strings.Contains(string(path), "/v1/messages") || strings.Contains(string(path), "count_tokens") {
			continue
		}
		b, _ := os.ReadFile(rp)
		var req struct {
			Messages []struct {
				Role    string          `json:"role"`
				Content json.RawMessage `json:"content"`
			} `json:"messages"`
			Tools []json.RawMessage `json:"tools"`
		}
		if json.Unmarshal(b, &req) != nil || len(req.Tools) == 0 || !strings.Contains(string(b), "PROBE-PROMPT") {
			continue
		}
		e.Found = true
		for _, m := range req.Messages {
			msg := Message{Role: m.Role, Blocks: []Block{}}
			var blocks []json.RawMessage
			var s string
			if json.Unmarshal(m.Content, &s) == nil {
				bb, _ := json.Marshal(map[string]string{"type": "text", "text": s})
				blocks = []json.RawMessage{bb}
			} else {
				json.Unmarshal(m.Content, &blocks)
			}
			for _, raw := range blocks {
				var hd struct {
					Type string `json:"type"`
					Text string `json:"text"`
				}
				json.Unmarshal(raw, &hd)
				bl := Block{Type: hd.Type}
				for _, mm := range tagRE.FindAllStringSubmatch(string(raw), -1) {
					n, _ := strconv.Atoi(mm[1])
					bl.Tags = append(bl.Tags, n)
					if len(e.Sent) == 0 || e.Sent[len(e.Sent)-1] != n {
						e.Sent = append(e.Sent, n)
					}
				}
				if len(bl.Tags) == 0 {
					t := hd.Text
					if strings.HasPrefix(t, "<system-reminder>") || strings.Contains(t, "PROBE-PROMPT") {
						continue
					}
					if t == "" {
						t = string(raw)
					}
					if len(t) > 120 {
						t = t[:120]
					}
					bl.Text = t
				}
				msg.Blocks = append(msg.Blocks, bl)
			}
			if len(msg.Blocks) > 0 {
				e.Messages = append(e.Messages, msg)
			}
		}
		break
	}
	b, _ := json.MarshalIndent(e, "", " ")
	if err := os.WriteFile(*out, append(b, '\n'), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
