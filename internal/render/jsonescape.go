package render

import (
	"fmt"
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
