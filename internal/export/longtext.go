package export

import (
	"bufio"
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/sessctl/sessctl/internal/model"
	"github.com/sessctl/sessctl/internal/render"
)

// A block whose text is a model.TextRef (a text too long to hold, left in
// the session file) is written as its text is decoded from the file in
// pieces (render.TextPieces: about 64 KiB each, ending at character
// boundaries, so each piece is escaped on its own), with the same bytes as
// the held text gives: TestLongTextEqualsHeld holds every writer here
// equal to its counterpart on a held string, in any chunking.

// How appendText escapes a piece of text.
const (
	// escTerm is render.Escape: control characters, C1 controls and
	// bidirectional overrides as visible escapes, invalid UTF-8 as \xNN.
	escTerm = iota
	// escMD is escTerm, then '&', '<', '>' as entities and '[', ']'
	// backslashed (mdProse before its fence check).
	escMD
	// escHTML is html.EscapeString(clean(s)): as escTerm but invalid
	// UTF-8 becomes U+FFFD, then '&', '<', '>', '\'', '"' as entities.
	escHTML
)

// appendText appends s escaped for mode to dst, without building a
// string: each character on its own, so a text can be escaped piece by
// piece (pieces ending at character boundaries). TestAppendText holds it
// equal to the held functions.
func appendText(dst []byte, s string, mode int) []byte {
	const hex = "0123456789abcdef"
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			switch {
			case c == '\n' || c == '\t':
				dst = append(dst, c)
			case c < 0x20 || c == 0x7f:
				dst = append(dst, '\\', 'x', hex[c>>4], hex[c&15])
			case mode == escTerm:
				dst = append(dst, c)
			case c == '&':
				dst = append(dst, "&amp;"...)
			case c == '<':
				dst = append(dst, "&lt;"...)
			case c == '>':
				dst = append(dst, "&gt;"...)
			case mode == escMD && (c == '[' || c == ']'):
				dst = append(dst, '\\', c)
			case mode == escHTML && c == '\'':
				dst = append(dst, "&#39;"...)
			case mode == escHTML && c == '"':
				dst = append(dst, "&#34;"...)
			default:
				dst = append(dst, c)
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			if mode == escHTML {
				dst = append(dst, "\uFFFD"...)
			} else {
				dst = append(dst, '\\', 'x', hex[c>>4], hex[c&15])
			}
		case r >= 0x80 && r <= 0x9f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
			dst = append(dst, '\\', 'u', hex[r>>12&15], hex[r>>8&15], hex[r>>4&15], hex[r&15])
		default:
			dst = append(dst, s[i:i+size]...)
		}
		i += size
	}
	return dst
}

// textFacts are what a tool result's heading and fence need to know of its
// text before it is written: lineCount, len and the longest backtick run.
type textFacts struct {
	lines int   // lineCount(text)
	bytes int64 // len(text)
	ticks int   // longest run of '`'
	run   int   // the run at the end of what was seen
}

func (f *textFacts) piece(s string) error {
	f.lines += strings.Count(s, "\n")
	f.bytes += int64(len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			f.run++
			f.ticks = max(f.ticks, f.run)
		} else {
			f.run = 0
		}
	}
	return nil
}

// longFacts reads a long text once for its facts.
func longFacts(ref *model.TextRef) (textFacts, error) {
	f := textFacts{lines: 1}
	err := render.TextPieces(ref, f.piece)
	return f, err
}

// fenceTicks is the fence fence writes for a text whose longest backtick
// run is ticks.
func fenceTicks(ticks int) string { return strings.Repeat("`", max(3, ticks+1)) }

// writeLongFence is fence(w, lang, text) for a text in the file whose
// facts are known.
func writeLongFence(w *bufio.Writer, lang string, ref *model.TextRef, f textFacts) error {
	fc := fenceTicks(f.ticks)
	w.WriteString(fc + lang + "\n")
	var buf []byte
	err := render.TextPieces(ref, func(p string) error {
		buf = appendText(buf[:0], p, escTerm)
		_, err := w.Write(buf)
		return err
	})
	w.WriteString("\n" + fc + "\n\n")
	return err
}

// proseWriter is mdProse as a stream: the text goes in in pieces (each
// ending at a character boundary) and comes out escaped, with '[' and ']'
// escaped and a line that opens a code fence (after spaces) given a
// backslash. At a line's start it holds only the count of its leading
// spaces and at most two fence characters until it knows.
type proseWriter struct {
	w      *bufio.Writer
	start  bool // at a line's start, deciding whether it opens a fence
	spaces int  // leading spaces seen at this line's start
	head   []byte
	buf    []byte
}

func newProseWriter(w *bufio.Writer) *proseWriter {
	return &proseWriter{w: w, start: true, head: make([]byte, 0, 3)}
}

// piece takes the next piece of the text.
func (p *proseWriter) piece(s string) error {
	// Escaping and the entities are per character, so per piece.
	p.buf = appendText(p.buf[:0], s, escMD)
	p.out(p.buf)
	return nil
}

// out writes escaped text, deciding each line's fence at its start.
func (p *proseWriter) out(s []byte) {
	for len(s) > 0 {
		if !p.start {
			j := bytes.IndexByte(s, '\n')
			if j < 0 {
				p.w.Write(s)
				return
			}
			p.w.Write(s[:j+1])
			s = s[j+1:]
			p.start = true
			continue
		}
		c := s[0]
		s = s[1:]
		switch {
		case c == '\n':
			p.flush()
			p.w.WriteByte('\n')
			p.start = true
		case c == ' ' && len(p.head) == 0:
			p.spaces++
		case (c == '`' || c == '~') && (len(p.head) == 0 || p.head[0] == c):
			p.head = append(p.head, c)
			if len(p.head) == 3 {
				p.writeSpaces()
				p.w.WriteByte('\\')
				p.w.Write(p.head)
				p.head = p.head[:0]
				p.start = false
			}
		default:
			p.flush()
			p.w.WriteByte(c)
			p.start = false
		}
	}
}

func (p *proseWriter) writeSpaces() {
	for ; p.spaces > 0; p.spaces-- {
		p.w.WriteByte(' ')
	}
}

// flush writes what a line's start held.
func (p *proseWriter) flush() {
	p.writeSpaces()
	p.w.Write(p.head)
	p.head = p.head[:0]
}

// writeLongProse is the text of fmt.Fprintf(w, "%s", mdProse(text)) for a
// text in the file.
func writeLongProse(w *bufio.Writer, ref *model.TextRef) error {
	p := newProseWriter(w)
	err := render.TextPieces(ref, p.piece)
	p.flush()
	return err
}

// writeLongHTML is w.WriteString(html.EscapeString(clean(text))) for a
// text in the file.
func writeLongHTML(w *bufio.Writer, ref *model.TextRef) error {
	var buf []byte
	return render.TextPieces(ref, func(s string) error {
		buf = appendText(buf[:0], s, escHTML)
		_, err := w.Write(buf)
		return err
	})
}

// holdText reads a long text into b.Text (for what needs it whole:
// redaction).
func holdText(b *model.Block) error {
	if b.LongText == nil || b.Kind == "image" { // an image's reference is its data, not text
		return nil
	}
	var sb strings.Builder
	if err := render.TextPieces(b.LongText, func(s string) error { sb.WriteString(s); return nil }); err != nil {
		return err
	}
	b.Text, b.LongText = sb.String(), nil
	return nil
}
