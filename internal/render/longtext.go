package render

import (
	"fmt"
	"io"
	"os"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/fatih/color"
	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/sessctl/sessctl/internal/model"
)

// A block whose text is a model.TextRef is printed as its text is decoded
// from the file, piece by piece (jsonl.DecodeString: pieces of 64 KiB that
// end at character boundaries, so each is escaped on its own), with the
// same bytes as the held text gives: TestLongTextEqualsHeld holds each
// function here equal to its counterpart on a held string, in any
// chunking.

// TextPieces calls fn with the text of ref in pieces (about 64 KiB each,
// ending at character boundaries); a piece is valid only during the call.
// Every writer of a long text (render's and export's) reads it through
// this function.
func TextPieces(ref *model.TextRef, fn func(string) error) error {
	fh, err := os.Open(ref.Path)
	if err != nil {
		return err
	}
	defer fh.Close()
	piece := func(p []byte) error {
		// The piece is not kept past fn: no copy.
		return fn(unsafe.String(unsafe.SliceData(p), len(p)))
	}
	return jsonl.DecodeStringAs(io.NewSectionReader(fh, ref.Off, ref.Len), ref.Verbatim, ref.Loose, piece)
}

// appendEscape appends Escape(s) to dst without building a string.
func appendEscape(dst []byte, s string) []byte {
	if safe(s, true) {
		return append(dst, s...)
	}
	const hex = "0123456789abcdef"
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			dst = append(dst, '\\', 'x', hex[s[i]>>4], hex[s[i]&15])
		case r == '\n' || r == '\t':
			dst = append(dst, byte(r))
		case r < 0x20 || r == 0x7f:
			dst = append(dst, '\\', 'x', hex[r>>4], hex[r&15])
		case r >= 0x80 && r <= 0x9f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
			dst = append(dst, '\\', 'u', hex[r>>12&15], hex[r>>8&15], hex[r>>4&15], hex[r&15])
		default:
			dst = append(dst, s[i:i+size]...)
		}
		i += size
	}
	return dst
}

// trimmedText writes a text with its trailing newlines left out
// (strings.TrimRight(text, "\n")), escaped; with maxLines > 0 it writes
// only the first maxLines lines, each ending in a newline, and counts the
// rest, as writeLimited does.
type trimmedText struct {
	w        io.Writer
	maxLines int
	pending  int  // newlines seen and not yet written (maybe trailing)
	any      bool // some text other than newlines was seen
	written  int  // newlines written
	cut      bool // maxLines lines were written: the rest is counted
	rest     int  // newlines after the cut, but trailing ones
	err      error
	buf      []byte
}

func (t *trimmedText) write(s string) {
	if t.err == nil {
		_, t.err = io.WriteString(t.w, s)
	}
}

// piece takes the next piece of the text.
func (t *trimmedText) piece(p string) error {
	for len(p) > 0 {
		j := strings.IndexByte(p, '\n')
		if j == 0 {
			t.pending++
			p = p[1:]
			continue
		}
		seg := p
		if j > 0 {
			seg = p[:j]
		}
		p = p[len(seg):]
		for ; t.pending > 0; t.pending-- {
			if t.cut {
				t.rest++
				continue
			}
			t.write("\n")
			t.written++
			if t.maxLines > 0 && t.written == t.maxLines {
				t.cut = true
			}
		}
		t.any = true
		if !t.cut && t.err == nil {
			t.buf = appendEscape(t.buf[:0], seg)
			_, t.err = t.w.Write(t.buf)
		}
	}
	return t.err
}

// writeLongText is drawBlock's text case for a text in a file:
// Escape(strings.TrimRight(text, "\n")) and a newline.
func writeLongText(w io.Writer, ref *model.TextRef) error {
	t := &trimmedText{w: w}
	err := TextPieces(ref, t.piece)
	t.write("\n")
	return firstErr(err, t.err)
}

// writeLongDim is fmt.Fprintln(w, c.Sprint(Escape(strings.TrimRight(text, "\n")))).
func writeLongDim(w io.Writer, c *color.Color, ref *model.TextRef) error {
	pre, post := colorParts(c)
	t := &trimmedText{w: w}
	t.write(pre)
	err := TextPieces(ref, t.piece)
	t.write(post + "\n")
	return firstErr(err, t.err)
}

// colorParts returns what c.Sprint writes before and after its text.
func colorParts(c *color.Color) (pre, post string) {
	s := c.Sprint("\x00")
	i := strings.IndexByte(s, 0)
	return s[:i], s[i+1:]
}

// writeLongLimited is writeLimited for a text in a file.
func writeLongLimited(w io.Writer, ref *model.TextRef, o TranscriptOptions) error {
	t := &trimmedText{w: w}
	if !o.Full {
		t.maxLines = o.MaxLines
	}
	err := TextPieces(ref, t.piece)
	if !t.any {
		return err
	}
	if t.cut {
		rest := t.rest + 1
		t.write(o.Styles.Dim.Sprintf("… %d more %s (--full shows them)", rest, plural(rest, "line", "lines")) + "\n")
	} else {
		t.write("\n")
	}
	return firstErr(err, t.err)
}

// thinkingSummary gathers what the folded thinking line shows: the number
// of lines of the text without its trailing newlines, and FirstLine of it
// cut to max characters (Truncate), reading the text once.
type thinkingSummary struct {
	max      int
	newlines int // newlines but the trailing ones
	pending  int
	any      bool
	// the first line with text other than spaces
	found    bool
	started  bool   // past the current line's leading spaces
	head     []byte // its first max runes (after the leading spaces)
	runes    int    // runes of the current line after its leading spaces
	nonSpace int    // runes up to and including its last non-space
	done     bool   // the first line is complete
}

func (s *thinkingSummary) piece(p string) error {
	for len(p) > 0 {
		r, size := utf8.DecodeRuneInString(p)
		if r == '\n' {
			s.pending++
			if s.found {
				s.done = true
			} else {
				s.started, s.runes, s.nonSpace = false, 0, 0
				s.head = s.head[:0]
			}
		} else {
			s.newlines += s.pending
			s.pending = 0
			s.any = true
			if !s.done {
				space := unicode.IsSpace(r) && !(r == utf8.RuneError && size == 1)
				if !s.started && space {
					// a leading space
				} else {
					s.started = true
					s.runes++
					if s.runes <= s.max {
						s.head = append(s.head, p[:size]...)
					}
					if !space {
						s.nonSpace = s.runes
						s.found = true
					}
				}
			}
		}
		p = p[size:]
	}
	return nil
}

// line returns Truncate(FirstLine(text), max).
func (s *thinkingSummary) line() string {
	if !s.found {
		return ""
	}
	if s.nonSpace <= s.max {
		// the first nonSpace runes of head
		b := s.head
		for k, i := 0, 0; i < len(b); k++ {
			if k == s.nonSpace {
				return string(b[:i])
			}
			_, n := utf8.DecodeRune(b[i:])
			i += n
		}
		return string(b)
	}
	return Truncate(string(s.head)+"x", s.max) // more than max runes: cut
}

// writeLongThinking is drawBlock's folded thinking line for a text in a file.
func writeLongThinking(w io.Writer, ref *model.TextRef, o TranscriptOptions) error {
	s := &thinkingSummary{max: 100}
	err := TextPieces(ref, s.piece)
	n := s.newlines + 1
	_, werr := fmt.Fprintln(w, o.Styles.Dim.Sprintf("[thinking, %d %s] %s", n, plural(n, "line", "lines"), EscapeLine(s.line())))
	return firstErr(err, werr)
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}
