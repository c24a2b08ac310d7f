//go:build goexperiment.simd && amd64

package jsonl

import (
	"math/bits"
	"simd/archsimd"
)

// hasAVX2 selects the AVX2 string scan.
var hasAVX2 = archsimd.X86.AVX2()

const evenBits = 0x5555555555555555

// scanString validates the string starting at b[i] == '"' as
// scanStringSWAR does, 64 bytes a step with AVX2 (Go's experimental SIMD
// package, built only with GOEXPERIMENT=simd; the portable scan is the
// default build). FuzzScanString holds the two equal.
//
// Each step makes bit masks of the quotes, backslashes and control bytes
// of 64 bytes, marks the bytes escaped by a backslash (those after an odd
// run of backslashes, the run possibly begun in the previous step), and so
// finds the closing quote without a branch per escape; only the escaped
// bytes before it are looked at one by one (their table entry, and the hex
// digits of \u). A string that ends within 32 bytes before any escape
// takes one 32-byte step.
func scanString(b []byte, i int) (end int, esc, ok bool) {
	if !hasAVX2 {
		return scanStringSWAR(b, i)
	}
	quote := archsimd.BroadcastUint8x32('"')
	backslash := archsimd.BroadcastUint8x32('\\')
	ctl := archsimd.BroadcastUint8x32(0x1f)
	i++
	// Most strings (keys, ids, short values) end within 32 bytes, before
	// any escape: one step for them, without the escape bookkeeping.
	if i+32 <= len(b) {
		x := archsimd.LoadUint8x32Slice(b[i:])
		m := x.Equal(quote).Or(x.Equal(backslash)).Or(x.Min(ctl).Equal(x)).ToBits()
		if m != 0 {
			if k := i + bits.TrailingZeros32(m); b[k] == '"' {
				return k + 1, false, true
			}
		}
	}
	var carry uint64 // 1: b[i] is escaped by a backslash run of the previous step
	for i+64 <= len(b) {
		x := archsimd.LoadUint8x32Slice(b[i:])
		y := archsimd.LoadUint8x32Slice(b[i+32:])
		q := uint64(x.Equal(quote).ToBits()) | uint64(y.Equal(quote).ToBits())<<32
		bs := uint64(x.Equal(backslash).ToBits()) | uint64(y.Equal(backslash).ToBits())<<32
		// x <= 0x1f is min(x, 0x1f) == x (unsigned).
		c := uint64(x.Min(ctl).Equal(x).ToBits()) | uint64(y.Min(ctl).Equal(y).ToBits())<<32

		// Escaped bytes: a backslash that is itself escaped starts nothing;
		// in a run of backslashes every second one escapes the next byte,
		// counted from the run's first. Adding the odd-position run starts
		// to the backslashes carries through each run and flips the parity
		// of the runs that start on an odd position.
		bs &^= carry
		follows := bs<<1 | carry
		oddStarts := bs &^ evenBits &^ follows
		sum, over := bits.Add64(oddStarts, bs, 0)
		escaped := (evenBits ^ sum<<1) & follows
		carry = over

		before := ^uint64(0) // bytes before the closing quote
		term := q &^ escaped
		if term != 0 {
			before = term&-term - 1
		}
		if c&before != 0 {
			return i + bits.TrailingZeros64(c&before), esc, false
		}
		for e := escaped & before; e != 0; e &= e - 1 {
			esc = true
			k := i + bits.TrailingZeros64(e) - 1 // the backslash
			if _, ok := skipEscape(b, k); !ok {
				return k, esc, false
			}
		}
		if term != 0 {
			return i + bits.TrailingZeros64(term) + 1, esc, true
		}
		i += 64
	}
	// Fewer than 64 bytes left: the portable scan, from the backslash when
	// b[i] is escaped (scanStringSWAR starts after the byte it is given).
	e, esc2, ok := scanStringSWAR(b, i-1-int(carry))
	return e, esc || esc2, ok
}
