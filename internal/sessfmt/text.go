package sessfmt

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/sessctl/sessctl/internal/model"
)

// TextKind says what a piece of a session's readable text is. Kinds are
// bits, so a set of kinds is one TextKind.
type TextKind uint8

// The kinds of readable text.
const (
	// TextBody is what a person or the model wrote: message text, compaction
	// and branch summaries, custom messages.
	TextBody TextKind = 1 << iota
	// TextThinking is the model's reasoning (thinking blocks).
	TextThinking
	// TextToolInput is a tool call's arguments (as JSON text) and name.
	TextToolInput
	// TextToolOutput is a tool result's text.
	TextToolOutput
	// TextTitle is a title or name stored in the session (a session name
	// entry, a custom or AI title, a summary line, a store's title field).
	TextTitle

	// TextAll is every kind.
	TextAll = TextBody | TextThinking | TextToolInput | TextToolOutput | TextTitle
	// TextDefault is what search reads unless told: text and tool input and
	// output.
	TextDefault = TextBody | TextToolInput | TextToolOutput
)

var textKindNames = []struct {
	k    TextKind
	name string
}{
	{TextBody, "text"}, {TextThinking, "thinking"}, {TextToolInput, "tool-input"},
	{TextToolOutput, "tool-output"}, {TextTitle, "title"},
}

// String is the kind's name (text, thinking, tool-input, tool-output,
// title), or the names of a set joined by commas.
func (k TextKind) String() string {
	var names []string
	for _, n := range textKindNames {
		if k&n.k != 0 {
			names = append(names, n.name)
		}
	}
	return strings.Join(names, ",")
}

// ParseTextKinds reads names (each may hold several, comma-separated) into
// a set; "all" is every kind.
func ParseTextKinds(names []string) (TextKind, error) {
	var k TextKind
	for _, arg := range names {
		for _, name := range strings.Split(arg, ",") {
			name = strings.TrimSpace(name)
			if name == "all" {
				k |= TextAll
				continue
			}
			found := false
			for _, n := range textKindNames {
				if n.name == name {
					k |= n.k
					found = true
				}
			}
			if !found {
				return 0, fmt.Errorf("unknown text kind %q: use text, thinking, tool-input, tool-output, title or all", name)
			}
		}
	}
	return k, nil
}

// Text is one piece of readable text of a session: JSON-decoded, exactly as
// a person reads it.
type Text struct {
	Kind TextKind
	// Text is the decoded text (for tool input: the tool name, a newline,
	// then the arguments as compact JSON).
	Text string
	// EntryID is the entry's id or uuid (a message id for stores).
	EntryID string
	// Line is the 1-based line of the JSONL file the entry is on; 0 when the
	// session is not a line file (a database, a storage tree).
	Line int
	// Role is the message role (user, assistant, toolResult, tool, system,
	// custom, …) or the entry type when it has none.
	Role string
	// Time is the entry's time (zero when unknown).
	Time time.Time
	// Tool is the tool name of tool input and output.
	Tool string
	// OnPath says the entry is on the active path (root to active leaf).
	OnPath bool
}

// TextOptions tune Texts.
type TextOptions struct {
	// Kinds are the kinds wanted (0: every kind).
	Kinds TextKind
	// Candidate, when set, is asked about each stored record before it is
	// decoded: line is the record's 1-based line in a JSONL file (0 for a
	// record of a database or storage tree) and raw its stored bytes (the
	// line, or the record's JSON). A record it refuses is skipped undecoded;
	// this is how search decodes only the lines its byte prefilter picked.
	Candidate func(line int, raw []byte) bool
	// Long, when set, is called for each line of a JSONL session longer
	// than jsonl.LongLine instead of the line being read whole (Candidate is
	// not asked about it): see LongLine. Returning ErrReadWhole, before
	// any text of the line was used, has the line read whole and decoded
	// as a short line is. A Texter that does not support it reads every
	// line whole.
	Long func(l *LongLine) error
}

// LongLine is a line of a JSONL session longer than jsonl.LongLine, handed
// to TextOptions.Long unread.
type LongLine struct {
	// Line is the line's 1-based number.
	Line int
	// File is the session file, open during the call.
	File *os.File
	// Off and Len locate the line in File, newline excluded.
	Off, Len int64
	// Texts calls fn with the texts of small, a stand-in of the line that
	// keeps its small values and puts placeholders for long strings (a
	// jsonl.Elider's copy), as the texts of the line itself: entry id,
	// line, role, time and on-path as Texts gives them; a text that is a
	// left-out string is its placeholder.
	Texts func(small []byte, fn func(*Text) error) error
	// Loose: the format decodes strings as fastjson does (Claude Code),
	// so a left-out string is decoded with jsonl.DecodeStringLoose.
	Loose bool
}

// ErrReadWhole, returned by TextOptions.Long, has the long line read whole.
var ErrReadWhole = errors.New("read the line whole")

// Texter is the text capability (search, secrets): every entry's readable
// text, in file order, on and off the active path. fn's *Text is valid only
// during the call. An error from fn stops the walk and is returned.
type Texter interface {
	Texts(opts TextOptions, fn func(*Text) error) error
}

// EachLine reads the JSONL file at path forward and calls fn with the
// 1-based number and bytes (without the newline) of each line candidate
// accepts (all when nil). Line numbers count every physical line, as a raw
// scan of the file counts them. There is no line-length cap; memory grows
// with the longest line while it is read. raw is valid only during the
// call.
func EachLine(path string, candidate func(line int, raw []byte) bool, fn func(line int, raw []byte) error) error {
	fh, err := os.Open(path)
	if err != nil {
		return err
	}
	defer fh.Close()
	br := bufio.NewReaderSize(fh, 64<<10)
	var acc []byte
	line := 0
	for {
		chunk, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			acc = append(acc, chunk...)
			continue
		}
		if err != nil && err != io.EOF {
			return err
		}
		if len(chunk) == 0 && len(acc) == 0 && err == io.EOF {
			return nil
		}
		line++
		raw := chunk
		if len(acc) > 0 {
			acc = append(acc, chunk...)
			raw = acc
		}
		raw = bytes.TrimSuffix(raw, []byte{'\n'})
		if candidate == nil || candidate(line, raw) {
			if ferr := fn(line, raw); ferr != nil {
				return ferr
			}
		}
		acc = acc[:0]
		if err == io.EOF {
			return nil
		}
	}
}

// LongTexts is EachLineLong's long callback for a format's Texts with
// TextOptions.Long set: each line longer than jsonl.LongLine goes to long
// unread, with texts (the format's reader of one line: entry id, on-path,
// time and the entry's texts) to read the line's elided copy as the line
// itself; loose is LongLine.Loose, the format's way of decoding strings.
func LongTexts(long func(*LongLine) error, loose bool, texts func(line int, raw []byte, fn func(*Text) error) error) func(fh *os.File, line int, off, n int64) error {
	return func(fh *os.File, line int, off, n int64) error {
		return long(&LongLine{
			Line: line, File: fh, Off: off, Len: n, Loose: loose,
			Texts: func(small []byte, fn func(*Text) error) error { return texts(line, small, fn) },
		})
	}
}

// EachLineLong is EachLine, except that a line longer than jsonl.LongLine
// is never held: long is called with the open file, the line's number,
// offset and length (newline excluded) instead, and candidate is not asked
// about it. When long returns ErrReadWhole the line is read whole and goes
// to candidate and fn as a short line does.
func EachLineLong(path string, candidate func(line int, raw []byte) bool, fn func(line int, raw []byte) error,
	long func(fh *os.File, line int, off, n int64) error) error {
	fh, err := os.Open(path)
	if err != nil {
		return err
	}
	defer fh.Close()
	br := bufio.NewReaderSize(fh, 64<<10)
	// A line longer than the reader's buffer is not gathered while it is
	// read: at its end it is read again from the file (from the page
	// cache) into buf when not long, so buf grows to the longest short
	// line only.
	var buf []byte
	line := 0
	var pos, start int64 // file offsets: of the next byte read, of the line
	split := false       // the line is longer than the reader's buffer
	for {
		chunk, err := br.ReadSlice('\n')
		pos += int64(len(chunk))
		if err == bufio.ErrBufferFull {
			split = true
			continue
		}
		if err != nil && err != io.EOF {
			return err
		}
		if len(chunk) == 0 && !split && err == io.EOF {
			return nil
		}
		line++
		n := pos - start
		if len(chunk) > 0 && chunk[len(chunk)-1] == '\n' {
			n--
		}
		handled := false
		if n > jsonl.LongLine {
			ferr := long(fh, line, start, n)
			if ferr != nil && ferr != ErrReadWhole {
				return ferr
			}
			handled = ferr == nil
		}
		if !handled {
			var raw []byte
			switch {
			case n > jsonl.LongLine:
				// Read whole, as asked, and not kept in buf.
				raw = make([]byte, n)
			case split:
				if int64(cap(buf)) < n {
					buf = make([]byte, n)
				}
				raw = buf[:n]
			default:
				raw = chunk[:n]
			}
			if split {
				if _, rerr := fh.ReadAt(raw, start); rerr != nil {
					return rerr
				}
			}
			if candidate == nil || candidate(line, raw) {
				if ferr := fn(line, raw); ferr != nil {
					return ferr
				}
			}
		}
		split, start = false, pos
		if err == io.EOF {
			return nil
		}
	}
}

// MessageTexts calls fn with the texts of a message's blocks that kinds
// asks for: text blocks as TextBody, thinking as TextThinking, tool calls as
// TextToolInput (name, newline, arguments) and tool results as
// TextToolOutput. base gives the entry's id, line, role, time and on-path.
func MessageTexts(m *model.Message, base Text, kinds TextKind, fn func(*Text) error) error {
	if kinds == 0 {
		kinds = TextAll
	}
	if base.Role == "" {
		base.Role = m.Role
	}
	if base.Time.IsZero() {
		base.Time = m.Time
	}
	for i := range m.Blocks {
		b := &m.Blocks[i]
		t := base
		switch b.Kind {
		case "text":
			t.Kind, t.Text = TextBody, b.Text
		case "thinking":
			t.Kind, t.Text = TextThinking, b.Text
		case "toolCall":
			t.Kind, t.Tool = TextToolInput, b.Name
			t.Text = b.Name
			if b.Args != "" {
				t.Text += "\n" + b.Args
			}
		case "toolResult":
			t.Kind, t.Tool, t.Text = TextToolOutput, b.Name, b.Text
		default:
			continue
		}
		if t.Kind&kinds == 0 || t.Text == "" {
			continue
		}
		if err := fn(&t); err != nil {
			return err
		}
	}
	return nil
}

// LineTexter is a format whose JSONL session lines can be read for text one
// at a time, without opening the session: no index, so no active path
// (OnPath is false) and ids as stored. search uses it to list matching
// sessions (-l) at the speed of its byte prefilter.
type LineTexter interface {
	LineTexts(line int, raw []byte, kinds TextKind, fn func(*Text) error) error
}
