//go:build goexperiment.simd && amd64

package jsonl

import (
	"math/bits"
	"simd/archsimd"
)

// hasAVX2 selects the 32-byte string scan.
var hasAVX2 = archsimd.X86.AVX2()

// scanString validates the string starting at b[i] == '"' as
// scanStringSWAR does, 32 bytes a step with AVX2 (Go's experimental SIMD
// package, built only with GOEXPERIMENT=simd; the portable scan is the
// default build). FuzzScanString holds the two equal.
func scanString(b []byte, i int) (end int, esc, ok bool) {
	if !hasAVX2 {
		return scanStringSWAR(b, i)
	}
	quote := archsimd.BroadcastUint8x32('"')
	backslash := archsimd.BroadcastUint8x32('\\')
	ctl := archsimd.BroadcastUint8x32(0x1f)
	i++
	for i+32 <= len(b) {
		x := archsimd.LoadUint8x32Slice(b[i:])
		// x <= 0x1f is min(x, 0x1f) == x (unsigned).
		m := x.Equal(quote).Or(x.Equal(backslash)).Or(x.Min(ctl).Equal(x)).ToBits()
		if m == 0 {
			i += 32
			continue
		}
		i += bits.TrailingZeros32(m)
		if b[i] == '"' {
			return i + 1, esc, true
		}
		if b[i] != '\\' || i+1 >= len(b) {
			return i, esc, false
		}
		esc = true
		if i, ok = skipEscape(b, i); !ok {
			return i, esc, false
		}
	}
	// The last 31 bytes or fewer: the portable scan from the byte before i
	// (scanStringSWAR starts after a quote).
	e, esc2, ok := scanStringSWAR(b, i-1)
	return e, esc || esc2, ok
}
