// Package render prints sessctl's models for people (text, tables, trees)
// and for programs (JSON). Everything that comes from a session file goes
// through Escape before it reaches a terminal.
package render

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Escape makes untrusted text safe to print: C0 controls other than newline
// and tab, DEL, C1 controls, bidirectional overrides and invalid UTF-8 are
// shown as visible escapes (\x1b, \u009b, \u202e, \xff) instead of being sent
// to the terminal.
func Escape(s string) string {
	if safe(s, true) {
		return s
	}
	return escape(s, true)
}

// EscapeLine is Escape for one-line contexts: newlines and tabs become
// visible too (⏎ and a space).
func EscapeLine(s string) string {
	if safe(s, false) {
		return s
	}
	return escape(s, false)
}

func safe(s string, multiline bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 {
			if multiline && (c == '\n' || c == '\t') {
				continue
			}
			return false
		}
		if c >= 0x7f {
			return false
		}
	}
	return true
}

func escape(s string, multiline bool) string {
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n' || r == '\t':
			if multiline {
				b.WriteRune(r)
			} else if r == '\n' {
				b.WriteString("⏎")
			} else {
				b.WriteByte(' ')
			}
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r >= 0x80 && r <= 0x9f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// Truncate cuts s to at most n display columns (runes), adding "…".
func Truncate(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	rs := []rune(s)
	if n == 1 {
		return "…"
	}
	return string(rs[:n-1]) + "…"
}

// FirstLine returns the first non-empty line of s, trimmed.
func FirstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if t := strings.TrimSpace(l); t != "" {
			return t
		}
	}
	return ""
}

// SafeError wraps err so that its message is Escape'd (control characters
// and bidi overrides from user input or file content become visible
// escapes); errors.Is and errors.As still see err.
func SafeError(err error) error {
	if err == nil {
		return nil
	}
	return safeError{err}
}

type safeError struct{ err error }

func (e safeError) Error() string { return Escape(e.err.Error()) }
func (e safeError) Unwrap() error { return e.err }
