//go:build !amd64 || purego

package jsonl

// hasAVX2 is false: no assembly string scan on this architecture or with
// the purego tag.
const hasAVX2 = false

// scanStringLong is scanString past its inline first word: the portable
// scanStringSWAR (scanstr_amd64.go has the AVX2 version).
func scanStringLong(b []byte, i int) (end int, esc, ok bool) { return scanStringSWAR(b, i) }
