package pi

import (
	"bufio"
	"io"
	"os"

	"github.com/sessctl/sessctl/internal/jsonl"
)

// contentCapture picks a message's content out of a long line.
var contentCapture = &jsonl.Capture{Top: []string{"message"}, Sub: "message", SubKeys: []string{"content"}}

// MessageText returns the text of entry i's message as list's first
// message takes it (textContent: a string content as is, else its text
// blocks joined by a space), clipped to MaxFirstMessage bytes, and whether
// the entry's message is an object. A line longer than jsonl.LongLine is
// read as the index reads it, never held: only the first bytes of its
// content are kept (a string content is decoded up to the cut, far past
// MaxFirstMessage); an array content cut there is read whole (its text
// blocks may follow a long one).
func (f *File) MessageText(i int) (text string, object bool, err error) {
	e := f.Entries[i]
	if e.Len() > jsonl.LongLine && f.edits == nil {
		fh, err := os.Open(f.Path)
		if err != nil {
			return "", false, err
		}
		defer fh.Close()
		br := bufio.NewReaderSize(io.NewSectionReader(fh, e.Offset(), e.Len()), jsonl.BufferSize)
		ls := jsonl.NewLongScanner(contentCapture, longCapture)
		if _, _, _, err := ls.Scan(nil, br); err != nil {
			return "", false, err
		}
		if ls.SubFirst != '{' {
			return "", false, nil
		}
		c := ls.Sub[0]
		switch {
		case !ls.SubClipped[0]:
			return clipText(textContent(c), MaxFirstMessage), true, nil
		case c[0] == '"':
			return clipText(stringPrefix(c), MaxFirstMessage), true, nil
		}
	}
	ls, err := f.ReadLines([]int{i})
	if err != nil || len(ls) == 0 {
		return "", false, err
	}
	msg := jsonl.Fields(ls[0], "message")[0]
	if len(msg) == 0 || msg[0] != '{' {
		return "", false, nil
	}
	return clipText(textContent(jsonl.Fields(msg, "content")[0]), MaxFirstMessage), true, nil
}
