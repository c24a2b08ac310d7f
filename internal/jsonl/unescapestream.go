package jsonl

import (
	"errors"
	"io"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// StringPiece is about the size of the pieces DecodeString reads and hands
// on: a string of any size is decoded in this much memory.
const StringPiece = 64 << 10

// errBadString is DecodeString's error for input that is not exactly one
// valid JSON string.
var errBadString = errors.New("not a valid JSON string")

// DecodeString decodes the raw JSON string read from r (its quotes
// included, nothing after it) with String's result, handing the text to fn
// in pieces of about StringPiece bytes, never more than twice that; a piece
// is valid only during the call. Every piece ends at a character boundary
// (where utf8.DecodeRune over the whole text ends a rune or an invalid
// byte), so each can be escaped for a terminal on its own.
//
// verbatim is String's fast path, for a string that holds no backslash: its
// bytes are the text as they are, invalid UTF-8 included. Otherwise the
// string is unescaped as encoding/json does: invalid UTF-8 and lone
// surrogates become U+FFFD (FuzzDecodeString holds it equal to unescape
// and encoding/json in any chunking). An error is returned, possibly after
// some pieces, when r does not hold exactly one valid JSON string (or, when
// verbatim, holds a backslash).
func DecodeString(r io.Reader, verbatim bool, fn func(piece []byte) error) error {
	return decodeString(r, verbatim, false, fn, StringPiece)
}

// DecodeStringLoose is DecodeString with fastjson's unescaping (its
// StringBytes, which the Claude Code reader uses): bytes that are not
// escapes are kept as they are (invalid UTF-8 included), a surrogate
// escape followed by another \u escape is decoded with it as a pair
// (U+FFFD when the two are not one), and a surrogate escape not followed
// by one is kept as its six characters.
func DecodeStringLoose(r io.Reader, fn func(piece []byte) error) error {
	return decodeString(r, false, true, fn, StringPiece)
}

// DecodeStringAs is DecodeString (verbatim, or encoding/json's rules) or,
// when loose and not verbatim, DecodeStringLoose: the one choice every
// reader of a left-out string makes from its flags (a TextRef's Verbatim and
// Loose, an Elided's Escaped and its reader's rules).
func DecodeStringAs(r io.Reader, verbatim, loose bool, fn func(piece []byte) error) error {
	return decodeString(r, verbatim, loose && !verbatim, fn, StringPiece)
}

// appendLooseEscape is appendEscape as fastjson unescapes (DecodeStringLoose).
func appendLooseEscape(out, in []byte) (_ []byte, took int, ok bool) {
	if len(in) < 2 || in[1] != 'u' {
		return appendEscape(out, in)
	}
	r, ok := hex4(in[2:])
	if !ok {
		return out, 0, false
	}
	if !utf16.IsSurrogate(r) {
		return utf8.AppendRune(out, r), 6, true
	}
	if r2, ok := hex4u(in[6:]); ok {
		return utf8.AppendRune(out, utf16.DecodeRune(r, r2)), 12, true
	}
	return append(out, in[:6]...), 6, true
}

// lookahead is the most input one step needs: a \uXXXX\uXXXX pair.
const lookahead = 12

func decodeString(r io.Reader, verbatim, loose bool, fn func([]byte) error, size int) error {
	in := make([]byte, size+lookahead)
	out := make([]byte, 0, 2*size)
	n, i := 0, 0
	eof := false
	// fill moves the unread input to the front and reads until the buffer
	// is full or r is exhausted.
	fill := func() error {
		n = copy(in, in[i:n])
		i = 0
		if eof {
			return nil
		}
		m, err := io.ReadFull(r, in[n:])
		n += m
		switch {
		case err == io.EOF || err == io.ErrUnexpectedEOF:
			eof = true
		case err != nil:
			return err
		}
		return nil
	}
	if err := fill(); err != nil {
		return err
	}
	if n == 0 || in[0] != '"' {
		return errBadString
	}
	i = 1
	for {
		if !eof && n-i < lookahead {
			if err := fill(); err != nil {
				return err
			}
		}
		if i >= n {
			return errBadString // no closing quote
		}
		c := in[i]
		switch {
		case c == '"':
			i++
			if i < n || !eof {
				// Anything after the string is an error (read one more
				// byte to know when the buffer ended exactly here).
				if i == n {
					var one [1]byte
					if m, _ := io.ReadFull(r, one[:]); m == 0 {
						goto done
					}
				}
				return errBadString
			}
			goto done
		case c == '\\':
			if verbatim {
				return errBadString
			}
			var k int
			var ok bool
			if loose {
				out, k, ok = appendLooseEscape(out, in[i:n])
			} else {
				out, k, ok = appendEscape(out, in[i:n])
			}
			if !ok {
				return errBadString
			}
			i += k
		case c < 0x20 && !verbatim && !loose:
			return errBadString
		case c < utf8.RuneSelf:
			j := i + 1
			for j < n && in[j] < utf8.RuneSelf && in[j] != '\\' && in[j] != '"' && (in[j] >= 0x20 || verbatim || loose) {
				j++
			}
			out = append(out, in[i:j]...)
			i = j
		default:
			ru, sz := utf8.DecodeRune(in[i:n])
			if ru == utf8.RuneError && sz == 1 && !verbatim && !loose {
				out = utf8.AppendRune(out, unicode.ReplacementChar)
			} else {
				out = append(out, in[i:i+sz]...)
			}
			i += sz
		}
		if len(out) >= size {
			if err := fn(out); err != nil {
				return err
			}
			out = out[:0]
		}
	}
done:
	if len(out) > 0 {
		return fn(out)
	}
	return nil
}
