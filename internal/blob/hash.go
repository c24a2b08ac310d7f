package blob

import (
	"crypto/sha256"
	"errors"
	"fmt"
)

// RefPrefix is the prefix of a blob reference inside a session line.
const RefPrefix = "blob:sha256:"

// HexLen is the number of lowercase hex digits in a blob name.
const HexLen = 64

// RefLen is the length of a complete blob reference.
const RefLen = len(RefPrefix) + HexLen

// Hash is the SHA-256 digest naming a blob. The zero value is the (valid)
// all-zero digest; obtain hashes from ParseRef, ParseHex or Sum.
type Hash [32]byte

// ErrBadRef is returned (wrapped) for strings that are not a valid blob
// reference or blob name.
var ErrBadRef = errors.New("invalid blob reference")

// hexVal maps a byte to its value if it is a lowercase hex digit, else 0xff.
var hexVal = func() (t [256]byte) {
	for i := range t {
		t[i] = 0xff
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = byte(c - '0')
	}
	for c := 'a'; c <= 'f'; c++ {
		t[c] = byte(c-'a') + 10
	}
	return t
}()

// isLowerHex reports whether c is one of 0-9 a-f.
func isLowerHex(c byte) bool { return hexVal[c] != 0xff }

// decodeHex decodes exactly 64 lowercase hex digits. It reports false for any
// other input.
func decodeHex(b []byte) (h Hash, ok bool) {
	if len(b) != HexLen {
		return h, false
	}
	for i := 0; i < 32; i++ {
		hi, lo := hexVal[b[2*i]], hexVal[b[2*i+1]]
		if hi|lo > 15 {
			return Hash{}, false
		}
		h[i] = hi<<4 | lo
	}
	return h, true
}

// ParseRef parses a blob reference. It accepts exactly "blob:sha256:"
// followed by 64 lowercase hex digits and nothing else (no surrounding
// space, no upper case, no path characters).
func ParseRef(s string) (Hash, error) {
	if len(s) != RefLen || s[:len(RefPrefix)] != RefPrefix {
		return Hash{}, fmt.Errorf("%w: %s", ErrBadRef, quoteShort(s))
	}
	h, ok := decodeHex([]byte(s[len(RefPrefix):]))
	if !ok {
		return Hash{}, fmt.Errorf("%w: %s", ErrBadRef, quoteShort(s))
	}
	return h, nil
}

// ParseHex parses a bare blob name: exactly 64 lowercase hex digits.
func ParseHex(s string) (Hash, error) {
	h, ok := decodeHex([]byte(s))
	if !ok {
		return Hash{}, fmt.Errorf("%w: %s", ErrBadRef, quoteShort(s))
	}
	return h, nil
}

const hexDigits = "0123456789abcdef"

// String returns the 64 lowercase hex digits of h (the blob's file name).
func (h Hash) String() string {
	var b [HexLen]byte
	for i, v := range h {
		b[2*i] = hexDigits[v>>4]
		b[2*i+1] = hexDigits[v&15]
	}
	return string(b[:])
}

// Sum returns the hash naming a blob with content data.
func Sum(data []byte) Hash { return Hash(sha256.Sum256(data)) }

// Ref returns the reference string "blob:sha256:<hex>".
func (h Hash) Ref() string { return RefPrefix + h.String() }

// MarshalText encodes h as 64 lowercase hex digits (used by encoding/json).
func (h Hash) MarshalText() ([]byte, error) { return []byte(h.String()), nil }

// UnmarshalText accepts exactly 64 lowercase hex digits.
func (h *Hash) UnmarshalText(b []byte) error {
	v, ok := decodeHex(b)
	if !ok {
		return fmt.Errorf("%w: %s", ErrBadRef, quoteShort(string(b)))
	}
	*h = v
	return nil
}

// quoteShort quotes s for an error message, cut to a sane length so a
// hostile input cannot flood the output. %q escapes control characters.
func quoteShort(s string) string {
	const max = 100
	if len(s) > max {
		return fmt.Sprintf("%q…", s[:max])
	}
	return fmt.Sprintf("%q", s)
}
