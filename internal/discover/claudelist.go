package discover

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/sessctl/sessctl/internal/format/pi"
	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/sessctl/sessctl/internal/problem"
	"github.com/sessctl/sessctl/internal/sessfmt"
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

// claudeLongLine is the length over which a line is not held: it is
// validated and elided in the one read of it (jsonl.ElidingReader: string
// values over jsonl.ElidedMin left out of its copy) and its left-out
// strings are decoded from the file only as far as the summary needs
// them. 0 holds every line whole (tests compare the two).
var claudeLongLine = jsonl.LongLine

// claudeLines is what readClaudeInfo reads records from: a jsonl.Reader
// (every line held) or a jsonl.ElidingReader.
type claudeLines interface {
	Next() bool
	Record() *jsonl.Record
	Err() error
}

// readClaudeInfo reads the file once: cwd from the first message that has
// one, the first sidechain prompt, the first and last timestamps, the number of transcript messages (user,
// assistant, system, attachment lines) and of all entries, and problems
// (malformed lines, torn tail, NUL runs, non-object lines, no messages).
// A line longer than claudeLongLine is never held whole (claudeLong).
func readClaudeInfo(path string) (*claudeSummary, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	c := &claudeSummary{problems: map[string]int{}}
	var (
		rd   claudeLines = jsonl.NewReader(fh)
		long *claudeLong
		p    fastjson.Parser
	)
	if claudeLongLine > 0 {
		// It validates each line as the tree mode classifies it (jsonl's
		// fuzz tests hold both to encoding/json), and streams a long
		// line; a held object line is then parsed here.
		er := jsonl.NewElidingReader(fh, claudeLongLine)
		rd = er
		long = &claudeLong{fh: fh, rd: er}
	}
	for rd.Next() {
		rec := rd.Record()
		kind, v := rec.Kind, rec.Value
		if kind == jsonl.Object && v == nil {
			var err error
			if rec.Streamed {
				v, err = long.parse()
			} else {
				v, err = p.ParseBytes(rec.Body())
			}
			if err != nil {
				// What the tree mode says of a line fastjson cannot parse.
				kind = jsonl.Malformed
				if !rec.Newline {
					kind = jsonl.TornTail
				}
			}
		}
		switch kind {
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
		var lg *claudeLong
		if rec.Streamed {
			lg = long
		}
		c.add(v, lg)
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

// add counts the entry v. long, when not nil, is the reader of the long
// line v was parsed from (its elided copy: a string value may be a
// placeholder).
func (c *claudeSummary) add(v *fastjson.Value, long *claudeLong) {
	c.entries++
	rec := jsonl.Record{Value: v}
	if ts, ok := rec.StrOK("timestamp"); ok {
		if ref, isRef := long.ref(ts); isRef {
			ts = long.timestamp(ref)
		}
		// an offset can move year 9999 to 10000: no time list can print
		if t, err := time.Parse(time.RFC3339Nano, ts); err == nil && sessfmt.PrintableTime(t) {
			t = t.UTC()
			if c.first.IsZero() || t.Before(c.first) {
				c.first = t
			}
			if t.After(c.last) {
				c.last = t
			}
		}
	}
	// A placeholder is never one of these types, nor is a string long
	// enough to be left out.
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
			if ref, ok := long.ref(c.cwd); ok {
				c.cwd = long.whole(ref) // kept whole, as a held line's
			}
		}
		if c.firstSidePrompt == "" && rec.Str("type") == "user" && truthy(v, "isSidechain") && !truthy(v, "isMeta") {
			c.firstSidePrompt = clip(claudePrompt(jsonl.Get(v, "message", "content"), long), pi.MaxFirstMessage)
		}
	}
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
// markers, as Claude Code's picker skips them. long, when not nil, reads
// a text that is a placeholder of a long line (claudeLong.prompt).
func claudePrompt(c *fastjson.Value, long *claudeLong) string {
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
	if ref, ok := long.ref(s); ok {
		s = long.prompt(ref, pi.MaxFirstMessage)
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

// claudeLong reads the lines longer than claudeLongLine: each is read
// once, by rd, into a small copy whose string values over
// jsonl.ElidedMin bytes are placeholders, and a placeholder the summary
// reads is decoded from the file in pieces, as fastjson decodes it
// (jsonl.DecodeStringLoose), keeping only what the summary keeps.
type claudeLong struct {
	fh *os.File
	rd *jsonl.ElidingReader
	p  fastjson.Parser
}

// parse parses the elided copy of the current (streamed) line.
func (l *claudeLong) parse() (*fastjson.Value, error) {
	small, _ := l.rd.Elided()
	return l.p.ParseBytes(bytes.TrimSuffix(small, []byte("\r")))
}

// ref returns the left-out string that s stands for (false: s is a text
// of its own, or l is nil).
func (l *claudeLong) ref(s string) (jsonl.Elided, bool) {
	if l == nil || !jsonl.Holds(s) {
		return jsonl.Elided{}, false
	}
	_, el := l.rd.Elided()
	return el.Lookup(s)
}

// pieces decodes the string r in pieces (ending at character boundaries)
// as fastjson's StringBytes does.
func (l *claudeLong) pieces(r jsonl.Elided, fn func([]byte) error) error {
	return jsonl.DecodeStringAs(io.NewSectionReader(l.fh, r.Off, r.Len), !r.Escaped, true, fn)
}

// errStop ends a decoding early.
var errStop = errors.New("stop")

// whole returns the text of r.
func (l *claudeLong) whole(r jsonl.Elided) string {
	var sb strings.Builder
	_ = l.pieces(r, func(p []byte) error { sb.Write(p); return nil })
	return sb.String()
}

// timestamp returns a text that time.Parse(time.RFC3339Nano, ·) reads as it
// reads the text of r, without holding it: a run of digits keeps its first
// 12 (no field of the layout takes more; the fraction reads its first 9
// and skips the others), and a text that is still longer than 64 bytes is
// not a time.
func (l *claudeLong) timestamp(r jsonl.Elided) string {
	const maxRun, maxLen = 12, 64
	var out []byte
	run := 0
	err := l.pieces(r, func(p []byte) error {
		for _, b := range p {
			if b >= '0' && b <= '9' {
				if run++; run > maxRun {
					continue
				}
			} else {
				run = 0
			}
			if out = append(out, b); len(out) > maxLen {
				return errStop
			}
		}
		return nil
	})
	if err != nil {
		return ""
	}
	return string(out)
}

// prompt returns a text whose strings.TrimSpace, and the clip to n bytes
// of that, are those of the text of r, holding at most n+1 bytes of it:
// its leading white space left out, then its first n+1 bytes, and a mark
// "x" when a non-space follows byte n; when none does, the text up to its
// last non-space.
func (l *claudeLong) prompt(r jsonl.Elided, n int) string {
	var keep []byte
	started := false
	end := 0 // the end in keep of its last non-space
	more := false
	err := l.pieces(r, func(p []byte) error {
		for len(p) > 0 {
			c, w := utf8.DecodeRune(p)
			sp := unicode.IsSpace(c) // an invalid byte (RuneError) is not a space
			if !started && sp {
				p = p[w:]
				continue
			}
			started = true
			if len(keep) <= n {
				k := min(w, n+1-len(keep))
				keep = append(keep, p[:k]...)
				if !sp && k == w {
					end = len(keep)
				}
				if k < w && !sp {
					more = true // a non-space rune that ends past byte n
					return errStop
				}
				p = p[w:]
				continue
			}
			if !sp {
				more = true
				return errStop
			}
			p = p[w:]
		}
		return nil
	})
	if err != nil && err != errStop {
		return ""
	}
	if more {
		return string(keep) + "x"
	}
	return string(keep[:end])
}
