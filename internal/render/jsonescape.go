package render

import (
	"encoding/json"
	"fmt"
	"io"
	"unicode/utf8"
)

// EscapeJSONForTerminal rewrites JSON text for a terminal: the characters
// Escape makes visible in human output — C0 controls other than the
// newline, tab and carriage return JSON uses as whitespace, DEL, C1
// controls (U+0080–U+009F), bidirectional embeddings, overrides and
// isolates (U+202A–U+202E, U+2066–U+2069) — become \uXXXX escapes, and
// invalid UTF-8 bytes become \ufffd (as encoding/json writes them). Valid
// JSON stays valid and decodes to the same values (except for invalid
// UTF-8, which JSON cannot carry); a terminal no longer acts on them.
// Use it only when stdout is a terminal: piped output stays as it is.
// b is returned unchanged when nothing needs escaping.
func EscapeJSONForTerminal(b []byte) []byte {
	i := 0
	for ; i < len(b); i++ {
		if c := b[i]; c >= 0x7f || c < 0x20 && c != '\n' && c != '\t' && c != '\r' {
			break
		}
	}
	if i == len(b) {
		return b
	}
	out := make([]byte, 0, len(b)+32)
	out = append(out, b[:i]...)
	for i < len(b) {
		c := b[i]
		if c < 0x7f {
			if c < 0x20 && c != '\n' && c != '\t' && c != '\r' {
				out = fmt.Appendf(out, `\u%04x`, c)
			} else {
				out = append(out, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			out = append(out, `\ufffd`...)
		case r == 0x7f, r >= 0x80 && r <= 0x9f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
			out = fmt.Appendf(out, `\u%04x`, r)
		default:
			out = append(out, b[i:i+size]...)
		}
		i += size
	}
	return out
}

// TerminalJSONWriter streams JSON text to a terminal through
// EscapeJSONForTerminal, holding back a UTF-8 sequence cut between two
// writes. Call Flush after the last write.
type TerminalJSONWriter struct {
	w    io.Writer
	pend []byte
}

// NewTerminalJSONWriter returns a TerminalJSONWriter writing to w.
func NewTerminalJSONWriter(w io.Writer) *TerminalJSONWriter { return &TerminalJSONWriter{w: w} }

// Write escapes p (with any bytes held back) and writes it.
func (t *TerminalJSONWriter) Write(p []byte) (int, error) {
	buf := p
	if len(t.pend) > 0 {
		buf = append(append([]byte(nil), t.pend...), p...)
		t.pend = t.pend[:0]
	}
	cut := len(buf)
	for i := 1; i <= utf8.UTFMax-1 && i <= len(buf); i++ {
		c := buf[len(buf)-i]
		if c < 0x80 {
			break
		}
		if c >= 0xc0 { // the start of the last sequence
			if !utf8.FullRune(buf[len(buf)-i:]) {
				cut = len(buf) - i
			}
			break
		}
	}
	t.pend = append(t.pend, buf[cut:]...)
	if _, err := t.w.Write(EscapeJSONForTerminal(buf[:cut])); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes the bytes held back (an incomplete sequence at the very
// end is invalid UTF-8 and written as \ufffd).
func (t *TerminalJSONWriter) Flush() error {
	if len(t.pend) == 0 {
		return nil
	}
	_, err := t.w.Write(EscapeJSONForTerminal(t.pend))
	t.pend = t.pend[:0]
	return err
}

// WriteJSONLine writes v as one line of JSON (JSON Lines) to w, escaped by
// EscapeJSONForTerminal when tty says stdout is a terminal.
func WriteJSONLine(w io.Writer, v any, tty bool) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if tty {
		b = EscapeJSONForTerminal(b)
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
