//go:build amd64 && !purego

package jsonl

import "golang.org/x/sys/cpu"

// scanStrAVX2 scans a string's body from b[i] (not escaped; len(b) >= 64)
// 64 bytes a step (scanstr_amd64.s). r&1: an escape was passed; r>>1: 0
// the string ends at k, 1 it is invalid at k, 2 b[k] is a backslash whose
// escape the caller must check (\u or invalid) before resuming after it.
//
//go:noescape
func scanStrAVX2(b []byte, i int) (k, r int)

// hasAVX2 selects the assembly string scan (it also uses BMI1 and BMI2,
// which every AVX2 processor has, but they are checked all the same).
var hasAVX2 = cpu.X86.HasAVX2 && cpu.X86.HasBMI1 && cpu.X86.HasBMI2

// scanStringLong is scanString past its inline first word: the AVX2 scan
// when the processor has it and the line holds a whole 64-byte window,
// else the portable scanStringSWAR. FuzzScanString holds the two equal.
func scanStringLong(b []byte, i int) (end int, esc, ok bool) {
	if !hasAVX2 || len(b) < 64 {
		return scanStringSWAR(b, i)
	}
	i++
	for {
		k, r := scanStrAVX2(b, i)
		esc = esc || r&1 != 0
		switch r >> 1 {
		case 0:
			return k, esc, true
		case 1:
			return k, esc, false
		}
		// b[k] is a backslash whose escape is \u or invalid.
		esc = true
		if k+1 >= len(b) {
			return k, esc, false
		}
		if i, ok = skipEscape(b, k); !ok {
			return i, esc, false
		}
	}
}
