package discover

import (
	"os"
	"strings"
	"time"

	"github.com/sessctl/sessctl/internal/format/pi"
	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/sessctl/sessctl/internal/problem"
	"github.com/valyala/fastjson"
)

// claudeSummary is what the listing needs from a Claude Code transcript. It
// is a minimal reader for listing only; the Claude format package does the
// rest (resume chain, leaf, repair).
type claudeSummary struct {
	cwd string
	// firstSidePrompt is the first sidechain user prompt: the title of a
	// subagent transcript listed on its own (its main transcript is gone).
	firstSidePrompt   string
	sawMain, sawSide  bool
	messages, entries int
	first, last       time.Time
	problems          map[string]int
}

func (c *claudeSummary) problemCount() int {
	n := 0
	for _, v := range c.problems {
		n += v
	}
	return n
}

// readClaudeInfo reads the file once: cwd from the first message that has
// one, the first sidechain prompt, the first and last timestamps, the number of transcript messages (user,
// assistant, system, attachment lines) and of all entries, and problems
// (malformed lines, torn tail, NUL runs, non-object lines, no messages).
func readClaudeInfo(path string) (*claudeSummary, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	c := &claudeSummary{problems: map[string]int{}}
	rd := jsonl.NewReader(fh)
	for rd.Next() {
		rec := rd.Record()
		switch rec.Kind {
		case jsonl.Blank:
			continue
		case jsonl.Malformed:
			c.problems[problem.MalformedLine]++
			continue
		case jsonl.TornTail:
			c.problems[problem.TornTail]++
			continue
		case jsonl.NULRun:
			c.problems[problem.NULRun]++
			continue
		case jsonl.NonObject:
			c.problems[problem.NonObject]++
			continue
		}
		c.entries++
		v := rec.Value
		if ts, ok := rec.StrOK("timestamp"); ok {
			if t, err := time.Parse(time.RFC3339Nano, ts); err == nil {
				t = t.UTC()
				if c.first.IsZero() || t.Before(c.first) {
					c.first = t
				}
				if t.After(c.last) {
					c.last = t
				}
			}
		}
		switch rec.Str("type") {
		case "user", "assistant", "system", "attachment":
			c.messages++
			if truthy(v, "isSidechain") {
				c.sawSide = true
			} else {
				c.sawMain = true
			}
			if c.cwd == "" {
				c.cwd = rec.Str("cwd")
			}
			if c.firstSidePrompt == "" && rec.Str("type") == "user" && truthy(v, "isSidechain") && !truthy(v, "isMeta") {
				c.firstSidePrompt = clip(claudePrompt(jsonl.Get(v, "message", "content")), pi.MaxFirstMessage)
			}
		}
	}
	if err := rd.Err(); err != nil {
		return nil, err
	}
	if c.messages == 0 {
		c.problems["no-messages"]++
	}
	if len(c.problems) == 0 {
		c.problems = nil
	}
	return c, nil
}

// clip cuts s to at most n bytes at a rune boundary, adding "…".
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}

func truthy(v *fastjson.Value, k string) bool {
	x := jsonl.Get(v, k)
	return x != nil && x.Type() == fastjson.TypeTrue
}

// claudePrompt is the text of a real prompt, "" for tool results, command
// wrappers (text starting with a lowercase XML-like tag) and interruption
// markers, as Claude Code's picker skips them.
func claudePrompt(c *fastjson.Value) string {
	var s string
	switch {
	case c == nil:
		return ""
	case c.Type() == fastjson.TypeString:
		b, _ := c.StringBytes()
		s = string(b)
	case c.Type() == fastjson.TypeArray:
		arr, _ := c.Array()
		for _, b := range arr {
			switch string(strOf(jsonl.Get(b, "type"))) {
			case "tool_result":
				return ""
			case "text":
				if s == "" {
					s = string(strOf(jsonl.Get(b, "text")))
				}
			}
		}
	}
	s = strings.TrimSpace(s)
	if s == "" || strings.HasPrefix(s, "[Request interrupted") || (len(s) >= 2 && s[0] == '<' && s[1] >= 'a' && s[1] <= 'z') {
		return ""
	}
	return s
}

func strOf(v *fastjson.Value) []byte {
	if v == nil || v.Type() != fastjson.TypeString {
		return nil
	}
	b, _ := v.StringBytes()
	return b
}
